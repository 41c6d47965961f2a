// What `linkladder wacz` and `crawl --wacz` say of a package they wrote.

import type { SeriesWacz } from '../archive/index.js';

/** What a package left out or rebuilt: a torn file, an index that did not match. */
export function waczWarnings(summary: SeriesWacz): string[] {
  const warnings: string[] = [];
  if (summary.staleIndex !== undefined) {
    warnings.push(`${summary.staleIndex.file} names ${summary.staleIndex.captures} records, the WARC files hold ${summary.staleIndex.expected} responses and revisits: the index was built from the WARC files instead`);
  }
  for (const torn of summary.torn) {
    warnings.push(`${torn.file}: its last record is cut (a killed writer?): packaged its first ${torn.keptBytes} bytes (whole records), left out ${torn.droppedBytes}`);
  }
  return warnings;
}

/** The one line that says what a package holds. */
export function waczLine(summary: SeriesWacz): string {
  const index = summary.index === 'copied' ? `index ${summary.cdxjFile ?? ''}` : 'index built from the WARC files';
  return `${summary.out}: ${summary.warcFiles} WARC file${summary.warcFiles === 1 ? '' : 's'}, ${summary.records} records, ${summary.captures} captures, ${summary.pages} pages, ${summary.bytes} bytes (${index})`;
}
