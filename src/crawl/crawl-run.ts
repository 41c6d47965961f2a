// The crawl run as the index records it (its `crawl_run` row): what it was asked to
// do, and how it ended — its seeds' fate included, so that a run whose seeds all
// failed says why.

import { headerNameOf, requestOrigin, splitHeaderFor } from '../fetch/index.js';
import { proxyHostOf, proxyRoutesOf } from '../fetch/index.js';
import { walkAliases } from '../ladder/index.js';
import type { IndexWriter } from '../store/index.js';
import { errorCodeOf } from './broken-links.js';
import type { ValidCrawlerOptions } from './crawler-options.js';
import { crawlOptionsSchema, type CrawlSettingsData } from './crawl-settings.js';
import type { CrawlSummary } from './crawl-summary.js';
import type { SeedOutcome } from './crawl-summary.js';

/** What a run's settings are read from: every data option, whether robots.txt is consulted, the scope's roots. */
export type RunSettingsSource = CrawlSettingsData & Pick<ValidCrawlerOptions, 'robots' | 'scopeRoots'>;

/**
 * The settings of a run as plain JSON data: every data option, patterns as their
 * sources, whether robots.txt was read, and the scope's roots when they are not the
 * seeds (check's folders), so that `explain` judges the scope as the crawl did.
 */
export function runSettingsOf(options: RunSettingsSource): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const key of Object.keys(crawlOptionsSchema.shape)) {
    const value = (options as unknown as Readonly<Record<string, unknown>>)[key];
    settings[key] = Array.isArray(value) ? value.map((item) => (item instanceof RegExp ? item.source : item)) : value === Infinity ? null : value;
  }
  settings.robots = options.robots !== undefined;
  if (options.scopeRoots !== undefined) settings.scopeRoots = [...options.scopeRoots];
  // Credentials are never stored: of the header fields, their names only.
  delete settings.header;
  delete settings.headerFor;
  settings.headerNames = options.header.map((field) => headerNameOf(field) ?? '?');
  settings.headerForNames = options.headerFor.map((line) => {
    const { origin, field } = splitHeaderFor(line);
    return `${requestOrigin(origin) ?? '?'} ${headerNameOf(field) ?? '?'}`;
  });
  settings.proxy = proxyRecordOf(options.proxy);
  return settings;
}

/**
 * The proxy as a run records it: `none`, the host and port of the one given (its
 * userinfo, the credentials, never), or `environment: host:port` for the
 * environment's (empty when it sets none).
 */
function proxyRecordOf(proxy: string): string {
  if (proxy === 'none') return proxy;
  if (proxy !== '') return proxyHostOf(proxy);
  const routes = proxyRoutesOf(undefined);
  if (routes === undefined) return '';
  const hosts = [...new Set([routes.https, routes.http].filter((uri): uri is string => uri !== undefined).map(proxyHostOf))];
  return `environment: ${hosts.join(', ')}`;
}

const BODY_CAPPED = 'ERR_FETCH_BODY_TOO_LARGE';

/** Each seed's fate, from the index. */
export async function seedOutcomes(store: IndexWriter, seeds: readonly string[]): Promise<SeedOutcome[]> {
  const outcomes: SeedOutcome[] = [];
  for (const url of seeds) {
    const row = await store.findUrl(url);
    if (row === undefined) {
      outcomes.push({ url, isFetched: false, reason: 'not in the index' });
      continue;
    }
    // RFC 3986 §6.2.4: a seed proved an alias stands for the URL its chain ends at,
    // by the one alias walk (a cycle is named by its least member). The chain's rows
    // are read first; the walk then decides on them.
    const records = new Map([[row.id, row]]);
    for (let next = row.aliasOf; next !== undefined && !records.has(next); ) {
      const step = await store.getUrl(next);
      if (step === undefined) break;
      records.set(step.id, step);
      next = step.aliasOf;
    }
    const loaded = (id: number): number | undefined => {
      const to = records.get(id)?.aliasOf;
      return to !== undefined && records.has(to) ? to : undefined;
    };
    const end = records.get(walkAliases(row.id, loaded).end) ?? row;
    const own = (await store.history(row.id))?.fetches.at(-1);
    const last = own ?? (await store.history(end.id))?.fetches.at(-1);
    const error = last === undefined ? undefined : errorCodeOf(last.errorCode, last.status);
    const isDone = end.state === 'done' || row.state === 'done' || row.state === 'alias';
    // A body cut at the size cap is kept and read up to the cut: the seed was crawled, in part.
    const isFetched = isDone && last !== undefined && (error === undefined || error === BODY_CAPPED);
    outcomes.push({ url, isFetched, reason: isFetched ? undefined : (error ?? `not fetched (${end.state})`) });
  }
  return outcomes;
}

/** The run's counts kept in the index: what `stats` and the report sum over runs. */
export function runCountsOf(summary: CrawlSummary): Record<string, unknown> {
  return {
    requests: summary.requests,
    requestsByKind: summary.requestsByKind,
    fetchesSaved: summary.fetchesSaved,
    pagesFetched: summary.pagesFetched,
    pagesFailed: summary.pagesFailed,
    representationsReused: summary.representationsReused,
    redirected: summary.redirected,
    broken: summary.broken,
    verdicts: summary.verdicts,
    errorsByCode: summary.errorsByCode,
    resourcesChecked: summary.resourcesChecked,
    resourcesBroken: summary.resourcesBroken,
    externalChecked: summary.externalChecked,
    externalFromCache: summary.externalFromCache,
    externalBroken: summary.externalBroken,
    headFallbacks: summary.headFallbacks,
    secondPassAsked: summary.secondPassAsked,
    secondPassOk: summary.secondPassOk,
    notCheckedByRobots: summary.notCheckedByRobots,
    ...(summary.contentEvidence === undefined ? {} : { contentEvidence: summary.contentEvidence }),
  };
}

/** One line on how the run ended. */
export function runOutcomeOf(summary: CrawlSummary): string {
  if (summary.stoppedBy === 'seeds-failed') {
    return `no seed could be fetched: ${summary.seeds.map((seed) => `${seed.url} ${reasonText(seed.reason)}`.trim()).join(', ')}`;
  }
  return summary.stoppedBy;
}

/** What failed, in a few words (and what to do, where a flag does it), for a seed's code. */
const FAILURE_WORDS: Readonly<Record<string, string>> = {
  ERR_FETCH_DNS: 'DNS: no such host name',
  ERR_FETCH_DNS_TEMPORARY: 'DNS: the resolver did not answer',
  ERR_FETCH_CONNECTION_REFUSED: 'connection refused',
  ERR_FETCH_CONNECT_TIMEOUT: 'timeout: no connection',
  ERR_FETCH_HEADERS_TIMEOUT: 'timeout: no response',
  ERR_FETCH_REQUEST_TIMEOUT: 'timeout',
  ERR_FETCH_TLS: 'TLS handshake refused',
  ERR_FETCH_TLS_CERT_EXPIRED: 'TLS: the certificate has expired; --insecure skips the check',
  ERR_FETCH_TLS_SELF_SIGNED: 'TLS: self-signed certificate; trust its CA with --ca-file FILE, or --insecure',
  ERR_FETCH_TLS_HOSTNAME: 'TLS: the certificate is for another host name; --insecure skips the check',
  ERR_FETCH_TLS_UNTRUSTED: 'TLS: certificate not trusted; trust its CA with --ca-file FILE, or --insecure',
  ERR_FETCH_PROXY: 'the proxy could not be reached or refused the request',
  ERR_FETCH_NETWORK: 'network error',
  ERR_CRAWL_ROBOTS_UNREACHABLE: 'its robots.txt could not be read',
  HTTP_401: 'it asks for credentials: a user:password@ in the seed, --header or --cookie-jar',
};

/** A seed's reason: its code, with what failed when the code alone does not say. */
function reasonText(reason: string | undefined): string {
  if (reason === undefined) return '';
  const words = FAILURE_WORDS[reason];
  return words === undefined ? reason : `${reason} (${words})`;
}
