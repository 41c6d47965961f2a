// A crawl that keeps what it fetched (`warc`, `wacz`): the run's archive wraps the
// fetcher and the robots.txt policy, the index learns where each record went, and the
// series is packaged once the run is over.

import { writeSeriesWacz } from '../archive/index.js';
import { CrawlArchive, secretHeaderNamesOf, type ArchiveSummary, type ArchivedRecordData } from './crawl-archive.js';
import { CrawlError } from './crawl-error.js';
import { runSettingsOf } from './crawl-run.js';
import type { CrawlSummary } from './crawl-summary.js';
import type { ValidCrawlerOptions } from './crawler-options.js';
import { readPackageVersion } from './package-version.js';

/** Run `crawl` with the archive at `warcPath` in its fetcher and robots policy; the summary says what the archive kept. */
export async function runArchived(
  valid: ValidCrawlerOptions,
  warcPath: string,
  crawl: (archived: ValidCrawlerOptions) => Promise<CrawlSummary>,
): Promise<CrawlSummary> {
  // The index learns which record stands for which URL (what explain names) as records
  // are written: those written while the index takes a batch go in the next one.
  let batch: ArchivedRecordData[] = [];
  let indexing: Promise<void> = Promise.resolve();
  let indexError: string | undefined;
  const noteIndexError = (error: unknown): void => {
    indexError ??= `the index did not take the places of WARC records: ${messageOf(error)}`;
  };
  const onArchived = (record: ArchivedRecordData): void => {
    valid.onArchived?.(record);
    batch.push(record);
    if (batch.length > 1) return;
    indexing = indexing
      .then(() => {
        const records = batch;
        batch = [];
        return valid.store.recordArchived(records);
      })
      .catch(noteIndexError);
  };
  // Every request the crawl sends goes through these two clients: pages, redirect hops,
  // retries, link checks, stylesheets, sitemaps, re-checks and robots.txt.
  const archive = await CrawlArchive.open({
    path: warcPath,
    maxBytes: valid.warcMaxSize,
    version: readPackageVersion(),
    settings: runSettingsOf(valid),
    secretHeaderNames: secretHeaderNamesOf(valid),
    onArchived,
  });
  // The last records are written by close(), after the crawl flushed the index.
  const closeArchive = async (): Promise<ArchiveSummary> => {
    const kept = await archive.close();
    await indexing;
    await valid.store.flush().catch(noteIndexError);
    return kept.error !== undefined || indexError === undefined ? kept : { ...kept, error: indexError };
  };
  let summary: CrawlSummary;
  try {
    summary = await crawl({ ...valid, fetcher: archive.wrapFetcher(valid.fetcher), robots: archive.wrapRobots(valid.robots) });
  } catch (error) {
    const kept = await closeArchive();
    if (error instanceof CrawlError && error.summary !== undefined) {
      throw new CrawlError(error.code, error.message, { cause: error.cause, summary: { ...error.summary, archive: kept } });
    }
    throw error;
  }
  const kept = await closeArchive();
  return { ...summary, archive: valid.wacz === '' ? kept : await withPackage(kept, warcPath, valid.wacz) };
}

/** The series packaged as WACZ once the run is over; a failure is said in the summary, the archive stays. */
async function withPackage(kept: ArchiveSummary, warcPath: string, out: string): Promise<ArchiveSummary> {
  try {
    return { ...kept, wacz: await writeSeriesWacz(warcPath, { out, software: `linkladder/${readPackageVersion()}` }) };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return { ...kept, waczError: `${typeof code === 'string' ? `${code}: ` : ''}${messageOf(error)}` };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
