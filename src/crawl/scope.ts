// Which URLs the crawl follows: the seeds' scope, the include/exclude patterns and
// the private-address guard. Decided once per URL, when a link to it is admitted;
// an out-of-scope URL is recorded (`skipped`), never fetched.

import type { ResolvedReference } from '../base/index.js';
import { normalizeReference, type LadderForms } from '../ladder/index.js';
import { parseUriReference, serialize, type UriReference } from '../uri/index.js';
import { privateAddressOf, type PrivateAddress } from './private-address.js';

/**
 * How far from the seeds the crawl goes:
 * - `origin`: the same scheme, host and port as a seed (RFC 6454 origin, compared at the
 *   RFC 3986 §6.2.3 scheme rung, so `HTTP://Example.com:80` is `http://example.com`);
 * - `host`: the same host, any of http/https and any port;
 * - `domain`: the same host or a subdomain of it (`docs.example.com` under `example.com`);
 * - `prefix`: the same origin and a path under the seed's directory (the path up to
 *   its last "/"), as `wget --no-parent`.
 */
export const SCOPES = ['origin', 'host', 'domain', 'prefix'] as const;

export type Scope = (typeof SCOPES)[number];

/** The schemes the crawl fetches. */
export const CRAWL_SCHEMES: ReadonlySet<string> = new Set(['http', 'https']);

/** Why a URL is not followed; `undefined` when it is in scope. */
export type ScopeVerdict =
  | { readonly reason: 'scheme'; readonly scheme: string }
  | { readonly reason: 'scope'; readonly scope: Scope }
  | { readonly reason: 'include' }
  | { readonly reason: 'exclude'; readonly pattern: string }
  | { readonly reason: 'private-address'; readonly address: PrivateAddress };

export interface ScopeRules {
  /** Seed URLs (absolute http/https URIs). */
  readonly seeds: readonly string[];
  readonly scope: Scope;
  readonly include: readonly RegExp[];
  readonly exclude: readonly RegExp[];
  readonly allowPrivate: boolean;
}

/** A seed at the scheme rung: its origin's parts, and its directory (the path up to its last "/"). */
interface Anchor {
  readonly scheme: string | undefined;
  readonly host: string;
  readonly port: string | undefined;
  readonly directory: string;
}

/** The scope test of one crawl. */
export class ScopeTest {
  readonly #rules: ScopeRules;
  readonly #anchors: readonly Anchor[];

  constructor(rules: ScopeRules) {
    this.#rules = rules;
    this.#anchors = rules.seeds.map((seed) => {
      const parsed = parseUriReference(seed);
      const uri = normalizeReference(parsed.ok ? parsed.value : emptyReference(), 'scheme');
      return { scheme: uri.scheme, host: uri.host ?? '', port: uri.port, directory: uri.path.slice(0, uri.path.lastIndexOf('/') + 1) };
    });
  }

  /**
   * `undefined` when `target` (an absolute URI, fragment or not) is in scope, else
   * why not. For text (seeds, redirect targets); a resolved link has its forms
   * already: `checkForms`.
   */
  check(target: string): ScopeVerdict | undefined {
    const parsed = parseUriReference(target);
    if (!parsed.ok || parsed.value.scheme === undefined) return { reason: 'scheme', scheme: '' };
    return this.checkParsed(normalizeReference(parsed.value, 'scheme'));
  }

  /** As `check`, for a target whose ladder forms are known (a resolved link): nothing is parsed or normalized. */
  checkForms(forms: LadderForms): ScopeVerdict | undefined {
    return this.checkParsed(forms.keyReference, forms.key);
  }

  /** As `check`, for a link's record (`PageContext.mayFollow`'s second argument). */
  checkLink(link: ResolvedReference): ScopeVerdict | undefined {
    return link.forms === undefined ? this.check(link.targetText) : this.checkForms(link.forms);
  }

  /**
   * As `check`, for a reference already at the scheme rung; `key`, when given,
   * must be its resource key (serialized without fragment).
   */
  checkParsed(uri: UriReference, key?: string): ScopeVerdict | undefined {
    const scheme = (uri.scheme ?? '').toLowerCase();
    if (!CRAWL_SCHEMES.has(scheme) || uri.host === undefined) return { reason: 'scheme', scheme };
    if (!this.#rules.allowPrivate) {
      const address = privateAddressOf(uri.host);
      if (address !== undefined) return { reason: 'private-address', address };
    }
    for (const anchor of this.#anchors) if (this.#isUnder(anchor, uri)) return this.#patterns(uri, key);
    return { reason: 'scope', scope: this.#rules.scope };
  }

  /**
   * The `include`/`exclude` verdict alone, for a link out of scope that the crawl
   * would check (an external link): the patterns mean "never request" there too.
   */
  checkPatterns(link: ResolvedReference): ScopeVerdict | undefined {
    if (link.forms !== undefined) return this.#patterns(link.forms.keyReference, link.forms.key);
    const parsed = parseUriReference(link.targetText);
    return parsed.ok ? this.#patterns(normalizeReference(parsed.value, 'scheme')) : { reason: 'scheme', scheme: '' };
  }

  #patterns(uri: UriReference, key?: string): ScopeVerdict | undefined {
    if (this.#rules.include.length === 0 && this.#rules.exclude.length === 0) return undefined;
    const text = key ?? serialize({ ...uri, fragment: undefined });
    if (this.#rules.include.length > 0 && !this.#rules.include.some((pattern) => pattern.test(text))) {
      return { reason: 'include' };
    }
    const excluded = this.#rules.exclude.find((pattern) => pattern.test(text));
    return excluded === undefined ? undefined : { reason: 'exclude', pattern: String(excluded) };
  }

  // Compared part by part, both at the scheme rung (a default port is already dropped):
  // nothing is built for the link.
  #isUnder(anchor: Anchor, uri: UriReference): boolean {
    const host = uri.host ?? '';
    switch (this.#rules.scope) {
      case 'origin':
        return isSameOrigin(anchor, uri);
      case 'host':
        return host === anchor.host;
      case 'domain':
        return host === anchor.host || (!anchor.host.startsWith('[') && isSubdomainOf(host, anchor.host));
      case 'prefix':
        return isSameOrigin(anchor, uri) && uri.path.startsWith(anchor.directory);
    }
  }
}

const DOT = 0x2e;

/** Whether `host` ends with "." and `parent` (`docs.example.com` under `example.com`). */
function isSubdomainOf(host: string, parent: string): boolean {
  return host.length > parent.length && host.endsWith(parent) && host.charCodeAt(host.length - parent.length - 1) === DOT;
}

/** RFC 6454: the same scheme, host and port. */
function isSameOrigin(anchor: Anchor, uri: UriReference): boolean {
  return (uri.scheme ?? '') === (anchor.scheme ?? '') && (uri.host ?? '') === anchor.host && uri.port === anchor.port;
}

function emptyReference(): UriReference {
  return { scheme: undefined, userinfo: undefined, host: undefined, port: undefined, path: '', query: undefined, fragment: undefined };
}

/** A one-line description of a verdict, for events and `explain`. */
export function describeVerdict(verdict: ScopeVerdict): string {
  switch (verdict.reason) {
    case 'scheme':
      return verdict.scheme === '' ? 'not an absolute URI' : `the scheme ${verdict.scheme}: is not crawled (only http and https)`;
    case 'scope':
      return `outside the crawl's scope (${verdict.scope} of the seeds)`;
    case 'include':
      return 'matches none of the `include` patterns';
    case 'exclude':
      return `matches the \`exclude\` pattern ${verdict.pattern}`;
    case 'private-address':
      return `names a ${verdict.address.kind} address (${verdict.address.address}); set \`allowPrivate\` to crawl it`;
  }
}
