// A fetched page's links on their way into the index: extracted a slice at a time,
// resolved against the page's base chain, given their role (link-role.ts) and
// admitted a chunk at a time, under the page's caps; a stylesheet's references too.

import type { ResolvedReference } from '../base/index.js';
import type { FetchedResponse } from '../fetch/index.js';
import type { AdmitEntry, ClaimedUrl, IndexWriter } from '../store/index.js';
import type { HrefFindingReport } from './crawl-summary.js';
import type { ValidCrawlerOptions } from './crawler-options.js';
import type { CrawlTally } from './crawl-tally.js';
import { rememberDigest } from './fetch-record.js';
import { LinkRoles, type LinkUse } from './link-role.js';
import { PageLinkReader, extractPageReferences } from './page-links.js';
import { readRequestOf, unpackReading, type PackedReading } from './page-reading.js';
import type { ParsePool } from './parse-pool.js';
import type { Page, ProtocolEvidence } from './protocol-evidence.js';
import type { ScopeTest } from './scope.js';
import { MAX_IMPORT_NESTING, STYLESHEET_ELEMENT, stylesheetLinks } from './stylesheet-links.js';

/** The crawl options the page admission reads (the crawler hands it the whole validated set). */
export type PageAdmissionSettings = Pick<ValidCrawlerOptions, 'maxDepth' | 'checkResources' | 'checkExternal' | 'isExternalChecked' | 'baseMode' | 'follow' | 'maxLinksPerPage' | 'maxQueuedPerPage'>;

export interface PageAdmissionOptions {
  readonly options: PageAdmissionSettings;
  readonly scope: ScopeTest;
  readonly tally: CrawlTally;
  /** Where a page's canonical link goes as evidence. */
  readonly evidence: ProtocolEvidence;
  /** Reads long pages on other cores (parse-pool.ts). @default undefined (each page is read here) */
  readonly pool?: ParsePool | undefined;
}

/** A page's references as a parse worker read them, for the page at `pageUrl`. */
export interface ReadAhead {
  readonly pageUrl: string;
  readonly packed: PackedReading;
}

/** Links admitted in one admission: how many, how many put on the frontier, and whether `maxQueuedPerPage` cut. */
export interface AdmittedLinks {
  readonly count: number;
  readonly queued: number;
  readonly isQueueCapped: boolean;
  readonly hrefFindings: readonly HrefFindingReport[];
}

export class PageAdmission {
  readonly #o: PageAdmissionSettings;
  readonly #scope: ScopeTest;
  readonly #tally: CrawlTally;
  readonly #evidence: ProtocolEvidence;
  readonly #roles: LinkRoles;
  readonly #pool: ParsePool | undefined;
  /** The room left to the pages read last (by page id), for the stylesheets they use. */
  readonly #rooms = new Map<number, QueueRoom>();

  constructor(p: PageAdmissionOptions) {
    this.#o = p.options;
    this.#scope = p.scope;
    this.#tally = p.tally;
    this.#evidence = p.evidence;
    this.#pool = p.pool;
    this.#roles = new LinkRoles({
      scope: p.scope,
      maxDepth: p.options.maxDepth,
      checkResources: p.options.checkResources,
      checkExternal: p.options.checkExternal,
    });
  }

  /**
   * A stylesheet's `url()` and `@import` references, admitted as the resources of the
   * page that uses it (stylesheet-links.ts): at the stylesheet's depth, the depth of
   * that page's links, and under that page's `maxQueuedPerPage`, which the page and
   * the stylesheets it uses share (while the page's room is remembered; else the
   * stylesheet has a room of its own). Its @import rules are followed while the
   * chain of imports above it is shorter than `MAX_IMPORT_NESTING`.
   */
  async stylesheet(tx: IndexWriter, page: Page, response: FetchedResponse): Promise<AdmittedLinks & { readonly findings: readonly string[] }> {
    const depth = page.depth;
    const isExternalChecked = this.#o.isExternalChecked?.(page.url) ?? true;
    const user = await usingPage(tx, page.id);
    const css = stylesheetLinks(response, {
      id: page.id,
      depth,
      isImportFollowed: user.nesting < MAX_IMPORT_NESTING,
      baseMode: this.#o.baseMode,
      maxReferences: this.#o.maxLinksPerPage,
      decide: (link, use) => this.#roles.decide(link, use, depth, isExternalChecked),
    });
    const key = user.pageId ?? page.id;
    const room = this.#rooms.get(key) ?? { left: this.#o.maxQueuedPerPage };
    this.#remember(key, room);
    const links = await this.links(tx, page, { entries: () => css.entries, canonicalIndex: undefined, hrefFindings: css.hrefFindings }, room);
    for (const report of css.hrefFindings) for (const code of report.codes) this.#tally.countHrefFinding(code);
    return { ...links, findings: css.findings };
  }

  /** Keep `room` as the room of page `id`, forgetting the oldest past `REMEMBERED_ROOMS`. */
  #remember(id: number, room: QueueRoom): void {
    this.#rooms.delete(id);
    this.#rooms.set(id, room);
    if (this.#rooms.size > REMEMBERED_ROOMS) this.#rooms.delete(this.#rooms.keys().next().value!);
  }

  /**
   * The references of a page's response read by a parse worker while the page waits
   * for its turn to write, when the pool takes it; `undefined` otherwise (it is read in
   * `pageLinks`). The page is sent whatever its media type: the worker reads it as
   * `extractPageReferences` does.
   */
  async readAhead(claimed: ClaimedUrl, response: FetchedResponse): Promise<ReadAhead | undefined> {
    const status = response.status;
    const pool = this.#pool;
    if (pool === undefined || claimed.role !== 'page' || status === undefined || status < 200 || status >= 300) return undefined;
    if (response.body === undefined || !pool.takes(response.body.length)) return undefined;
    const pageUrl = response.finalUrl;
    const o = this.#o;
    const packed = await pool.read(readRequestOf(response, { pageUrl, baseMode: o.baseMode, follow: o.follow, maxLinks: o.maxLinksPerPage }));
    if (packed === undefined) return undefined;
    rememberDigest(response, packed.digest);
    return { pageUrl, packed };
  }

  /**
   * The page's references, extracted a slice at a time, ready to be resolved against
   * its base chain; or, given what a parse worker read of it (`readAhead`), those.
   */
  async pageLinks(page: Page, response: FetchedResponse, read?: ReadAhead): Promise<PageLinkReader> {
    const depth = page.depth + 1;
    const isExternalChecked = this.#o.isExternalChecked?.(page.url) ?? true;
    const context = {
      id: page.id,
      url: page.url,
      depth,
      baseMode: this.#o.baseMode,
      follow: this.#o.follow,
      maxLinks: this.#o.maxLinksPerPage,
      mayFollow: (_target: string, link: ResolvedReference) => depth <= this.#o.maxDepth && this.#scope.checkLink(link) === undefined,
      decide: (link: ResolvedReference, use: LinkUse) => this.#roles.decide(link, use, depth, isExternalChecked),
    };
    if (read !== undefined && read.pageUrl === page.url) {
      // The reader's resolvers: asked for only if a reference's parsed form is.
      let reader: PageLinkReader | undefined;
      const reading = unpackReading(read.packed, page.url, (isHeader) => reader!.resolverOf(isHeader));
      reader = new PageLinkReader(response, context, reading.extracted, reading.reads);
      return reader;
    }
    return new PageLinkReader(response, context, await extractPageReferences(response, context, nextTurn));
  }

  /**
   * The page's references admitted a chunk at a time, with a turn of the event loop
   * between chunks (a page may hold up to `maxLinksPerPage` links), and its
   * canonical link as evidence. New targets past `maxQueuedPerPage` are recorded,
   * not queued, so that one page of a million links cannot flood the frontier: a
   * chunk holds no more followed entries than the page may still queue, so no
   * admission queues past the cap. A stylesheet's
   * references come here too, with the room `shared` with the page that uses it.
   */
  async links(tx: IndexWriter, page: Page, reader: LinkSource, shared?: QueueRoom): Promise<AdmittedLinks> {
    const room = shared ?? { left: this.#o.maxQueuedPerPage };
    // A page's own: the stylesheets it uses, read later, queue in what it leaves.
    if (shared === undefined) this.#remember(page.id, room);
    let queued = 0;
    let count = 0;
    let isQueueCapped = false;
    let canonicalId: number | undefined;
    let canonicalEntry: AdmitEntry | undefined;
    let batch: AdmitEntry[] = [];
    /** Indexes in `batch` of the entries the cap turned from followed to recorded. */
    let unfollowed: number[] = [];
    let followed = 0;
    let sinceTurn = 0;
    const admit = async (): Promise<void> => {
      const results = await tx.admit(batch);
      const first = count;
      count += batch.length;
      const now = this.#tally.addLinks(results, batch.map((entry) => entry.follow !== false));
      queued += now;
      room.left = Math.max(0, room.left - now);
      if (unfollowed.some((i) => results[i]?.rung === 'new')) isQueueCapped = true;
      const index = reader.canonicalIndex;
      if (index !== undefined && index >= first && index < count && canonicalId === undefined) {
        canonicalId = results[index - first]?.urlId;
        canonicalEntry = batch[index - first];
      }
      sinceTurn += batch.length;
      batch = [];
      unfollowed = [];
      followed = 0;
      if (sinceTurn >= ADMIT_CHUNK) {
        sinceTurn = 0;
        await nextTurn();
      }
    };
    for (const entry of reader.entries()) {
      if (entry.follow !== false && room.left === 0) {
        unfollowed.push(batch.length);
        batch.push({ ...entry, follow: false });
      } else {
        batch.push(entry);
        if (entry.follow !== false) followed++;
      }
      if (batch.length >= ADMIT_CHUNK || (room.left > 0 && followed >= room.left)) await admit();
    }
    if (batch.length > 0) await admit();
    if (canonicalId !== undefined && canonicalEntry !== undefined) {
      await this.#evidence.canonical(tx, page, canonicalId, canonicalEntry.target ?? canonicalEntry.rawHref, canonicalEntry.rawHref);
    }
    return { count, queued, isQueueCapped, hrefFindings: reader.hrefFindings };
  }
}

/** What a page may still queue (`maxQueuedPerPage`), shared with the stylesheets it uses. */
interface QueueRoom {
  left: number;
}

/** Admit entries one at a time: a page's (`PageLinkReader`) or a stylesheet's. */
interface LinkSource {
  entries(): Iterable<AdmitEntry>;
  /** Complete once `entries()` has run to its end. */
  readonly canonicalIndex: number | undefined;
  readonly hrefFindings: readonly HrefFindingReport[];
}

/** Pages whose room is remembered: those read last, whose stylesheets are likely still to come (~50 bytes each). */
const REMEMBERED_ROOMS = 10_000;

/**
 * The page that uses stylesheet `id` and how many @import rules lie between them,
 * from the first link to each URL up the chain: the page links the first sheet, each
 * next one is imported by the one before. `pageId` is undefined for a seed.
 */
async function usingPage(tx: IndexWriter, id: number): Promise<{ readonly pageId: number | undefined; readonly nesting: number }> {
  let nesting = 0;
  for (let current = id; ; ) {
    const link = (await tx.history(current))?.firstLink;
    if (link?.fromUrlId === undefined) return { pageId: undefined, nesting };
    if (link.element !== STYLESHEET_ELEMENT || link.attribute !== 'import' || nesting === MAX_IMPORT_NESTING) return { pageId: link.fromUrlId, nesting };
    nesting++;
    current = link.fromUrlId;
  }
}

/** Links admitted at once, between two turns of the event loop (~10 ms of work). */
const ADMIT_CHUNK = 1000;

/** Let timers and I/O run: a big page is read and admitted over many turns of the event loop. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
