// A fetched page's links on their way into the index: extracted a slice at a time,
// resolved against the page's base chain, given their role (link-role.ts) and
// admitted a chunk at a time, under the page's caps; a stylesheet's references too.

import type { ResolvedReference } from '../base/index.js';
import type { FetchedResponse } from '../fetch/index.js';
import type { AdmitEntry, IndexWriter } from '../store/index.js';
import type { HrefFindingReport } from './crawl-summary.js';
import type { ValidCrawlOptions } from './crawl-options.js';
import type { CrawlTally } from './crawl-tally.js';
import { LinkRoles, type LinkUse } from './link-role.js';
import { PageLinkReader, extractPageReferences } from './page-links.js';
import type { Page, ProtocolEvidence } from './protocol-evidence.js';
import type { ScopeTest } from './scope.js';
import { stylesheetLinks } from './stylesheet-links.js';

export interface PageAdmissionOptions {
  readonly options: ValidCrawlOptions;
  readonly scope: ScopeTest;
  readonly tally: CrawlTally;
  /** Where a page's canonical link goes as evidence. */
  readonly evidence: ProtocolEvidence;
}

/** Links admitted in one admission: how many, how many put on the frontier, and whether `maxQueuedPerPage` cut. */
export interface AdmittedLinks {
  readonly count: number;
  readonly queued: number;
  readonly isQueueCapped: boolean;
  readonly hrefFindings: readonly HrefFindingReport[];
}

export class PageAdmission {
  readonly #o: ValidCrawlOptions;
  readonly #scope: ScopeTest;
  readonly #tally: CrawlTally;
  readonly #evidence: ProtocolEvidence;
  readonly #roles: LinkRoles;

  constructor(p: PageAdmissionOptions) {
    this.#o = p.options;
    this.#scope = p.scope;
    this.#tally = p.tally;
    this.#evidence = p.evidence;
    this.#roles = new LinkRoles({
      scope: p.scope,
      maxDepth: p.options.maxDepth,
      checkResources: p.options.checkResources,
      checkExternal: p.options.checkExternal,
    });
  }

  /** A stylesheet's `url()` and `@import` references, admitted as its resources (stylesheet-links.ts). */
  async stylesheet(tx: IndexWriter, page: Page, response: FetchedResponse): Promise<AdmittedLinks & { readonly findings: readonly string[] }> {
    const depth = page.depth + 1;
    const css = stylesheetLinks(response, {
      id: page.id,
      depth,
      baseMode: this.#o.baseMode,
      maxReferences: this.#o.maxLinksPerPage,
      decide: (link, use) => this.#roles.decide(link, use, depth),
    });
    let queued = 0;
    for (let at = 0; at < css.entries.length; at += ADMIT_CHUNK) {
      const batch = css.entries.slice(at, at + ADMIT_CHUNK);
      const results = await tx.admit(batch);
      queued += this.#tally.addLinks(results, batch.map((entry) => entry.follow !== false));
    }
    for (const report of css.hrefFindings) for (const code of report.codes) this.#tally.countHrefFinding(code);
    return { count: css.entries.length, queued, isQueueCapped: false, hrefFindings: css.hrefFindings, findings: css.findings };
  }

  /** The page's references, extracted a slice at a time, ready to be resolved against its base chain. */
  async pageLinks(page: Page, response: FetchedResponse): Promise<PageLinkReader> {
    const depth = page.depth + 1;
    const context = {
      id: page.id,
      url: page.url,
      depth,
      baseMode: this.#o.baseMode,
      follow: this.#o.follow,
      maxLinks: this.#o.maxLinksPerPage,
      mayFollow: (_target: string, link: ResolvedReference) => depth <= this.#o.maxDepth && this.#scope.checkLink(link) === undefined,
      decide: (link: ResolvedReference, use: LinkUse) => this.#roles.decide(link, use, depth),
    };
    return new PageLinkReader(response, context, await extractPageReferences(response, context, nextTurn));
  }

  /**
   * The page's references admitted a chunk at a time, with a turn of the event loop
   * between chunks (a page may hold up to `maxLinksPerPage` links), and its
   * canonical link as evidence. New targets past `maxQueuedPerPage` are recorded,
   * not queued (issue 10, item 3): a chunk holds no more followed entries than
   * the page may still queue, so no admission queues past the cap.
   */
  async links(tx: IndexWriter, page: Page, reader: PageLinkReader): Promise<AdmittedLinks> {
    let room = this.#o.maxQueuedPerPage;
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
      room -= now;
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
      if (entry.follow !== false && room === 0) {
        unfollowed.push(batch.length);
        batch.push({ ...entry, follow: false });
      } else {
        batch.push(entry);
        if (entry.follow !== false) followed++;
      }
      if (batch.length >= ADMIT_CHUNK || (room > 0 && followed >= room)) await admit();
    }
    if (batch.length > 0) await admit();
    if (canonicalId !== undefined && canonicalEntry !== undefined) {
      await this.#evidence.canonical(tx, page, canonicalId, canonicalEntry.target ?? canonicalEntry.rawHref, canonicalEntry.rawHref);
    }
    return { count, queued, isQueueCapped, hrefFindings: reader.hrefFindings };
  }
}

/** Links admitted at once, between two turns of the event loop (~10 ms of work). */
const ADMIT_CHUNK = 1000;

/** Let timers and I/O run: a big page is read and admitted over many turns of the event loop. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
