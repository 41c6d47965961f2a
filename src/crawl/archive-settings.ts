// The settings of the crawl's archive: where the WARC files of what it fetched go, and
// how large one grows. Part of the crawl's settings (crawl-settings.ts), kept apart as
// TRANSPORT_SETTINGS are; crawl-archive.ts opens, feeds and closes the archive.

import * as z from 'zod';
import { DEFAULT_WARC_MAX_BYTES } from '../archive/index.js';
import { SETTING_META, integerBetween } from './setting-kinds.js';

/** A file holds its warcinfo and one request/response pair at least; a terabyte is past any sane file. */
export const WARC_MAX_SIZE_RANGE = [1024, 1_000_000_000_000] as const;

export const ARCHIVE_SETTINGS = {
  /**
   * Keep what the crawl fetched in a WARC/1.1 archive (`crawl.warc.gz`, gzip per
   * record): a request and a response record for every request sent (redirect hops,
   * errors, robots.txt, sitemaps, link checks included), bodies as received, revisit
   * records for payloads already archived, a CDXJ index `crawl.cdxj` beside it at the
   * end. Credentials (`Authorization`, `Cookie`, `Set-Cookie`, the `header` fields) are
   * left out of the records. A run on a path already written starts a new file of the
   * series (`crawl-00001.warc.gz`), never appends. `''`: no archive.
   * @default ''
   */
  warc: z.string({ error: 'Expected a path' }).default('').register(SETTING_META, {
    argument: 'FILE',
    defaultText: 'none',
    description:
      'keep what the crawl fetched in this WARC file (`crawl.warc.gz`): request and response records, bodies as received, revisits for payloads already kept, a CDXJ index beside it; credentials left out',
  }),
  /**
   * The size in bytes a WARC file is kept under: before a record pair would take it
   * past, the next file of the series is opened (`crawl-00001.warc.gz`…). A pair larger
   * than this gets a file of its own.
   * @default 1000000000 (1 GB)
   */
  warcMaxSize: integerBetween(...WARC_MAX_SIZE_RANGE)
    .default(DEFAULT_WARC_MAX_BYTES)
    .register(SETTING_META, {
      argument: 'BYTES',
      defaultText: '1000000000 (1 GB)',
      description: 'start the next WARC file of the series before one would pass this size',
    }),
  /**
   * Package what the crawl archived as a WACZ 1.1.1 file at the end of the run (the WARC
   * series stored, its CDXJ index, the page list, hashes), the file ReplayWeb.page
   * opens. Without `warc`, the archive is written beside it (`site.wacz` → `site.warc.gz`).
   * The whole series is packaged: earlier runs' files too. `''`: no package.
   * @default ''
   */
  wacz: z.string({ error: 'Expected a path' }).default('').register(SETTING_META, {
    argument: 'FILE',
    defaultText: 'none',
    description: 'at the end, package the WARC series as this WACZ file for ReplayWeb.page (with no --warc, the WARC goes beside it: site.wacz → site.warc.gz)',
  }),
} as const;

/** The WARC series a run keeps: `warc`, or beside the WACZ package when only that is asked for. */
export function warcPathOf(settings: { readonly warc: string; readonly wacz: string }): string {
  if (settings.warc !== '' || settings.wacz === '') return settings.warc;
  return `${settings.wacz.replace(/\.wacz$/i, '')}.warc.gz`;
}
