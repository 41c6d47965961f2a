// A damaged index is reported as one error, ERR_STORE_CORRUPT, whichever read
// meets the damage: SQLite's own corruption codes, and stored JSON that does not parse.

import { StoreError } from '../errors.js';

/** SQLite's result codes for a damaged file (extended codes start with these). */
const CORRUPTION_CODES = ['SQLITE_CORRUPT', 'SQLITE_NOTADB'] as const;

export function isSqliteCorruption(error: unknown): boolean {
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string') return false;
  const code = error.code;
  // SQLite's JSON functions (the `link` view reads page_link.links with json_each).
  if (code === 'SQLITE_ERROR' && error.message === 'malformed JSON') return true;
  return CORRUPTION_CODES.some((prefix) => code.startsWith(prefix));
}

export function corruptIndex(file: string, why: string, cause?: unknown): StoreError {
  return new StoreError('ERR_STORE_CORRUPT', `the index ${file} is corrupt (ERR_STORE_CORRUPT): ${why}`, { cause });
}

/** The stored values that did not parse, thrown before the file was known. */
const unplaced = new WeakMap<object, string>();

/** `error` as ERR_STORE_CORRUPT naming `file` when the index is damaged; as it is otherwise. */
export function asCorruption(error: unknown, file: string): unknown {
  if (isSqliteCorruption(error)) return corruptIndex(file, (error as Error).message, error);
  const why = typeof error === 'object' && error !== null ? unplaced.get(error) : undefined;
  return why === undefined ? error : corruptIndex(file, why, (error as Error).cause);
}

/** Run `read`, turning SQLite's corruption errors into ERR_STORE_CORRUPT. */
export function readingIndex<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw asCorruption(error, file);
  }
}

/** An async iterable whose corruption errors become ERR_STORE_CORRUPT. */
export async function* iteratingIndex<T>(file: string, rows: () => AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* rows();
  } catch (error) {
    throw asCorruption(error, file);
  }
}

/** A JSON column as written by the store; text that does not parse, or parses to another shape, is a damaged index. */
export function parseStoredJson<T>(text: string, column: string, isShape: (value: unknown) => value is T): T {
  let value: unknown;
  let cause: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    cause = error;
  }
  if (cause === undefined && isShape(value)) return value;
  const why = `${column} holds ${cause === undefined ? 'JSON of another shape' : 'text that is not JSON'}`;
  const error = new StoreError('ERR_STORE_CORRUPT', `the index is corrupt (ERR_STORE_CORRUPT): ${why}`, { cause });
  unplaced.set(error, why);
  throw error;
}

export const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

export const isArrayOfArrays = (value: unknown): value is unknown[][] => Array.isArray(value) && value.every((item) => Array.isArray(item));

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
