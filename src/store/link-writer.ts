// A batch's links, written as one `page_link` row per page (migrations 002, 010): a
// JSON array with one array per link, in the current `LinkFormat`, read back one row
// per link through the `link` view. One row per page instead of one per link is what
// lets admits keep up with the link stream (a row per link made the index the crawl's
// bottleneck);
// `link_tally` counts them by rung in the same transaction, so statistics need not
// read them all. The encoding of a link is link-codec.ts.

import type { Database, Statement } from 'better-sqlite3';
import type { NewLink } from './admitter.js';
import { encodeLink, LINK_FORMAT, type EncodedLink } from './link-codec.js';
import type { MatchRung } from './types.js';

// `link_tally` counts by (rung, ladder_rung), each 'none' for a link without a
// target: a pair is counted at index rung × TALLY_RUNGS + ladder rung.
const TALLY_NAMES = ['none', 'new', 'string', 'syntax', 'scheme', 'protocol'] as const;
const TALLY_RUNGS = TALLY_NAMES.length;
const TALLY_INDEX: Readonly<Record<MatchRung, number>> = { new: 1, string: 2, syntax: 3, scheme: 4, protocol: 5 };

export class LinkWriter {
  readonly #insertPage: Statement;
  readonly #nextPosition: Statement;
  readonly #tally: Statement;
  // The batch's links by page, in the order pages first appear.
  #pending = new Map<number, EncodedLink[]>();
  // Links by tally pair, and the pairs in the order they were first counted.
  readonly #counts = new Array<number>(TALLY_RUNGS * TALLY_RUNGS).fill(0);
  #counted: number[] = [];

  constructor(db: Database) {
    this.#insertPage = db.prepare(`INSERT INTO page_link (from_url, first_position, count, links, format) VALUES (?, ?, ?, ?, ${LINK_FORMAT})`);
    this.#nextPosition = db.prepare('SELECT max(first_position + count) FROM page_link WHERE from_url = ?').pluck();
    this.#tally = db.prepare(
      `INSERT INTO link_tally (rung, ladder_rung, links) VALUES (?, ?, ?)
       ON CONFLICT (rung, ladder_rung) DO UPDATE SET links = links + excluded.links`,
    );
  }

  add(link: NewLink): void {
    let links = this.#pending.get(link.fromUrlId);
    if (links === undefined) this.#pending.set(link.fromUrlId, (links = []));
    links.push(encodeLink(link));
    const tally =
      (link.rung === undefined ? 0 : TALLY_INDEX[link.rung]) * TALLY_RUNGS + (link.ladderRung === undefined ? 0 : TALLY_INDEX[link.ladderRung]);
    if (this.#counts[tally]! === 0) this.#counted.push(tally);
    this.#counts[tally]!++;
  }

  /** Write what `add` collected; inside the batch's transaction. */
  flush(): void {
    for (const [fromUrl, links] of this.#pending) {
      const position = (this.#nextPosition.get(fromUrl) as number | null) ?? 0;
      this.#insertPage.run(fromUrl, position, links.length, JSON.stringify(links));
    }
    for (const tally of this.#counted) {
      this.#tally.run(TALLY_NAMES[Math.floor(tally / TALLY_RUNGS)], TALLY_NAMES[tally % TALLY_RUNGS], this.#counts[tally]);
    }
    this.discard();
  }

  /** Drop what a rolled-back batch had collected. */
  discard(): void {
    this.#pending = new Map();
    for (const tally of this.#counted) this.#counts[tally] = 0;
    this.#counted = [];
  }
}
