// The index of `linkladder check`: built fresh by each run, in a file beside the
// one named and renamed over it when the run ends, so that a killed or failed check
// leaves the previous index whole (and the answers it holds for the next run).

import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

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
      if (!name.startsWith(base) || match === null || isRunning(Number(match[1]))) continue;
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

/** Whether process `pid` runs (on this machine: the partial index is beside the one named). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The external answers of the previous index, for this run to reuse within
 * `--cache-max-age` instead of asking the sites again; `undefined` when there are
 * none to reuse. The seam where the previous index is read: not yet.
 */
export async function previousVerdicts(dbPath: string): Promise<undefined> {
  void dbPath;
  return undefined;
}

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `90s`, `30m`, `12h`, `1d`, `2w`, `0` as milliseconds; `undefined` when it is none of them. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,9})(ms|s|m|h|d|w)?$/.exec(text.trim());
  if (match === null) return undefined;
  const n = Number(match[1]);
  if (match[2] === undefined) return n === 0 ? 0 : undefined;
  return n * UNITS[match[2]]!;
}
