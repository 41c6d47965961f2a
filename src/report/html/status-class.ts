// What the report says a URL answered: a short label and its status class, the one
// the tables filter by and the graph colours by. Errors are judged as the crawl's
// summary and `stats` judge them (crawl/broken-links.ts).

import { errorCodeOf, errorKindOf } from '../../crawl/index.js';
import type { FetchRow, UrlState } from '../../store/index.js';

/** The classes, in the order the filters list them. */
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'error', 'not checked'] as const;

export type StatusClass = (typeof STATUS_CLASSES)[number];

export interface UrlStatus {
  /** `200`, `301 → 200`, `404`, `ERR_FETCH_TIMEOUT`, `skipped` … */
  readonly label: string;
  readonly statusClass: StatusClass;
}

/** The facts of a fetch the status needs. */
export type FetchOutcome = Pick<FetchRow, 'status' | 'errorCode' | 'redirects'>;

/**
 * The status of a URL from its last fetch; without one, from `represented` (the fetch
 * of another URL whose redirect chain or Content-Location ended at this one), else
 * `not checked` with the URL's state (queued, skipped …) as its label.
 *
 * A redirect is `3xx` when its chain reaches a usable response (`301 → 200`: the
 * response of the chain's end, `chainEnd`'s when the chain stopped at a URL fetched on
 * its own); a chain
 * ending in an error is classed by that error (`301 → 404` is `4xx`): the class says
 * what following the link gives. robots.txt and the private-address guard refuse a
 * request before it is made: `not checked`.
 */
export function statusOf(state: UrlState, fetch: FetchOutcome | undefined, represented?: FetchOutcome, chainEnd?: FetchOutcome): UrlStatus {
  const outcome = fetch ?? (represented === undefined ? undefined : { ...represented, redirects: [] });
  if (outcome === undefined) return { label: state, statusClass: 'not checked' };
  const { status } = outcome;
  const [firstHop] = outcome.redirects;
  // A chain that stopped at a URL the crawl had (its last hop's own 3xx is no answer):
  // it ends as that URL's own fetch did, else it is said as far as it went.
  if (firstHop !== undefined && outcome.errorCode === undefined && status !== undefined && status >= 300 && status < 400) {
    if (chainEnd !== undefined) return statusOf(state, { ...chainEnd, redirects: outcome.redirects });
    return { label: String(firstHop.status), statusClass: '3xx' };
  }
  const via = firstHop === undefined ? '' : `${firstHop.status} → `;
  const code = errorCodeOf(outcome.errorCode, status);
  if (code !== undefined) {
    const kind = errorKindOf(code);
    if (kind === 'refused') return { label: code, statusClass: 'not checked' };
    if (kind === 'client-error') return { label: `${via}${status}`, statusClass: '4xx' };
    if (kind === 'server-error') return { label: `${via}${status}`, statusClass: '5xx' };
    if (kind === 'failed') return { label: `${via}${code}`, statusClass: 'error' };
    // `cut`: a response came and is kept; its class is its status's, the code said beside it.
    return { label: `${via}${status ?? ''} ${code}`.trim(), statusClass: classOfStatus(status, firstHop !== undefined) };
  }
  return { label: `${via}${status ?? state}`, statusClass: classOfStatus(status, firstHop !== undefined) };
}

function classOfStatus(status: number | undefined, isRedirected: boolean): StatusClass {
  if (status === undefined) return 'error';
  if (isRedirected || (status >= 300 && status < 400)) return '3xx';
  return status < 300 ? '2xx' : 'error';
}
