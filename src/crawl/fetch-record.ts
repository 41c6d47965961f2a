// A response as the index records it: the one place a FetchedResponse becomes a FetchRecord.

import { createHash } from 'node:crypto';
import type { FetchedResponse } from '../fetch/index.js';
import type { FetchRecord } from '../store/index.js';
import { validatorsOf } from './recheck.js';

/**
 * The fetch row of `urlId` from `response`. `asOwn`: the URL's own request (its
 * duration, redirects and attempts are recorded); otherwise the URL got another
 * URL's response (the end of a redirect chain, a Content-Location) and the row
 * has none of those — which is what tells the two apart in the index. The row
 * stands for `urlId`'s representation unless the caller says otherwise (a
 * redirect chain's response stands for the URL it ended at).
 */
export function fetchRecordOf(
  urlId: number,
  response: FetchedResponse,
  outcome: FetchRecord['outcome'],
  request: { readonly attempts: number; readonly errorCode?: string | undefined } | undefined,
): FetchRecord {
  const record: FetchRecord = {
    urlId,
    outcome,
    startedAt: response.startedAt,
    status: response.status,
    contentType: response.contentType,
    bytes: response.bytes,
    errorCode: request?.errorCode ?? response.errorCode,
    finalUrl: response.finalUrl,
    representsUrlId: urlId,
    ...(isSuccess(response.status) && response.body !== undefined ? { digest: bodyDigest(response) } : {}),
    ...(response.protocol === undefined ? {} : { protocol: response.protocol }),
  };
  if (request === undefined) return record;
  return {
    ...record,
    durationMs: response.durationMs,
    redirects: response.hops.map((hop) => ({ from: hop.from, to: hop.to, status: hop.status })),
    attempts: request.attempts,
    // RFC 9110 §8.8: what a re-check sends back (recheck.ts).
    ...validatorsOf(response),
  };
}

/** The digest of each response's body, hashed once however many rows it makes (a Content-Location's derived row too). */
const DIGESTS = new WeakMap<FetchedResponse, string>();

/**
 * SHA-256 (base64url) of a response's body as the crawl read it (decoded text): equal
 * digests are equal bodies, whatever URLs they came from. `undefined`
 * when no body was read.
 */
export function bodyDigest(response: FetchedResponse): string | undefined {
  if (response.body === undefined) return undefined;
  let digest = DIGESTS.get(response);
  if (digest === undefined) {
    digest = digestOf(response.body);
    DIGESTS.set(response, digest);
  }
  return digest;
}

function isSuccess(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

/** The digest `bodyDigest` gives a body. */
export function digestOf(body: string): string {
  return createHash('sha256').update(body).digest('base64url');
}

/** The digest of a response's body computed elsewhere (by the parse worker that read it): not hashed again. */
export function rememberDigest(response: FetchedResponse, digest: string): void {
  DIGESTS.set(response, digest);
}
