// `audit`, `stats` and `report` on an index that holds no crawl: one line and a
// non-zero exit, never "no findings": a CI gate must not pass
// on a crawl that checked nothing.

import type { IndexReader } from '../store/index.js';
import type { CliContext } from './cli-context.js';
import { EXIT_CODES } from './exit-codes.js';

/** Whether the index holds a crawl: a run recorded, or any URL (an index crawled before runs were recorded). */
export async function holdsCrawl(reader: IndexReader): Promise<boolean> {
  if ((await reader.runs()).length > 0) return true;
  const { urlsByState } = await reader.stats();
  return Object.values(urlsByState).some((n) => n > 0);
}

/** When the index at `file` holds no crawl: say so on stderr, set exit NO_CRAWL, and return true. */
export async function refuseNoCrawl(reader: IndexReader, file: string, context: CliContext): Promise<boolean> {
  if (await holdsCrawl(reader)) return false;
  await context.err.writeLine(`linkladder: error: ${file} holds no crawl: run \`linkladder crawl <seed> --db ${file}\` first`);
  context.exitCode = EXIT_CODES.NO_CRAWL;
  return true;
}
