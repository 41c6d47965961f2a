// RFC 9309 §2.4 Caching: the facts of one robots.txt fetch, as a RobotsCache keeps them
// across runs, and the checks they pass when read back (a database row is untrusted input).

import { ERROR_MESSAGES, type FetchErrorCode } from '../errors.js';
import type { FetchedResponse, RobotsCacheEntry } from './types.js';

/** The facts a robots.txt response leaves, the body kept only when its rules apply (a 2xx read well enough). */
export function robotsFacts(response: FetchedResponse, isParsed: boolean): RobotsCacheEntry {
  return Object.freeze({
    fetchedAt: response.startedAt,
    status: response.status,
    errorCode: response.errorCode,
    body: isParsed ? (response.body ?? '') : undefined,
  });
}

/**
 * An entry read from a cache, checked: `undefined` when it is not one (a missing or
 * mistyped field, a status out of range, a code this program does not know). `null`
 * stands for `undefined`, as SQLite returns it. A body is cut to `maxBytes` code units.
 */
export function readRobotsCacheEntry(value: unknown, maxBytes: number): RobotsCacheEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { fetchedAt, status, errorCode, body } = value as Partial<Record<keyof RobotsCacheEntry, unknown>>;
  if (typeof fetchedAt !== 'number' || !Number.isFinite(fetchedAt)) return undefined;
  const validStatus = orUndefined(status);
  const validCode = orUndefined(errorCode);
  const validBody = orUndefined(body);
  if (validStatus !== undefined && !isHttpStatus(validStatus)) return undefined;
  if (validCode !== undefined && !isFetchErrorCode(validCode)) return undefined;
  if (validBody !== undefined && typeof validBody !== 'string') return undefined;
  return Object.freeze({
    fetchedAt,
    status: validStatus,
    errorCode: validCode,
    body: validBody?.slice(0, maxBytes),
  });
}

export function isFetchErrorCode(code: unknown): code is FetchErrorCode {
  return typeof code === 'string' && code.startsWith('ERR_FETCH_') && Object.hasOwn(ERROR_MESSAGES, code);
}

function isHttpStatus(status: unknown): status is number {
  return typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 999;
}

function orUndefined<T>(value: T | null | undefined): T | undefined {
  return value === null ? undefined : value;
}
