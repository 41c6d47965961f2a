// What the RFC 3986 §5.1 base chain noticed about a response: findings for the
// audit, never exceptions (STYLE.md Errors).

import type { UriSyntaxError } from '../uri/index.js';
import type { BaseLevel } from './base-level.js';

/** Every finding code with a one-line explanation. Codes are stable. */
export const BASE_FINDINGS = {
  BASE_HREF_INVALID: '<base href> is not a URI-reference (RFC 3986 §4.1) once trimmed of ASCII whitespace: the level is skipped',
  BASE_HREF_RELATIVE: '<base href> is a relative reference: it was resolved against the next level (RFC 3986 §5.1.1)',
  BASE_HREF_UNRESOLVED: '<base href> is relative and no outer level gives a base to resolve it against: the level is skipped',
  BASE_HREF_SCHEME_BLOCKED: 'browser mode: <base href> names a data: or javascript: URL, which HTML never uses as a base: the level is skipped',
  BASE_CONTENT_BASE_INVALID: 'Content-Base is not a URI-reference (RFC 3986 §4.1) once trimmed of whitespace: it is skipped',
  BASE_CONTENT_BASE_UNRESOLVED: 'Content-Base is relative and there is no retrieval URL (or default) to resolve it against: it is skipped',
  BASE_CONTENT_BASE_USED: 'the legacy Content-Base header (RFC 2068 §14.11) gave the content-location level',
  BASE_CONTENT_BASE_IGNORED: 'browser mode: Content-Base is ignored for the base, as browsers do',
  BASE_CONTENT_LOCATION_INVALID: 'Content-Location is not a URI-reference (RFC 3986 §4.1) once trimmed of whitespace: it is skipped',
  BASE_CONTENT_LOCATION_UNRESOLVED: 'Content-Location is relative and there is no retrieval URL (or default) to resolve it against: it is skipped',
  BASE_CONTENT_LOCATION_SHADOWED: 'Content-Location is present but Content-Base takes precedence for the base (RFC 2068 §14.11)',
  BASE_CONTENT_LOCATION_IGNORED: 'browser mode: Content-Location is ignored for the base (RFC 7231 and RFC 9110 dropped that role), as browsers do',
  BASE_CONTENT_LOCATION_OTHER_DIRECTORY: 'the content-location level names another directory than the retrieval URL: relative links resolve differently in browser mode',
  BASE_CONTENT_LOCATION_OTHER_ORIGIN: 'the content-location level names another scheme, host or port than the retrieval URL: evidence to scope to its origin',
  BASE_RETRIEVAL_INVALID: 'the retrieval URL is not an absolute URI (RFC 3986 §4.3): the level is skipped, and the default is not used in its place',
  BASE_FRAGMENT_IGNORED: 'a level names a URI with a fragment; a base never has one (RFC 3986 §5.1): the fragment is dropped',
  BASE_NONE: 'no level gives a base: relative references on the page cannot be resolved (RFC 3986 §5.1.4)',
} as const;

export type BaseFindingCode = keyof typeof BASE_FINDINGS;

export const BASE_FINDING_CODES = Object.keys(BASE_FINDINGS) as readonly BaseFindingCode[];

/** One thing the base chain noticed. */
export interface BaseFinding {
  readonly code: BaseFindingCode;
  /** The level it concerns; `undefined` only for `BASE_NONE`. */
  readonly level: BaseLevel | undefined;
  /** The value exactly as received (attribute, header, URL); `undefined` only for `BASE_NONE`. */
  readonly value: string | undefined;
  /** For the `*_INVALID` codes: what is wrong, with an index into `value`. */
  readonly error?: UriSyntaxError;
}
