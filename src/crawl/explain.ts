// The data of `linkladder explain <url>`: why a URL was fetched, skipped or merged,
// from what the index holds.

import { normalizeSyntax, resourceKey, type SyntacticRung } from '../ladder/index.js';
import type { IndexStore, UrlRecord } from '../store/index.js';
import { parseUriReference, serialize } from '../uri/index.js';
import { CRAWL_DEFAULTS } from './crawl-options.js';
import { ScopeTest, describeVerdict, type Scope } from './scope.js';

/** What became of a URL. */
export type ExplainVerdict = 'unknown' | 'queued' | 'fetching' | 'fetched' | 'failed' | 'skipped' | 'merged';

/** The crawl's scope, to say why a skipped URL was not followed. */
export interface ExplainScope {
  readonly seeds: readonly string[];
  /** @default 'origin' */
  readonly scope?: Scope;
  /** @default [] */
  readonly include?: readonly RegExp[];
  /** @default [] */
  readonly exclude?: readonly RegExp[];
  /** @default false */
  readonly allowPrivate?: boolean;
}

export interface Explanation {
  /** The URL asked about, as given. */
  readonly input: string;
  /** Why `input` is not an absolute URI (an `ERR_URI_*` code), if it is not. */
  readonly error: string | undefined;
  /** Its resource key: the RFC 3986 §6.2.3 scheme-rung form without fragment (§6.1). */
  readonly key: string | undefined;
  /** How far up the ladder `input` climbs to meet its key: `string` when it is written as the key. */
  readonly spelling: SyntacticRung | undefined;
  /** The index's row for the key. */
  readonly url: UrlRecord | undefined;
  /** The protocol-rung chain from `url` (first) to the URL that stands for it (last); one row when it is no alias. */
  readonly aliasChain: readonly UrlRecord[];
  /** The URL that stands for it: the end of `aliasChain`. */
  readonly resource: UrlRecord | undefined;
  readonly verdict: ExplainVerdict;
  /** One sentence: why. */
  readonly reason: string;
  /** With a scope given: whether the crawl follows the URL, and why not. */
  readonly scope: { readonly isInScope: boolean; readonly reason: string | undefined } | undefined;
  /** What the index cannot tell yet (see the store proposals in the crawl's notes). */
  readonly missing: readonly string[];
}

/** What IndexStore does not answer yet, and so `explain` cannot. */
export const EXPLAIN_MISSING: readonly string[] = Object.freeze([
  'the evidence of each alias (redirect or Content-Location, with its status or header value): IndexStore has no aliasesOf(id)',
  'the page and raw href that first led to the URL: IndexStore has no firstLinkTo(id)',
  'its fetch rows (status, error code, and whether the representation came with another URL’s response): IndexStore has no fetchesOf(id)',
]);

/** Why `url` was fetched, skipped or merged, from what `store` holds. Never throws on the URL. */
export function explain(store: IndexStore, url: string, scope?: ExplainScope): Explanation {
  const parsed = parseUriReference(url);
  if (!parsed.ok || parsed.value.scheme === undefined) {
    return {
      input: url,
      error: parsed.ok ? 'ERR_URI_NOT_ABSOLUTE' : parsed.error.code,
      key: undefined,
      spelling: undefined,
      url: undefined,
      aliasChain: [],
      resource: undefined,
      verdict: 'unknown',
      reason: 'not an absolute URI: it names no resource',
      scope: undefined,
      missing: EXPLAIN_MISSING,
    };
  }
  const key = resourceKey(parsed.value);
  const written = serialize({ ...parsed.value, fragment: undefined });
  const syntax = serialize({ ...normalizeSyntax(parsed.value), fragment: undefined });
  const spelling: SyntacticRung = written === key ? 'string' : syntax === key ? 'syntax' : 'scheme';
  const row = store.findUrl(url);
  const aliasChain: UrlRecord[] = [];
  const seen = new Set<number>();
  for (let current = row; current !== undefined && !seen.has(current.id); ) {
    aliasChain.push(current);
    seen.add(current.id);
    current = current.aliasOf === undefined ? undefined : store.getUrl(current.aliasOf);
  }
  const resource = aliasChain[aliasChain.length - 1];
  let scopeVerdict: Explanation['scope'];
  if (scope !== undefined) {
    const verdict = new ScopeTest({
      seeds: scope.seeds,
      scope: scope.scope ?? CRAWL_DEFAULTS.scope,
      include: scope.include ?? [],
      exclude: scope.exclude ?? [],
      allowPrivate: scope.allowPrivate ?? CRAWL_DEFAULTS.allowPrivate,
    }).check(url);
    scopeVerdict = { isInScope: verdict === undefined, reason: verdict === undefined ? undefined : describeVerdict(verdict) };
  }
  const { verdict, reason } = describe(row, resource, scopeVerdict);
  return { input: url, error: undefined, key, spelling, url: row, aliasChain, resource, verdict, reason, scope: scopeVerdict, missing: EXPLAIN_MISSING };
}

function describe(
  row: UrlRecord | undefined,
  resource: UrlRecord | undefined,
  scope: Explanation['scope'],
): { verdict: ExplainVerdict; reason: string } {
  if (row === undefined) return { verdict: 'unknown', reason: 'not in the index: no seed or link has named it (at any rung)' };
  switch (row.state) {
    case 'queued':
      return { verdict: 'queued', reason: `on the frontier at depth ${row.depth}: the next crawl fetches it` };
    case 'fetching':
      return {
        verdict: 'fetching',
        reason: 'claimed by a crawl that is running, or was killed (the index puts it back on the frontier when opened again)',
      };
    case 'done':
      return {
        verdict: 'fetched',
        reason: 'fetched once, by a request of its own or with another URL’s response (the end of a redirect chain, a Content-Location)',
      };
    case 'failed':
      return {
        verdict: 'failed',
        reason: 'tried without a usable response, or refused (robots.txt, a redirect into a private address): its fetch row has the code',
      };
    case 'skipped':
      return {
        verdict: 'skipped',
        reason:
          scope !== undefined && !scope.isInScope
            ? `recorded, not fetched: ${scope.reason ?? 'out of scope'}`
            : 'recorded, not fetched: out of scope, deeper than maxDepth, or named only by references that are not followed (img, link, …)',
      };
    case 'alias':
      return {
        verdict: 'merged',
        reason: `merged into ${resource?.key ?? 'another URL'} by protocol evidence (a redirect or a Content-Location): never fetched on its own, and links to it name that URL`,
      };
  }
}
