// The index of `linkladder check`: built fresh by each run, in a file beside the
// one named and renamed over it when the run ends, so that a killed or failed check
// leaves the previous index whole (and the answers it holds for the next run).

import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { readVerdictCache, type VerdictCache, type VerdictCacheOptions } from '../crawl/index.js';
import { isProcessRunning, type IndexReader } from '../store/index.js';
import { openReader } from './open-store.js';

/** Where `check` keeps its index, under the working directory. */
export const DEFAULT_CHECK_DB = '.linkladder/check.db';

/** The side files SQLite keeps beside a database in WAL mode. */
const SIDE_FILES = ['-wal', '-shm', '-journal'];

export class FreshIndex {
  /** The index named (`--db`), absolute. */
  readonly path: string;
  /** Where this run writes: beside it, named after the process. */
  readonly partialPath: string;

  constructor(db: string, cwd: string) {
    this.path = path.resolve(cwd, db);
    this.partialPath = `${this.path}.${process.pid}.partial`;
  }

  /** Make its folder and clear the partial indexes of runs that were killed (their process is gone). */
  async prepare(): Promise<void> {
    const folder = path.dirname(this.path);
    await mkdir(folder, { recursive: true });
    await this.discard();
    const base = path.basename(this.path);
    for (const name of await readdir(folder)) {
      const match = /^\.(\d+)\.partial(?:-wal|-shm|-journal)?$/.exec(name.slice(base.length));
      if (!name.startsWith(base) || match === null || isProcessRunning(Number(match[1]))) continue;
      await rm(path.join(folder, name), { force: true });
    }
  }

  /**
   * The run ended: the new index takes the old one's place. Its side files go
   * first: a stale write-ahead log beside the new file must not be read as its own.
   */
  async commit(): Promise<void> {
    for (const side of SIDE_FILES) await rm(`${this.path}${side}`, { force: true });
    await rename(this.partialPath, this.path);
  }

  /** The run did not end (Ctrl-C, a failure): the partial index goes, the old one stays. */
  async discard(): Promise<void> {
    for (const side of ['', ...SIDE_FILES]) await rm(`${this.partialPath}${side}`, { force: true });
  }
}

/**
 * The external answers of the previous index (`dbPath`), for this run to reuse while
 * younger than `maxAgeMs` instead of asking the sites again; `undefined` when there is
 * no index, nothing to reuse, or an index this version cannot read (then `warn` says
 * so, and every link is asked).
 */
export async function previousVerdicts(dbPath: string, options: VerdictCacheOptions, warn: (message: string) => unknown): Promise<VerdictCache | undefined> {
  if (options.maxAgeMs === 0 || !existsSync(dbPath)) return undefined;
  let reader: IndexReader;
  try {
    reader = await openReader(dbPath);
  } catch (error) {
    await warn(`the previous index ${dbPath} cannot be read (${error instanceof Error ? error.message : String(error)}): every external link is asked again`);
    return undefined;
  }
  try {
    const cache = await readVerdictCache(reader, options);
    return cache.size === 0 ? undefined : cache;
  } finally {
    await reader.close();
  }
}
