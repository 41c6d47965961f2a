// DUPLICATE_REPRESENTATION (byte-identical bodies under URLs the ladder did not
// join, a heuristic beyond RFC 3986): what the three readers share of
// `IndexReader.duplicateBodies` — the URL each fetch stands for once the aliases that
// prove one resource are followed (RFC 3986 §6.2.4), and which URLs of a group
// content evidence joined (heuristic, beyond RFC 3986). The grouping itself is each
// store's query.

import { ALIAS_MAKING_EVIDENCE, AliasEnds, CONTENT_EVIDENCE, RESOURCE_EVIDENCE, type AliasEvidence } from '../ladder/index.js';
import type { DuplicateBodyRow } from './types.js';

/** An alias as `RepresentationEnds` reads it. */
export interface AliasEdgeRow {
  readonly fromId: number;
  readonly toId: number;
  readonly evidence: AliasEvidence;
}

/**
 * The alias evidence a reader reads for `RepresentationEnds`: what proves one resource
 * (`RESOURCE_EVIDENCE`), and content evidence, whose URLs are still reported as duplicates.
 */
export const DUPLICATE_ALIAS_EVIDENCE: readonly AliasEvidence[] = ALIAS_MAKING_EVIDENCE;

/** A URL of a group before content evidence is looked at. */
export type DuplicateMember = Omit<DuplicateBodyRow, 'contentEvidence'>;

/**
 * The aliases as `duplicateBodies` follows them: `endOf(id)` is the URL whose
 * representation `id` stands for through redirects and Content-Location (one walker,
 * one cycle rule: `walkAliases`); content aliases are kept between those ends.
 */
export class RepresentationEnds {
  readonly #next = new Map<number, number>();
  readonly #ends = new AliasEnds<number>((id) => this.#next.get(id));
  /** Content aliases between ends, both ways: end → (other end → evidence). */
  readonly #content = new Map<number, Map<number, AliasEvidence>>();

  constructor(aliases: Iterable<AliasEdgeRow>) {
    const content: AliasEdgeRow[] = [];
    for (const alias of aliases) {
      if (alias.fromId === alias.toId) continue;
      if (RESOURCE_EVIDENCE.has(alias.evidence)) {
        // A URL with both (which the crawl does not write) follows its redirect.
        if (alias.evidence === 'redirect' || !this.#next.has(alias.fromId)) this.#next.set(alias.fromId, alias.toId);
      } else if (CONTENT_EVIDENCE.has(alias.evidence)) {
        content.push(alias);
      }
    }
    for (const alias of content) {
      const from = this.endOf(alias.fromId);
      const to = this.endOf(alias.toId);
      if (from === to) continue;
      this.#addContent(from, to, alias.evidence);
      this.#addContent(to, from, alias.evidence);
    }
  }

  endOf(id: number): number {
    return this.#next.has(id) ? this.#ends.endOf(id) : id;
  }

  /** Every URL that an alias proves to be another, with the URL it stands for: what a query joins. */
  ends(): [ids: number[], ends: number[]] {
    const ids = [...this.#next.keys()].sort((a, b) => a - b);
    return [ids, ids.map((id) => this.endOf(id))];
  }

  /** The content evidence that joined `urlId` to another URL of `group` (`digest` before `rule`), if any. */
  contentEvidenceOf(urlId: number, group: ReadonlySet<number>): AliasEvidence | undefined {
    let found: AliasEvidence | undefined;
    for (const [other, evidence] of this.#content.get(urlId) ?? []) {
      if (other !== urlId && group.has(other) && (found === undefined || evidence < found)) found = evidence;
    }
    return found;
  }

  #addContent(from: number, to: number, evidence: AliasEvidence): void {
    let others = this.#content.get(from);
    if (others === undefined) this.#content.set(from, (others = new Map()));
    const known = others.get(to);
    if (known === undefined || evidence < known) others.set(to, evidence);
  }
}

/**
 * The rows of `members` (a group's rows together, as a store's query gives them) with
 * the content evidence of each: one group is held at a time.
 */
export async function* withContentEvidence(members: AsyncIterable<DuplicateMember>, ends: RepresentationEnds): AsyncGenerator<DuplicateBodyRow> {
  for await (const group of digestGroups(members)) {
    const ids = new Set(group.map((member) => member.urlId));
    for (const member of group) yield { ...member, contentEvidence: ends.contentEvidenceOf(member.urlId, ids) };
  }
}

/** Rows that come a group at a time (one digest after another), gathered into their groups. */
export async function* digestGroups<Row extends { readonly digest: string }>(rows: AsyncIterable<Row>): AsyncGenerator<Row[]> {
  let group: Row[] = [];
  for await (const row of rows) {
    if (group.length > 0 && group[0]!.digest !== row.digest) {
      yield group;
      group = [];
    }
    group.push(row);
  }
  if (group.length > 0) yield group;
}

/**
 * The fetch rows that a URL's current representation is chosen from (see
 * `DuplicateBodyRow`): a response to a request of its own or one derived from another
 * URL's; not a 304 revalidation (the representation revalidated stays current), not a
 * row written without any response (robots.txt refused it), and not a redirect that
 * stopped at a URL known already (it stands for that URL but carries none of its body).
 * The stores' queries say the same in SQL.
 */
export function isRepresentationFetch(row: { readonly isNotModified?: boolean | undefined; readonly method: unknown; readonly status: number | undefined }): boolean {
  if (row.isNotModified === true || (row.method === undefined && row.status === undefined)) return false;
  return row.status === undefined || row.status < 300 || row.status >= 400;
}
