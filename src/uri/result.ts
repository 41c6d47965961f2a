import type { ErrorSubject, UriErrorCode } from '../errors.js';

export type { ErrorSubject };

/** Where and why a string breaks the RFC 3986 grammar. */
export interface UriSyntaxError {
  readonly code: UriErrorCode;
  /** Index (UTF-16 code unit) of the first character that breaks the grammar; `input.length` for a premature end. */
  readonly index: number;
  /** Which input it is in, where an operation takes two (resolve: base or reference; compare: a or b). */
  readonly subject?: ErrorSubject;
}

/** The core never throws on untrusted input: it returns one of these. */
export type Result<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: UriSyntaxError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T>(code: UriErrorCode, index: number): Result<T> {
  return { ok: false, error: { code, index } };
}

/** The same failure, said to be in `subject`. */
export function failIn<T>(error: UriSyntaxError, subject: ErrorSubject): Result<T> {
  return { ok: false, error: { code: error.code, index: error.index, subject } };
}
