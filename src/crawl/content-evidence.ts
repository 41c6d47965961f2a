// Content evidence, opt-in (`contentEvidence`): beyond RFC 3986, and
// heuristic. What the ladder and the protocol rung cannot show — a manual served
// under several language prefixes whose missing translations fall back to one
// file — shows in the bodies:
// - a page whose body is byte-identical to a page fetched before becomes its alias
//   (evidence `digest`), and the pair teaches a rewrite rule between their
//   prefixes (rewrite-rules.ts);
// - a URL that a trusted rule maps onto another, and that no page declared as a
//   language variant (`hreflang`), is a predicted duplicate: its claim is held
//   back and fetched last;
// - when nothing else is left, a held URL is joined without a request (evidence
//   `rule`) only if its rule was never contradicted, the URL it maps to was fetched
//   and declares its own language variants, and no page declared the held URL one:
//   proof for that very URL, by the page it would duplicate. A rule never joins by
//   itself, nor does what other pages of the site declare: every other held URL is
//   fetched, so a page reachable only through it is not lost. (A joined URL is not
//   read: its links are taken to be those of the page it duplicates, resolved under
//   its prefix, and a page only they name is found only if the site names it
//   elsewhere, as its language links do.) A contradiction
//   later revokes the rule's joins (their URLs go back to the frontier) and
//   releases what it held.
// Nothing held is lost: a crawl that stops puts it back on the frontier.

import type { ClaimedUrl, IndexWriter } from '../store/index.js';
import type { ClaimBook } from './claim-book.js';
import type { CrawlTally } from './crawl-tally.js';
import type { DeclaredVariant } from './page-links.js';
import { describeRule, differingPrefixes, isTrusted, RULE_MIN_SUPPORT, RuleBook, type RewriteRule, type RuleMapping } from './rewrite-rules.js';
import type { ContentEvidenceSummary } from './crawl-summary.js';

export interface ContentEvidenceOptions {
  readonly tally: CrawlTally;
  /** Where held claims are marked, so that another URL's response may stand for them. */
  readonly claims: ClaimBook;
  /** Whether claims may be held back (not on a frontier shared by workers, whose host slots a held claim would keep). */
  readonly mayHold: boolean;
  /** Hand held claims back to the crawl loop, to be fetched now. */
  readonly release: (claims: readonly ClaimedUrl[]) => void;
}

/** A page fetched with a 2xx body. */
interface FetchedBody {
  /** The URL it stands for in the index (after aliases). */
  readonly id: number;
  readonly digest: string;
  /** Whether it declared its language variants (`hreflang` links): then a variant it does not name does not exist. */
  readonly declaresVariants: boolean;
  /** The languages it declared variants in (`hreflang`, lower-cased). */
  readonly languages: ReadonlySet<string>;
}

/** How many fetched bodies are remembered (oldest forgotten first): bounded memory on a big crawl. */
export const BODY_MEMORY = 500_000;

export class ContentEvidence {
  readonly #tally: CrawlTally;
  readonly #claims: ClaimBook;
  readonly #mayHold: boolean;
  readonly #release: (claims: readonly ClaimedUrl[]) => void;
  readonly #rules = new RuleBook();
  /** The first URL fetched with each body. */
  readonly #firstByDigest = new Map<string, string>();
  /** Pages fetched with a 2xx body, by URL key. */
  readonly #fetched = new Map<string, FetchedBody>();
  /** URLs some page declared as a language variant (`hreflang`): they exist in their own right. */
  readonly #declared = new Set<string>();
  /** Claims held back, by URL key. */
  readonly #held = new Map<string, ClaimedUrl>();
  /** The URLs each rule joined, to revoke if it is contradicted. */
  readonly #joined = new Map<RewriteRule, number[]>();
  #deferred = 0;
  #joinedCount = 0;
  #released = 0;
  #sampled = 0;

  constructor(options: ContentEvidenceOptions) {
    this.#tally = options.tally;
    this.#claims = options.claims;
    this.#mayHold = options.mayHold;
    this.#release = options.release;
  }

  /**
   * Whether a claim is held back: a page that a rule never contradicted maps onto
   * another, and that no page declared. Holding only delays: what is not proved at
   * the end is fetched.
   */
  hold(claimed: ClaimedUrl): boolean {
    if (!this.#mayHold || claimed.role !== 'page') return false;
    if (!this.#rules.mappings(claimed.key).some((mapping) => mapping.rule.contradictions === 0 && !this.#isDeclared(claimed.key, mapping))) return false;
    this.#held.set(claimed.key, claimed);
    this.#claims.held.add(claimed.id);
    this.#deferred++;
    return true;
  }

  get heldCount(): number {
    return this.#held.size;
  }

  /**
   * A page was fetched with a 2xx body (`key`, its URL after redirects; `id`, the URL
   * its representation stands for, after aliases): test the rules that map it onto a
   * fetched page, and make it an alias of the first page fetched with the same body.
   */
  async pageFetched(tx: IndexWriter, page: { readonly id: number; readonly key: string }, digest: string, alternates: readonly DeclaredVariant[]): Promise<void> {
    for (const alternate of alternates) if (alternate.key !== undefined) this.#declared.add(alternate.key);
    const languages = new Set(alternates.map((alternate) => alternate.language));
    this.#remember(page.key, { id: page.id, digest, declaresVariants: alternates.length > 0, languages });
    for (const mapping of this.#rules.mappings(page.key)) {
      const { rule, to } = mapping;
      const other = this.#fetched.get(to);
      // Two variants both declared exist in their own right: a rule predicts only the others.
      if (other === undefined || (this.#isDeclared(page.key, mapping) && this.#isDeclared(to, reverse(mapping, page.key)))) continue;
      if (other.digest === digest) rule.support++;
      else await this.#contradict(tx, rule, `${page.key} ≠ ${to}`);
    }
    const first = this.#firstByDigest.get(digest);
    const firstBody = first === undefined ? undefined : this.#fetched.get(first);
    if (first === undefined || firstBody === undefined || firstBody.digest !== digest) {
      this.#firstByDigest.set(digest, page.key);
      return;
    }
    if (first === page.key) return;
    const prefixes = differingPrefixes(page.key, first);
    // Another origin: evidence stays scoped to its origin.
    if (prefixes === undefined) return;
    if (firstBody.id !== page.id) {
      const detail = `its body is byte-identical to ${first}'s (SHA-256 ${digest})`;
      await tx.addAlias({ fromId: page.id, toId: firstBody.id, evidence: 'digest', detail });
      this.#tally.learned('digest', page.key, first, detail);
    }
    const { rule, isNew } = this.#rules.learn(prefixes, `${page.key} = ${first}`);
    if (isNew) rule.support++;
  }

  /**
   * The frontier is empty but for what is held. Each held URL is joined when a
   * trusted rule maps it onto a page that proves it (`#proves`); else, where a rule
   * still lacks support and the URL it maps onto was fetched, a few held URLs are
   * fetched as samples to test it; the others wait for those samples, or for a held
   * URL they map onto that goes first (`#goesFirst`), and the rest are fetched.
   * Returns how many were released to be fetched.
   */
  async settle(store: IndexWriter): Promise<number> {
    const release: ClaimedUrl[] = [];
    // Who waits for whom is decided on what was held when the round began.
    const wasHeld = new Map(this.#held);
    const samples = new Map<RewriteRule, number>();
    const undecided: { readonly held: ClaimedUrl; readonly mappings: readonly RuleMapping[] }[] = [];
    await store.transact(async (tx) => {
      for (const held of wasHeld.values()) {
        const row = await tx.getUrl(held.id);
        // Settled meanwhile by another URL's response.
        if (row?.state !== 'fetching') {
          this.#unhold(held);
          continue;
        }
        const mappings = this.#rules.mappings(held.key).filter((mapping) => mapping.rule.contradictions === 0 && !this.#isDeclared(held.key, mapping));
        const proof = mappings.find((mapping) => isTrusted(mapping.rule) && this.#proves(mapping.to));
        const untested = mappings.find(
          (mapping) => !isTrusted(mapping.rule) && this.#fetched.has(mapping.to) && (samples.get(mapping.rule) ?? 0) < RULE_MIN_SUPPORT - mapping.rule.support,
        );
        if (proof !== undefined) {
          this.#unhold(held);
          await this.#join(tx, held, proof);
        } else if (untested !== undefined) {
          samples.set(untested.rule, (samples.get(untested.rule) ?? 0) + 1);
          this.#unhold(held);
          release.push(held);
          this.#sampled++;
        } else undecided.push({ held, mappings });
      }
    });
    for (const { held, mappings } of undecided) {
      const waits = mappings.some(
        (mapping) => (samples.has(mapping.rule) && this.#fetched.has(mapping.to)) || this.#goesFirst(wasHeld.get(mapping.to), mapping, held),
      );
      if (waits) continue;
      this.#unhold(held);
      release.push(held);
    }
    // Each round must settle something: URLs that wait on each other under different
    // rules could otherwise wait for ever; the first held goes.
    const first = undecided[0]?.held;
    if (this.#held.size === wasHeld.size && first !== undefined) {
      this.#unhold(first);
      release.push(first);
    }
    this.#released += release.length;
    if (release.length > 0) this.#release(release);
    return release.length;
  }

  /**
   * Whether `url` is a variant some page declared: its URL named with an `hreflang`,
   * or its prefix's language (the segment the rule substitutes, `pt-br` in
   * `/manual/pt-br/`) declared by the page the rule maps it onto, whatever URL that
   * page's link names (sites ship broken language links).
   */
  #isDeclared(url: string, mapping: RuleMapping): boolean {
    if (this.#declared.has(url)) return true;
    const languages = this.#fetched.get(mapping.to)?.languages;
    return languages !== undefined && languages.has(lastSegment(mapping.from));
  }

  /**
   * Whether a fetched page proves what a trusted rule predicts of a URL no page
   * declared: it declares its own language variants (`hreflang`), and so says of that
   * very URL that it is no variant of its own. A page that declares none says nothing
   * of the URL, whatever other pages of its site declare: the URL may be a page of its
   * own (a real translation, with links to pages no other page names), and is fetched.
   */
  #proves(to: string): boolean {
    return this.#fetched.get(to)?.declaresVariants === true;
  }

  /**
   * Of two held URLs a rule maps onto each other, whether `other` is fetched first:
   * the one under the prefix more rules share (the language the others fall back
   * to), then the one claimed first.
   */
  #goesFirst(other: ClaimedUrl | undefined, mapping: RuleMapping, held: ClaimedUrl): boolean {
    if (other === undefined) return false;
    const heldPrefix = mapping.from;
    const otherPrefix = reverse(mapping, held.key).from;
    const share = this.#rules.sharing(otherPrefix) - this.#rules.sharing(heldPrefix);
    return share > 0 || (share === 0 && other.id < held.id);
  }

  /** Everything held, given back (the crawl stops: it goes back to the frontier). */
  drain(): ClaimedUrl[] {
    const held = [...this.#held.values()];
    for (const each of held) this.#unhold(each);
    return held;
  }

  summary(): ContentEvidenceSummary {
    const rules = this.#rules
      .rules()
      .sort((a, b) => b.support - a.support || a.contradictions - b.contradictions)
      .map(({ prefixes, support, contradictions, provedBy }) => ({ prefixes, support, contradictions, provedBy }));
    return { deferred: this.#deferred, joined: this.#joinedCount, released: this.#released, sampled: this.#sampled, rules };
  }

  async #join(tx: IndexWriter, held: ClaimedUrl, { rule, from, to }: RuleMapping): Promise<void> {
    const target = this.#fetched.get(to)!;
    const language = lastSegment(from);
    const detail =
      `predicted by the rule ${describeRule(rule)}, first proved by ${rule.provedBy}; ` +
      `joined without a request, as a predicted URL is only when the page it maps onto declares its own language variants and names neither that URL nor its language: ` +
      `${to} was fetched and declares its language variants (hreflang), not ${language}, and no page declared ${held.key} one`;
    await tx.addAlias({ fromId: held.id, toId: target.id, evidence: 'rule', detail });
    this.#tally.learned('rule', held.key, to, detail);
    this.#tally.saveFetch();
    this.#joinedCount++;
    const joined = this.#joined.get(rule);
    if (joined === undefined) this.#joined.set(rule, [held.id]);
    else joined.push(held.id);
  }

  /** A pair the rule maps onto each other differs: its joins are revoked, and what it alone held is released. */
  async #contradict(tx: IndexWriter, rule: RewriteRule, pair: string): Promise<void> {
    rule.contradictions++;
    if (rule.contradictions > 1) return;
    const reason = `the rule ${describeRule(rule)} was contradicted: ${pair} differ`;
    for (const id of this.#joined.get(rule) ?? []) {
      // The store puts a revoked alias back on the frontier.
      await tx.revokeAlias(id);
      this.#tally.frontier++;
      const row = await tx.getUrl(id);
      this.#tally.revokedEvidence('rule', row?.key ?? String(id), rule.prefixes.join(' ↔ '), reason);
    }
    this.#joined.delete(rule);
    const release = [...this.#held.values()].filter((held) => !this.#rules.mappings(held.key).some((mapping) => isTrusted(mapping.rule)));
    for (const held of release) this.#unhold(held);
    this.#released += release.length;
    if (release.length > 0) this.#release(release);
  }

  #unhold(held: ClaimedUrl): void {
    this.#held.delete(held.key);
    this.#claims.held.delete(held.id);
  }

  #remember(key: string, body: FetchedBody): void {
    this.#fetched.delete(key);
    this.#fetched.set(key, body);
    if (this.#fetched.size <= BODY_MEMORY) return;
    const [oldest, forgotten] = this.#fetched.entries().next().value!;
    this.#fetched.delete(oldest);
    if (this.#firstByDigest.get(forgotten.digest) === oldest) this.#firstByDigest.delete(forgotten.digest);
  }
}

/** The mapping seen from the other side: `to` mapped back onto `url`. */
function reverse(mapping: RuleMapping, url: string): RuleMapping {
  const [a, b] = mapping.rule.prefixes;
  return { rule: mapping.rule, from: mapping.from === a ? b : a, to: url };
}

/** The last segment of a prefix that ends with "/" (`pt-br` of `http://h/manual/pt-br/`), lower-cased. */
function lastSegment(prefix: string): string {
  const end = prefix.length - 1;
  return prefix.slice(prefix.lastIndexOf('/', end - 1) + 1, end).toLowerCase();
}
