// A re-check: an index crawled before is revalidated with
// conditional requests (RFC 9110 §13.1). Each URL fetched is queued again (one that
// redirected too, no longer an alias: it may now lead elsewhere, or answer 404); its last
// response's validators — the ETag (If-None-Match, §13.1.2) and Last-Modified
// (If-Modified-Since, §13.1.3) — go with its request. A 304 Not Modified (§15.4.5)
// keeps the page as recorded: a fetch row marked `isNotModified` carries the status,
// type, findings and anchors of the representation it revalidated, and the page's
// links stay. Any other response is recorded as a fresh one: a page is parsed again,
// its links replaced, and new links followed.
//
// An ETag is never an identity key: it is only sent back to the URL that gave it.

import type { FetchedResponse, Validators } from '../fetch/index.js';
import type { ClaimedUrl, FetchRecord, FetchRow, IndexWriter } from '../store/index.js';

/** The last fetch of a URL whose validators a conditional request may send, with them. */
export interface Revalidation {
  readonly previous: FetchRow;
  readonly validators: Validators;
}

/**
 * What to revalidate URL `id` with: its last fetch, when that was a 2xx response
 * of its own request (no redirect: a validator belongs to the URL that sent it)
 * that sent an ETag or a Last-Modified; else `undefined` (an unconditional request).
 */
export async function revalidationOf(store: IndexWriter, id: number): Promise<Revalidation | undefined> {
  const previous = (await store.history(id))?.fetches.at(-1);
  if (previous === undefined) return undefined;
  const { status, etag, lastModified } = previous;
  const isOwn = previous.durationMs !== undefined && previous.redirects.length === 0 && (previous.representsUrlId ?? id) === id;
  if (!isOwn || status === undefined || status < 200 || status >= 300 || previous.errorCode !== undefined) return undefined;
  if (etag === undefined && lastModified === undefined) return undefined;
  return { previous, validators: { etag, lastModified } };
}

/**
 * The fetch row of a 304: the representation revalidated, as recorded before, with
 * the time of this request and the validators it sent anew (RFC 9110 §15.4.5: a 304
 * carries the ETag and Last-Modified a 200 would have).
 */
export function notModifiedRecord(claimed: ClaimedUrl, response: FetchedResponse, revalidation: Revalidation, attempts: number): FetchRecord {
  const { previous } = revalidation;
  return {
    urlId: claimed.id,
    outcome: 'done',
    startedAt: response.startedAt,
    durationMs: response.durationMs,
    status: previous.status,
    contentType: previous.contentType,
    bytes: previous.bytes,
    finalUrl: response.finalUrl,
    attempts,
    findings: previous.findings,
    anchors: previous.anchors,
    representsUrlId: claimed.id,
    etag: response.headers['etag'] ?? previous.etag,
    lastModified: response.headers['last-modified'] ?? previous.lastModified,
    isNotModified: true,
    method: response.method ?? 'GET',
    // RFC 9110 §15.4.5: the representation revalidated, so its body's digest too.
    ...(previous.digest === undefined ? {} : { digest: previous.digest }),
  };
}

/** The validators a response sent (RFC 9110 §8.8.2, §8.8.3), as they were sent. */
export function validatorsOf(response: Pick<FetchedResponse, 'headers'>): { etag?: string; lastModified?: string } {
  const etag = response.headers['etag'];
  const lastModified = response.headers['last-modified'];
  return { ...(etag === undefined ? {} : { etag }), ...(lastModified === undefined ? {} : { lastModified }) };
}
