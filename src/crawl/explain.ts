// The data of `linkladder explain <url>`: why a URL was fetched, skipped or merged,
// from what the index holds.

import { FETCHER_DEFAULTS, robotsRuleFor } from '../fetch/index.js';
import { EVIDENCE_WEIGHT, isAliasMaking, normalizeReference, normalizeSyntax, resourceKey, walkAliases, type SyntacticRung } from '../ladder/index.js';
import type { AliasRow, ArchivedRecord, CrawlRunRow, FetchRow, FirstLink, IndexWriter, UrlHistory, UrlRecord } from '../store/index.js';
import { parseUriReference, serialize } from '../uri/index.js';
import { CRAWL_DEFAULTS } from './crawler-options.js';
import { originOf } from './origin-key.js';
import { isFromCache } from './verdict-cache.js';
import { SCOPES, ScopeTest, describeVerdict, type Scope, type ScopeVerdict } from './scope.js';

/** A WARC record that stands for the URL (`crawl --warc`), and for a revisit the response it refers to. */
export interface ExplainArchived extends ArchivedRecord {
  /** A revisit's original: the first response archived with its payload digest (none in the index: `undefined`). */
  readonly refersTo?: Pick<ArchivedRecord, 'uri' | 'date' | 'file' | 'offset'> | undefined;
}

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
  /** The page and href that first named the URL (`undefined` for a seed, or a URL learned from a response). */
  readonly firstLink: FirstLink | undefined;
  /** The URL's own fetch rows, oldest first. */
  readonly fetches: readonly FetchRow[];
  /** The evidence of each step of `aliasChain` (redirect status, Content-Location value), in chain order. */
  readonly evidence: readonly AliasRow[];
  /**
   * The WARC response and revisit records of the URL (any spelling of it), then of each
   * later step of `aliasChain`; each URL's newest first.
   */
  readonly archived: readonly ExplainArchived[];
}

/** Why `url` was fetched, skipped or merged, from what `store` holds. Never throws on the URL. */
export async function explain(store: IndexWriter, url: string, scope?: ExplainScope): Promise<Explanation> {
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
      firstLink: undefined,
      fetches: [],
      evidence: [],
      archived: [],
    };
  }
  const key = resourceKey(parsed.value);
  const written = serialize({ ...parsed.value, fragment: undefined });
  const syntax = serialize({ ...normalizeSyntax(parsed.value), fragment: undefined });
  const spelling: SyntacticRung = written === key ? 'string' : syntax === key ? 'syntax' : 'scheme';
  const row = await store.findUrl(url);
  // RFC 3986 §6.2.4: the chain from the URL to the one that stands for it, each
  // step read once, then walked by the one rule of walkAliases (a cycle ends at its least id).
  const records = new Map<number, UrlRecord>();
  for (let current = row; current !== undefined && !records.has(current.id); ) {
    records.set(current.id, current);
    current = current.aliasOf === undefined ? undefined : await store.getUrl(current.aliasOf);
  }
  const walk = row === undefined ? undefined : walkAliases(row.id, (id) => records.get(id)?.aliasOf);
  const ids = walk === undefined ? [] : walk.path.slice(0, walk.path.indexOf(walk.end) + 1);
  const aliasChain = ids.map((id) => records.get(id)).filter((record) => record !== undefined);
  const resource = aliasChain[aliasChain.length - 1];
  // The rules of the crawl: as given, else those its last run recorded.
  const runs = await store.runs();
  const run = runs.at(-1);
  const rules = scope ?? (run === undefined ? undefined : scopeOfRun(run));
  let scopeVerdict: Explanation['scope'];
  if (rules !== undefined) {
    const seeds = rules.seeds;
    const verdict = new ScopeTest({
      seeds,
      scope: rules.scope ?? CRAWL_DEFAULTS.scope,
      include: rules.include ?? [],
      exclude: rules.exclude ?? [],
      allowPrivate: rules.allowPrivate ?? CRAWL_DEFAULTS.allowPrivate,
    }).check(url);
    scopeVerdict = { isInScope: verdict === undefined, reason: verdict === undefined ? undefined : describeScopeVerdict(verdict, seeds) };
  }
  // The history of each step of the chain, the URL itself first (read once each).
  const histories = await Promise.all(aliasChain.map((step) => store.history(step.id)));
  const history = histories[0];
  // Each step of the chain is proved by the alias row from that URL to the next.
  const evidence = aliasChain.slice(0, -1).flatMap((_step, i) => {
    const next = aliasChain[i + 1]!;
    const rows = histories[i]?.aliasesFrom ?? [];
    return rows.filter((a) => a.toId === next.id && isAliasMaking(a.evidence)).slice(0, 1);
  });
  const robotsRule = row?.state === 'failed' ? await robotsRuleOf(store, url, history?.fetches.at(-1)) : undefined;
  const depthLimit = run === undefined ? undefined : run.settings.maxDepth;
  const facts: Facts = { scope: scopeVerdict, robotsRule, maxDepth: typeof depthLimit === 'number' ? depthLimit : undefined, run };
  const described = describe(row, history, resource, evidence[0], facts);
  const verdict = described.verdict;
  const reason = described.reason + runNotes(runs, history?.fetches.at(-1));
  const archived = await archivedOf(store, [url, ...aliasChain.slice(1).map((step) => step.key)]);
  return {
    input: url,
    error: undefined,
    key,
    spelling,
    url: row,
    aliasChain,
    resource,
    verdict,
    reason,
    scope: scopeVerdict,
    firstLink: history?.firstLink,
    fetches: history?.fetches ?? [],
    evidence,
    archived,
  };
}

/** The response and revisit records of each URL (found by its key), a revisit with the response it refers to. */
async function archivedOf(store: IndexWriter, uris: readonly string[]): Promise<ExplainArchived[]> {
  const found: ExplainArchived[] = [];
  for (const uri of uris) {
    for (const record of await store.archivedRecords(uri)) {
      if (record.type === 'request') continue;
      if (record.type === 'response' || record.payloadDigest === undefined) {
        found.push(record);
        continue;
      }
      const original = await store.archivedPayload(record.payloadDigest);
      found.push({
        ...record,
        refersTo: original === undefined ? undefined : { uri: original.uri, date: original.date, file: original.file, offset: original.offset },
      });
    }
  }
  return found;
}

/**
 * What the run that made the URL's last request did unlike a default one, as notes:
 * robots.txt ignored (`ignoreRobots`), certificates not verified (`insecure`); else ''.
 */
function runNotes(runs: readonly CrawlRunRow[], last: FetchRow | undefined): string {
  if (last === undefined || isFromCache(last)) return '';
  // The run whose time span holds the request; a run still going (or killed) has no end yet.
  const run = runs.findLast((r) => r.startedAt <= last.startedAt && (r.endedAt === undefined || last.startedAt <= r.endedAt));
  if (run === undefined) return '';
  const notes: string[] = [];
  if (run.settings.ignoreRobots === true) notes.push(`robots.txt was ignored for that run (run ${run.id}, --ignore-robots)`);
  if (run.settings.insecure === true) notes.push(`TLS certificates were not verified in that run (run ${run.id}, --insecure)`);
  return notes.map((note) => `; ${note}`).join('');
}

/** What the index says about the crawl beyond the URL's own rows. */
interface Facts {
  readonly scope: Explanation['scope'];
  /** The robots.txt rule that refused the URL, as written (`Disallow: /private/`) with its origin. */
  readonly robotsRule: { readonly origin: string; readonly rule: string | undefined } | undefined;
  readonly maxDepth: number | undefined;
  readonly run: CrawlRunRow | undefined;
}

function describe(
  row: UrlRecord | undefined,
  history: UrlHistory | undefined,
  resource: UrlRecord | undefined,
  proof: AliasRow | undefined,
  facts: Facts,
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
      return { verdict: 'fetched', reason: describeFetched(history?.fetches ?? [], row.role) + describeCanonical(history) };
    case 'failed':
      return { verdict: 'failed', reason: describeFailed(history?.fetches.at(-1), facts.robotsRule, row.key) };
    case 'skipped':
      return { verdict: 'skipped', reason: `recorded, not fetched: ${describeSkipped(row, history?.firstLink, facts)}` };
    case 'alias':
      return { verdict: 'merged', reason: describeMerged(history?.fetches ?? [], resource, proof) };
  }
}

/** A fetch row made from another URL's response has no duration and no redirects: not a request of its own. */
function isOwnRequest(fetch: FetchRow): boolean {
  return fetch.durationMs !== undefined || fetch.redirects.length > 0;
}

function describeFetched(fetches: readonly FetchRow[], role: UrlRecord['role']): string {
  const last = fetches[fetches.length - 1];
  if (last === undefined) return 'fetched (no fetch row: recorded by an older version)';
  const status = last.status === undefined ? '' : ` (status ${last.status})`;
  if (isFromCache(last)) return `${fromCacheText(last)}${status}: no request this run`;
  if (!isOwnRequest(last)) {
    return `fetched once, with another URL’s response${status}: the end of a redirect chain or a Content-Location named it`;
  }
  const retries = last.attempts > 1 ? ` after ${last.attempts} attempts` : '';
  const method = last.method === undefined ? '' : ` (${last.method})`;
  // What the crawl did with it besides the request: an external link and a resource are checked, never read for links.
  if (role === 'external') return `checked once as an external link${method}${retries}${status}: out of scope, never crawled`;
  if (role === 'resource') return `checked once as a resource a page uses${method}${retries}${status}: not read for links (but a stylesheet's url() and @import)`;
  return `fetched once, by a request of its own${retries}${status}`;
}

/** An answer taken from the verdict cache: when it was really asked, by an earlier run. */
function fromCacheText(fetch: FetchRow): string {
  return `answered from the cache of ${new Date(fetch.startedAt).toISOString()} (an earlier run asked it${fetch.method === undefined ? '' : ` with ${fetch.method}`})`;
}

/**
 * A page's rel=canonical naming another URL: a claim, recorded and never obeyed, so the
 * page is no alias — as the summary, `stats` and the graph count it.
 */
function describeCanonical(history: UrlHistory | undefined): string {
  const claim = history?.aliasesFrom.find((alias) => alias.evidence === 'canonical');
  return claim === undefined ? '' : `; it names ${claim.toKey} as canonical (rel=canonical): a claim, recorded and not obeyed, so it is no alias of that URL`;
}

function describeMerged(fetches: readonly FetchRow[], resource: UrlRecord | undefined, proof: AliasRow | undefined): string {
  const target = resource?.key ?? 'another URL';
  // Content evidence goes beyond RFC 3986: said to be heuristic, with what proved it.
  if (proof !== undefined && EVIDENCE_WEIGHT[proof.evidence] === 'content') {
    return `joined to ${target} by content evidence (heuristic, --content-evidence): ${proof.detail ?? proof.evidence}; links to it name ${target} and fetch nothing`;
  }
  const own = fetches.filter(isOwnRequest);
  const because =
    proof === undefined
      ? 'protocol evidence'
      : proof.evidence === 'redirect'
        ? `a redirect${proof.detail === undefined || proof.detail === '' ? '' : ` (${proof.detail})`}`
        : `Content-Location: ${proof.detail ?? target}`;
  const requested =
    own.length > 0
      ? `requested once, and the server answered with ${because}`
      : `never requested on its own: ${because} seen in another response proved it`;
  return `merged into ${target}: ${requested}; links to it name ${target} and fetch nothing`;
}

/** The rules of the crawl a run recorded. */
function scopeOfRun(run: CrawlRunRow): ExplainScope {
  const settings = run.settings;
  const patterns = (value: unknown): RegExp[] => (Array.isArray(value) ? value.filter((p) => typeof p === 'string').map((p) => new RegExp(p)) : []);
  const scope = typeof settings.scope === 'string' && (SCOPES as readonly string[]).includes(settings.scope) ? (settings.scope as Scope) : undefined;
  // The scope's roots, when the run had its own (check's folders), stand where the seeds would.
  const roots = Array.isArray(settings.scopeRoots) ? settings.scopeRoots.filter((root): root is string => typeof root === 'string') : [];
  return {
    seeds: roots.length > 0 ? roots : run.seeds,
    ...(scope === undefined ? {} : { scope }),
    include: patterns(settings.include),
    exclude: patterns(settings.exclude),
    ...(typeof settings.allowPrivate === 'boolean' ? { allowPrivate: settings.allowPrivate } : {}),
  };
}

/** A scope verdict with the rule that decided it: the prefix or origin of the seeds, the address refused. */
function describeScopeVerdict(verdict: ScopeVerdict, seeds: readonly string[]): string {
  switch (verdict.reason) {
    case 'scope': {
      const anchors = [...new Set(seeds.map((seed) => anchorOf(seed, verdict.scope)))].join(', ');
      return `out of scope (${verdict.scope} ${anchors})`;
    }
    case 'private-address':
      return `private address refused (${verdict.address.kind} ${verdict.address.address})`;
    default:
      return describeVerdict(verdict);
  }
}

/** What a seed anchors for a scope: its directory (prefix), origin, host or domain. */
function anchorOf(seed: string, scope: Scope): string {
  const parsed = parseUriReference(seed);
  if (!parsed.ok) return seed;
  const uri = normalizeReference(parsed.value, 'scheme');
  const origin = `${uri.scheme ?? ''}://${uri.host ?? ''}${uri.port === undefined || uri.port === '' ? '' : `:${uri.port}`}`;
  switch (scope) {
    case 'prefix':
      return origin + uri.path.slice(0, uri.path.lastIndexOf('/') + 1);
    case 'origin':
      return origin;
    default:
      return uri.host ?? seed;
  }
}

function describeSkipped(row: UrlRecord, firstLink: FirstLink | undefined, facts: Facts): string {
  const scope = facts.scope;
  if (scope !== undefined && !scope.isInScope) return scope.reason ?? 'out of scope';
  if (facts.maxDepth !== undefined && row.depth > facts.maxDepth) return `deeper than maxDepth (${row.depth} > ${facts.maxDepth})`;
  if (firstLink?.element !== undefined) return `not followed: <${firstLink.element}${firstLink.attribute === undefined ? '' : ` ${firstLink.attribute}`}>`;
  if (scope === undefined) return 'out of scope, deeper than maxDepth, or named only by references that are not followed (no crawl run recorded to say which)';
  return 'named only by references that are not followed';
}

/** Why a URL has no usable response: the code of its fetch row, and for a refusal the rule. */
function describeFailed(last: FetchRow | undefined, robots: Facts['robotsRule'], key: string): string {
  const code = last?.errorCode;
  if (code === 'ERR_CRAWL_HOST_UNREACHABLE') {
    return `not requested: its host (${originOf(key) ?? key}) did not answer the requests before it and was paused for the run (${code})`;
  }
  if (code === 'ERR_CRAWL_ROBOTS_DISALLOWED') {
    const rule = robots?.rule;
    const match = rule === undefined ? undefined : /^disallow\s*:\s*(.*)$/i.exec(rule);
    const what = match === null || match === undefined ? (rule === undefined ? 'this URL' : rule) : match[1];
    return `refused, not requested: robots.txt of ${robots?.origin ?? 'its origin'} disallows ${what}`;
  }
  if (code === 'ERR_CRAWL_PRIVATE_ADDRESS') return 'refused: a redirect led to a private address (private address refused)';
  if (last === undefined) return 'failed (no fetch row: recorded by an older version)';
  const status = last.status === undefined ? '' : ` (status ${last.status})`;
  if (isFromCache(last)) return `${fromCacheText(last)}, without a usable response: ${code ?? 'no response'}${status}`;
  return `requested without a usable response: ${code ?? 'no response'}${status}`;
}

/** The robots.txt rule that refused `url`, from the answer the index keeps for its origin. */
async function robotsRuleOf(store: IndexWriter, url: string, last: FetchRow | undefined): Promise<Facts['robotsRule']> {
  if (last?.errorCode !== 'ERR_CRAWL_ROBOTS_DISALLOWED') return undefined;
  const parsed = parseUriReference(url);
  if (!parsed.ok) return undefined;
  const uri = normalizeReference(parsed.value, 'scheme');
  const origin = `${uri.scheme ?? ''}://${uri.host ?? ''}${uri.port === undefined || uri.port === '' ? '' : `:${uri.port}`}`;
  let body: string | undefined;
  try {
    body = (await store.robotsCache.get(origin))?.body;
  } catch {
    body = undefined;
  }
  const token = /^[A-Za-z_-]+/.exec(FETCHER_DEFAULTS.userAgent)?.[0] ?? '*';
  return { origin, rule: body === undefined ? undefined : robotsRuleFor(body, serialize({ ...uri, fragment: undefined }), token) };
}
