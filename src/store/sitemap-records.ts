// Sitemaps as the crawl records them and as the index keeps them: the files read,
// their entries, and the sitemap frontier.

/** A sitemap file as a crawl read it (migration 007 `sitemap`). */
export interface SitemapRecord {
  readonly runId: number | undefined;
  /** Its URL as it was named. */
  readonly url: string;
  /** `origin`: /sitemap.xml of a seed's origin; `robots`: a robots.txt Sitemap: line; `index`: an entry of a sitemap index. */
  readonly source: 'origin' | 'robots' | 'index';
  /** The sitemap index that named it (`source` `index`). */
  readonly parentId?: number | undefined;
  readonly fetchedAt: number;
  readonly status: number | undefined;
  readonly errorCode: string | undefined;
  /** `urlset` or `sitemapindex`; `undefined` when nothing was read. */
  readonly kind: 'urlset' | 'sitemapindex' | undefined;
  /** What was wrong with it (SITEMAP_* codes, with line, column and detail when known). */
  readonly findings: readonly SitemapFindingRecord[];
  /** Its `<loc>` entries, in document order. */
  readonly entries: readonly SitemapEntryRecord[];
}

export interface SitemapFindingRecord {
  readonly code: string;
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  readonly detail?: string | undefined;
}

export interface SitemapEntryRecord {
  /** The `<loc>` as written (entities decoded, trimmed). */
  readonly loc: string;
  readonly lastmod: string | undefined;
  readonly line: number | undefined;
  /** The URL of the index it was admitted as; `undefined` when it named none. */
  readonly urlId: number | undefined;
}

/** A sitemap on the sitemap frontier (migration 011), to be read by this run or the next. */
export interface SitemapQueueEntry {
  /** Its URL at the scheme rung without fragment (as a URL's key): each sitemap once. */
  readonly key: string;
  /** The seed origin (`scheme://host[:port]`) whose sitemaps it is among. */
  readonly origin: string;
  /** Its URL as it was named. */
  readonly url: string;
  readonly source: SitemapRecord['source'];
  /** The sitemap index that named it (`source` `index`). */
  readonly parentId: number | undefined;
}

/** `queued`: not read yet; `read`: its entries admitted (or, an index, its sitemaps queued); `failed`: no sitemap was read. */
export type SitemapState = 'queued' | 'read' | 'failed';

/** A sitemap of the sitemap frontier, with its state. */
export interface SitemapQueueRow extends SitemapQueueEntry {
  readonly state: SitemapState;
}

/** How the reading of a queued sitemap ended, recorded with it in one unit (`recordSitemap`). */
export interface SitemapSettlement {
  /** Its key on the sitemap frontier. */
  readonly key: string;
  readonly state: Exclude<SitemapState, 'queued'>;
  /** The sitemaps it names (an index): queued with the recorded sitemap as their parent. */
  readonly children: readonly Omit<SitemapQueueEntry, 'parentId'>[];
}

/** A sitemap as the index keeps it. */
export interface SitemapRow extends Omit<SitemapRecord, 'entries'> {
  readonly id: number;
}

/** One `<loc>` of a sitemap, in sitemap then document order. */
export interface SitemapEntryRow extends SitemapEntryRecord {
  readonly sitemapId: number;
  /** The sitemap's URL. */
  readonly sitemapUrl: string;
  readonly position: number;
}
