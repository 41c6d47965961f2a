// The verdict on a URL's answer, recorded on its fetch row when the crawl records it:
// `ok`, `broken` or `unverified`. Users gate merges on it, so `broken` says only
// what the target itself proved (it is not there, or never leads anywhere), and
// everything that says more about the network, the server's load, or how it treats
// a crawler than about the target is `unverified` — a verdict that must not flip
// a CI run from one day to the next. One function decides, from the facts of the
// last fetch (after the polite retries), with one table for the error codes.

import { OptionError, type ErrorCode } from '../errors.js';
import type { FetchRecord, FetchRow, IndexReader, UrlRole, Verdict } from '../store/index.js';
import { brokenKindOf, errorCodeOf, noBroken, type BrokenKind } from './broken-links.js';

export type { Verdict } from '../store/index.js';

export const VERDICTS: readonly Verdict[] = ['ok', 'broken', 'unverified'];

/**
 * Verdicts set for statuses, overriding the defaults whatever the URL's role:
 * `statuses` by a single status, `classes` by its first digit (`4` for `4xx`). A
 * single status beats its class.
 */
export interface StatusPolicy {
  readonly statuses: Readonly<Record<number, Verdict>>;
  readonly classes: Readonly<Record<number, Verdict>>;
}

/** No override: every status gets its default verdict. */
export const DEFAULT_STATUS_POLICY: StatusPolicy = Object.freeze({ statuses: Object.freeze({}), classes: Object.freeze({}) });

/** What the verdict is decided from: the last fetch of a URL, and what the URL is to the crawl. */
export interface VerdictFacts {
  /** The final status, after the redirects followed; `undefined` when no response came. */
  readonly status: number | undefined;
  /** The fetch's code (`ERR_FETCH_*`, `ERR_CRAWL_*`), if any. */
  readonly errorCode: string | undefined;
  /** `page` and `resource` are the crawl's own hosts; `external` is out of its scope. */
  readonly role: UrlRole;
  /** A 304 revalidated the representation recorded before (RFC 9110 §15.4.5). */
  readonly isNotModified?: boolean | undefined;
}

/**
 * What each code says of the target. `status`: the code does not judge it — it may
 * come after the response's status (a body cut, late, too large, undecodable), and
 * the status judges the target; with no status, such a fetch is `unverified`.
 * Exhaustive over the fetch and crawl codes: a new code does not compile until it has a row.
 */
export const CODE_VERDICTS = {
  // The URL cannot be requested as written: no browser would reach it either.
  ERR_FETCH_INVALID_URL: 'broken',
  // A redirect to another scheme (ftp:, mailto:): not ours to check, not proved broken.
  ERR_FETCH_UNSUPPORTED_SCHEME: 'unverified',
  // The server's redirects lead nowhere, the same way for a browser.
  ERR_FETCH_TOO_MANY_REDIRECTS: 'broken',
  ERR_FETCH_REDIRECT_LOOP: 'broken',
  ERR_FETCH_REDIRECT_WITHOUT_LOCATION: 'broken',
  ERR_FETCH_BAD_LOCATION: 'broken',
  // Our own hook failed: nothing was learned about the target.
  ERR_FETCH_REDIRECT_HOOK_FAILED: 'unverified',
  // Deadlines and the network: the next run may get an answer.
  ERR_FETCH_CONNECT_TIMEOUT: 'unverified',
  ERR_FETCH_HEADERS_TIMEOUT: 'unverified',
  ERR_FETCH_NETWORK: 'unverified',
  ERR_FETCH_CONNECTION_REFUSED: 'unverified',
  ERR_FETCH_ABORTED: 'unverified',
  // A deadline or a cut that may fall after the status came: the status judges it (a 200
  // whose body was cut exists; the page's defect is BODY_TRUNCATED), no status proves nothing.
  ERR_FETCH_BODY_TIMEOUT: 'status',
  ERR_FETCH_REQUEST_TIMEOUT: 'status',
  ERR_FETCH_TOO_SLOW: 'status',
  ERR_FETCH_BODY_TRUNCATED: 'status',
  // RFC 1035 §4.1.1 RCODE 3 (NXDOMAIN): the DNS says the name does not exist.
  ERR_FETCH_DNS: 'broken',
  // The resolver failed or did not answer: whether the name exists is not known.
  ERR_FETCH_DNS_TEMPORARY: 'unverified',
  // A certificate expired or a handshake refused is the server's to fix, often soon, and
  // says nothing of whether the resource exists; a TLS-intercepting proxy causes it too.
  ERR_FETCH_TLS: 'unverified',
  // A certificate a browser refuses too: `broken` on the crawl's own hosts (OWN_HOST_BROKEN),
  // whose owner must fix it; on an external host, as a handshake refused, `unverified`.
  ERR_FETCH_TLS_CERT_EXPIRED: 'unverified',
  ERR_FETCH_TLS_SELF_SIGNED: 'unverified',
  ERR_FETCH_TLS_HOSTNAME: 'unverified',
  ERR_FETCH_TLS_UNTRUSTED: 'unverified',
  // The proxy failed: nothing was learned about the target.
  ERR_FETCH_PROXY: 'unverified',
  // Not HTTP: a server (or a proxy before it) misbehaving at the transport, not a missing target.
  ERR_FETCH_PROTOCOL: 'unverified',
  // A valid answer to a plain GET that names no representation (RFC 9110 §15.4.5), the same
  // every time, as a redirect without Location: nothing a browser could show.
  ERR_FETCH_UNSOLICITED_NOT_MODIFIED: 'broken',
  // The response came: its status judges the target. A body cut at the size cap is kept;
  // one that does not decompress is the page's defect (counted as `cut` by the summary and
  // `stats`, as the cap is), not a missing target.
  ERR_FETCH_BODY_TOO_LARGE: 'status',
  ERR_FETCH_CONTENT_ENCODING: 'status',
  // The crawl's own refusals: not requested, so not judged.
  ERR_FETCH_PRIVATE_ADDRESS: 'unverified',
  // A folder's file that cannot be read would not be served either (a web server answers 403 or 500 for it):
  // the same every time. A URL under no folder was not checked at all.
  ERR_FETCH_FILE_UNREADABLE: 'broken',
  ERR_FETCH_FILE_NOT_REGULAR: 'broken',
  ERR_FETCH_NO_ROOT: 'unverified',
  ERR_CRAWL_ROBOTS_DISALLOWED: 'unverified',
  ERR_CRAWL_ROBOTS_UNREACHABLE: 'unverified',
  ERR_CRAWL_PRIVATE_ADDRESS: 'unverified',
  ERR_CRAWL_HOST_UNREACHABLE: 'unverified',
  ERR_CRAWL_FETCHER_THREW: 'unverified',
  ERR_CRAWL_STOPPED: 'unverified',
} as const satisfies Readonly<Record<Extract<ErrorCode, `ERR_FETCH_${string}` | `ERR_CRAWL_${string}`>, Verdict | 'status'>>;

/**
 * Codes that are `broken` on the crawl's own hosts (a page or a resource): a
 * certificate every browser refuses, on a site the user owns. A staging site's own
 * CA is trusted with `--ca-file`; a self-signed one skipped with `--insecure`.
 */
export const OWN_HOST_BROKEN: ReadonlySet<string> = new Set([
  'ERR_FETCH_TLS_CERT_EXPIRED',
  'ERR_FETCH_TLS_SELF_SIGNED',
  'ERR_FETCH_TLS_HOSTNAME',
  'ERR_FETCH_TLS_UNTRUSTED',
]);

/**
 * The statuses that say the resource is not there: 404 Not Found (RFC 9110 §15.5.5)
 * and 410 Gone (§15.5.11). Whoever asks, and however.
 */
const GONE: ReadonlySet<number> = new Set([404, 410]);

/**
 * 4xx that say more about the request than the resource, from any host: 408 Request
 * Timeout (RFC 9110 §15.5.9) and 429 Too Many Requests (RFC 6585 §4) ask to come back later.
 */
const LATER: ReadonlySet<number> = new Set([408, 429]);

/**
 * The verdict on a fetch:
 * 1. a status the policy names (a single status, else its class), whatever the role;
 * 2. an error code that judges the target (`CODE_VERDICTS`, and `OWN_HOST_BROKEN` on the
 *    crawl's own hosts); a code not in the table with no status is `unverified`;
 * 3. by status: 2xx, 3xx (a redirect the crawl did not follow again: its target is
 *    judged on its own row) and a 304 revalidation are `ok`; 404 and 410 are `broken`;
 *    408 and 429 are `unverified`; another 4xx is `broken` from the crawl's own hosts
 *    (a page or resource of the site that refuses its own crawler is a defect the
 *    site owns; `403=ok` says otherwise) and `unverified` from an external host —
 *    401, 403, 405, 451 and the non-standard 999 of bot walls (LinkedIn) answer who
 *    asks and how (a crawler, HEAD, no cookie, a country), not whether the page
 *    exists, and a browser mostly gets it; 5xx, 1xx and statuses past 599 are
 *    `unverified`.
 */
export function verdictOf(facts: VerdictFacts, policy: StatusPolicy = DEFAULT_STATUS_POLICY): Verdict {
  const { status, errorCode } = facts;
  if (errorCode !== undefined && facts.role !== 'external' && OWN_HOST_BROKEN.has(errorCode)) return 'broken';
  const byCode = errorCode === undefined ? 'status' : ((CODE_VERDICTS as Readonly<Record<string, Verdict | 'status'>>)[errorCode] ?? 'unverified');
  if (status === undefined) return byCode === 'status' ? 'unverified' : byCode;
  // A redirect that could not be followed keeps its 3xx: the code judges it, not the policy.
  if (byCode !== 'status') return byCode;
  const set = policy.statuses[status] ?? policy.classes[Math.floor(status / 100)];
  if (set !== undefined) return set;
  if (facts.isNotModified === true || status === 304) return 'ok';
  if (status >= 200 && status < 400) return 'ok';
  if (GONE.has(status)) return 'broken';
  if (LATER.has(status)) return 'unverified';
  if (status >= 400 && status < 500) return facts.role === 'external' ? 'unverified' : 'broken';
  return 'unverified';
}

/**
 * The verdict of a fetch row: as the crawl recorded it, or, for a row written before
 * verdicts were (migration 012), derived as the crawl would have with the default
 * policy. `role`: the URL's.
 */
export function verdictOfRow(row: Pick<FetchRow, 'status' | 'errorCode' | 'isNotModified' | 'verdict'>, role: UrlRole): Verdict {
  return row.verdict ?? verdictOf({ status: row.status, errorCode: row.errorCode, role, isNotModified: row.isNotModified });
}

/** `403`, `999`: a single status; `4xx`: a class. */
const ENTRY = /^(?:([1-9]\d\d)|([1-9])xx)=(ok|broken|unverified)$/i;

/** What a policy's entries must be, as the boundaries that check one say it. */
export const STATUS_POLICY_EXPECTED = 'comma-separated STATUS=VERDICT entries (a status 100-999 or a class such as 4xx; ok, broken or unverified)';

/**
 * A status policy written as `403=broken,999=ok,5xx=broken`: comma-separated
 * `STATUS=VERDICT` entries, a status 100–999 or a class `1xx`–`9xx`, a verdict
 * `ok`, `broken` or `unverified`; spaces are ignored, an empty text is no override.
 * Throws `OptionError` naming the first bad entry, or a status given twice.
 */
export function parseStatusPolicy(text: string): StatusPolicy {
  const parsed = readStatusPolicy(text);
  if (typeof parsed === 'string') throw new OptionError(`Expected \`statusPolicy\` to be ${STATUS_POLICY_EXPECTED}, got \`${text}\`: ${parsed}`);
  return parsed;
}

/** The policy `text` writes, or what is wrong with it (one clause). */
export function readStatusPolicy(text: string): StatusPolicy | string {
  const statuses: Record<number, Verdict> = {};
  const classes: Record<number, Verdict> = {};
  if (text.trim() !== '') {
    for (const raw of text.split(',')) {
      const entry = raw.replace(/\s+/g, '');
      const match = ENTRY.exec(entry);
      if (match === null) return `\`${raw.trim()}\` is not one`;
      const verdict = match[3]!.toLowerCase() as Verdict;
      const [table, key, name] = match[1] !== undefined ? [statuses, Number(match[1]), match[1]] : [classes, Number(match[2]), `${match[2]}xx`];
      if (table[key] !== undefined) return `\`${name}\` is given twice`;
      table[key] = verdict;
    }
  }
  return Object.freeze({ statuses: Object.freeze(statuses), classes: Object.freeze(classes) });
}

/** A policy as `parseStatusPolicy` reads it, single statuses first: `403=broken,5xx=ok`. */
export function formatStatusPolicy(policy: StatusPolicy): string {
  const statuses = Object.entries(policy.statuses).map(([status, verdict]) => `${status}=${verdict}`);
  const classes = Object.entries(policy.classes).map(([digit, verdict]) => `${digit}xx=${verdict}`);
  return [...statuses, ...classes].join(',');
}

/** `record` with its verdict, judged as a fetch of a URL of `role`. */
export function withVerdict(record: FetchRecord, role: UrlRole, policy: StatusPolicy): FetchRecord {
  const verdict = verdictOf({ status: record.status, errorCode: record.errorCode, role, isNotModified: record.isNotModified }, policy);
  return { ...record, verdict };
}

/** The URLs of an index that were checked, by verdict, and the broken ones by kind. */
export interface CheckedCounts {
  readonly verdicts: Record<Verdict, number>;
  readonly broken: Record<BrokenKind, number>;
}

/**
 * The URLs of the index that were checked (each once: it has a fetch row), by the
 * verdict of its last fetch — what the audit reports of them, and what `stats` and the
 * crawl's summary count — and the broken ones by kind. One pass over the URLs, streamed.
 */
export async function checkedCounts(reader: Pick<IndexReader, 'urls'>): Promise<CheckedCounts> {
  const verdicts: Record<Verdict, number> = { ok: 0, broken: 0, unverified: 0 };
  const broken = noBroken();
  for await (const url of reader.urls()) {
    const row = url.lastFetch;
    if (row === undefined) continue;
    const verdict = verdictOfRow(row, url.role);
    verdicts[verdict]++;
    if (verdict === 'broken') broken[brokenKindOf(errorCodeOf(row.errorCode, row.status))]++;
  }
  return { broken, verdicts };
}
