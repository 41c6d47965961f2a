// Learned rewrite rules between URL prefixes (beyond RFC 3986): the
// DUST idea (Bar-Yossef, Keidar, Schonfeld, "Do not crawl in the DUST", WWW 2007)
// in its simplest form, a substitution of one segment-aligned prefix for another
// (`http://h/manual/de/` ↔ `http://h/manual/en/`), learned from pairs of fetched
// pages whose bodies are byte-identical. A rule only predicts: it is tested by every
// pair of fetched URLs it maps onto each other, and one pair with different bodies
// (a contradiction) takes away its standing for good.

import { urlDifference } from '../ladder/index.js';

/** A substitution between two prefixes, either way, with how the pairs it maps went. */
export interface RewriteRule {
  /** The two prefixes, each ending with "/", in code-unit order. */
  readonly prefixes: readonly [string, string];
  /** Pairs of fetched URLs it maps onto each other whose bodies were byte-identical. */
  support: number;
  /** Pairs whose bodies differed. */
  contradictions: number;
  /** The first pair that proved it: `url = url`. */
  readonly provedBy: string;
}

/** A URL the rule maps `url` to, and the rule. */
export interface RuleMapping {
  readonly rule: RewriteRule;
  /** The prefix of the rule that `url` starts with (the other starts `to`). */
  readonly from: string;
  readonly to: string;
}

/** How many byte-identical pairs a rule needs, and no contradiction, before its predictions count. */
export const RULE_MIN_SUPPORT = 3;

/** Whether a rule's predictions count: enough support, never contradicted. */
export function isTrusted(rule: RewriteRule): boolean {
  return rule.contradictions === 0 && rule.support >= RULE_MIN_SUPPORT;
}

/**
 * The prefixes of a rule two URLs teach: where they differ as whole segments
 * (`urlDifference`), each prefix with the origin and ending with "/", the rest equal:
 * for `http://h/manual/de/mod/x.html` and `http://h/manual/mod/x.html`,
 * `['http://h/manual/de/', 'http://h/manual/']`. `undefined` when the URLs are equal,
 * differ in their last segment or query, or are of two origins (evidence stays scoped
 * to its origin).
 */
export function differingPrefixes(a: string, b: string): [string, string] | undefined {
  const difference = urlDifference(a, b);
  if (difference === undefined || !difference.from.startsWith('/') || !difference.to.startsWith('/')) return undefined;
  if (!difference.from.endsWith('/') || !difference.to.endsWith('/')) return undefined;
  const origin = a.slice(0, a.length - difference.from.length - difference.suffix.length);
  return [origin + difference.from, origin + difference.to];
}

/** The rules learned in one crawl, looked up by prefix. */
export class RuleBook {
  readonly #byPair = new Map<string, RewriteRule>();
  readonly #byPrefix = new Map<string, RewriteRule[]>();

  /** The rule that substitutes these prefixes, learned now if it is new (its first pair proves it). */
  learn(prefixes: [string, string], provedBy: string): { readonly rule: RewriteRule; readonly isNew: boolean } {
    const sorted: [string, string] = prefixes[0] < prefixes[1] ? prefixes : [prefixes[1], prefixes[0]];
    const pair = `${sorted[0]} ${sorted[1]}`;
    const known = this.#byPair.get(pair);
    if (known !== undefined) return { rule: known, isNew: false };
    const rule: RewriteRule = { prefixes: sorted, support: 0, contradictions: 0, provedBy };
    this.#byPair.set(pair, rule);
    for (const prefix of sorted) {
      const list = this.#byPrefix.get(prefix);
      if (list === undefined) this.#byPrefix.set(prefix, [rule]);
      else list.push(rule);
    }
    return { rule, isNew: true };
  }

  /** Every URL the rules map `url` to (the longest prefix of `url` first). */
  mappings(url: string): RuleMapping[] {
    const mappings: RuleMapping[] = [];
    for (let slash = url.lastIndexOf('/'); slash > 0; slash = url.lastIndexOf('/', slash - 1)) {
      const prefix = url.slice(0, slash + 1);
      for (const rule of this.#byPrefix.get(prefix) ?? []) {
        const other = rule.prefixes[0] === prefix ? rule.prefixes[1] : rule.prefixes[0];
        mappings.push({ rule, from: prefix, to: other + url.slice(prefix.length) });
      }
    }
    return mappings;
  }

  /** How many rules substitute `prefix`. */
  sharing(prefix: string): number {
    return this.#byPrefix.get(prefix)?.length ?? 0;
  }

  rules(): RewriteRule[] {
    return [...this.#byPair.values()];
  }
}

/** A rule as `explain` and the summary name it. */
export function describeRule(rule: RewriteRule): string {
  return `${rule.prefixes[0]} ↔ ${rule.prefixes[1]} (support ${rule.support}, contradictions ${rule.contradictions})`;
}
