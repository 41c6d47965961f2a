// What a URL asks of the network: its origin and request-target (RFC 9112 §3.2
// origin-form), its resource key for loop detection, and the redirect target a
// Location header names (RFC 9110 §10.2.2, resolved per RFC 3986 §5.2).

import { TextDecoder } from 'node:util';
import type { FetchErrorCode } from '../errors.js';
import { cleanHref } from '../html/index.js';
import { normalizeReference, resourceKey } from '../ladder/index.js';
import {
  parseBase,
  parseUriReference,
  serialize,
  transformReference,
  type AbsoluteUri,
} from '../uri/index.js';

/** A URL the fetcher can request. */
export interface RequestTarget {
  /** The URL as given (or as resolved from a Location header). */
  readonly url: string;
  /** RFC 3986 §6.2.3 scheme-rung key without fragment: equal keys are one resource. */
  readonly key: string;
  /** `scheme://host[:port]`, scheme and host normalized, default port dropped. */
  readonly origin: string;
  /** RFC 9112 §3.2.1 origin-form: the path (`/` when empty) and query, as written. */
  readonly path: string;
  readonly parsed: AbsoluteUri;
}

export type TargetResult =
  | { readonly ok: true; readonly target: RequestTarget }
  | { readonly ok: false; readonly code: FetchErrorCode };

/** Only these are fetched. */
export const FETCHED_SCHEMES: ReadonlySet<string> = new Set(['http', 'https']);

/** Parse and check a URL to fetch. */
export function toRequestTarget(url: string): TargetResult {
  const parsed = parseBase(url);
  if (!parsed.ok) return { ok: false, code: 'ERR_FETCH_INVALID_URL' };
  return targetOf(url, parsed.value);
}

function targetOf(url: string, parsed: AbsoluteUri): TargetResult {
  if (!FETCHED_SCHEMES.has(parsed.scheme.toLowerCase())) return { ok: false, code: 'ERR_FETCH_UNSUPPORTED_SCHEME' };
  const normalized = normalizeReference(parsed, 'scheme');
  // RFC 9110 §4.2.1: an http(s) URI with an empty host is invalid.
  if (normalized.host === undefined || normalized.host === '') return { ok: false, code: 'ERR_FETCH_INVALID_URL' };
  const origin = `${normalized.scheme ?? 'http'}://${normalized.host}${normalized.port === undefined ? '' : `:${normalized.port}`}`;
  const path = (parsed.path === '' ? '/' : parsed.path) + (parsed.query === undefined ? '' : `?${parsed.query}`);
  return { ok: true, target: { url, key: resourceKey(parsed), origin, path, parsed } };
}

export type LocationResult =
  | { readonly ok: true; readonly url: string; readonly target: TargetResult }
  | { readonly ok: false };

/**
 * RFC 9110 §10.2.2 Location = URI-reference, resolved against the request URL
 * (RFC 3986 §5.2, strict). A value that is not a URI-reference even after the
 * clean-up below is `ok: false`.
 */
export function resolveLocation(value: string, base: AbsoluteUri): LocationResult {
  // DEVIATION(RFC 9110 §10.2.2): servers write Location as they please, and browsers
  // follow it anyway; so is it read here: raw UTF-8 taken as UTF-8, and what RFC 3986
  // rejects (spaces, backslashes, raw non-ASCII, stray "%") cleaned up as the html
  // layer cleans an href (WHATWG URL parser). The fixes are not reported: the hop's
  // `to` is the cleaned URL.
  // RFC 9110 §5.5: OWS around a field value is not part of it; HTML trims the same way.
  const text = latin1ToUtf8(value).replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  let reference = parseUriReference(text);
  if (!reference.ok) {
    const cleaned = cleanHref(text).cleaned;
    if (cleaned === undefined) return { ok: false };
    reference = parseUriReference(cleaned);
    if (!reference.ok) return { ok: false };
  }
  const T = transformReference(reference.value, base);
  const url = serialize(T);
  return { ok: true, url, target: targetOf(url, T) };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * undici hands header values over as latin1 (one char per byte). A Location sent
 * as raw UTF-8 (RFC 9110 §5.5 allows only obs-text there, but it happens) is read
 * back as UTF-8 when its bytes are valid UTF-8; otherwise left as it is.
 */
function latin1ToUtf8(value: string): string {
  if (!/[^\x00-\x7f]/.test(value)) return value;
  if (/[^\x00-\xff]/.test(value)) return value;
  try {
    return utf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}
