// Opening the index database for a command, with one clear line when it fails.

import { SqliteStore } from '../store/index.js';

/**
 * Open the index at `file`: to write it (created and migrated as needed, holding
 * its writer lock), or `readOnly`, as the read commands do (it must exist and be
 * an up-to-date index; nothing is written). The store reports a file it cannot
 * open with its path (`ERR_STORE_*`); anything else gets the path here. Either way
 * the error reaches run-cli: exit 3.
 */
export function openStore(file: string, options: { readonly readOnly?: boolean } = {}): SqliteStore {
  try {
    return new SqliteStore({ path: file, readOnly: options.readOnly === true });
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? error.code : undefined;
    if (typeof code === 'string' && code.startsWith('ERR_STORE_')) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot open ${file}: ${message}`, { cause: error });
  }
}

/** The notice a writer gives when it took over the lock of a process that is gone. */
export function lockTakeoverNotice(file: string, store: SqliteStore): string | undefined {
  const holder = store.lockTakenOverFrom;
  if (holder === undefined) return undefined;
  const since = new Date(holder.since).toISOString();
  return `linkladder: notice: took over the writer lock of ${file} from pid ${holder.pid} on host ${holder.host} (since ${since}), which is no longer running`;
}
