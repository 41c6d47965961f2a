// Opening the index database for a command, with one clear line when it fails.

import { SqliteStore } from '../store/index.js';

/**
 * Open (and migrate) the index at `file`. The store reports a file it cannot open
 * with its path (`ERR_STORE_*`), but a file that opens and then fails — not a
 * database, a read-only one — as SQLite's bare message ("file is not a database"):
 * that one gets the path here. Either way the error reaches run-cli: exit 3.
 */
export function openStore(file: string, options: { readonly mustExist?: boolean; readonly inspect?: boolean } = {}): SqliteStore {
  try {
    // Inspecting leaves a running crawl's claims alone.
    return new SqliteStore({ path: file, mustExist: options.mustExist === true, recoverClaims: options.inspect !== true });
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? error.code : undefined;
    if (typeof code === 'string' && code.startsWith('ERR_STORE_')) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot open ${file}: ${message}`, { cause: error });
  }
}
