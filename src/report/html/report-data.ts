// The data the HTML report embeds, as the report's script reads it: each URL with
// its status, host and referring pages; the edges, compact; the findings, aliases and
// redirect chains. Each is streamed from the index, one element a write.

import type { IndexReader, UrlRow } from '../../store/index.js';
import type { AuditFinding } from '../audit/finding.js';
import { FormCursor } from '../graph/read-graph.js';
import { redactPassword } from '../redact.js';
import type { StreamWriter } from '../graph/stream-writer.js';
import { sourceLine } from './broken-targets.js';
import { scriptJson } from './html-escape.js';
import { hostOf } from './site-facts.js';
import { STATUS_CLASSES, statusOf, type FetchOutcome } from './status-class.js';

/** A JSON array of `items`, one element a write, at most `limit` of them. */
export async function writeArray(
  out: StreamWriter,
  items: AsyncIterable<unknown> | Iterable<unknown>,
  limit: number,
): Promise<{ written: number; isTruncated: boolean }> {
  let written = 0;
  let isTruncated = false;
  await out.write('[');
  for await (const item of items) {
    if (written === limit) {
      isTruncated = true;
      break;
    }
    await out.write((written === 0 ? '\n' : ',\n') + scriptJson(item));
    written += 1;
  }
  await out.write('\n]');
  return { written, isTruncated };
}

/** Hosts by first appearance, each with whether a URL of it is external. */
export class HostTable {
  readonly #index = new Map<string, number>();
  readonly #external = new Set<string>();

  /** The host's index in `entries()`; -1 for a URL without host. */
  indexOf(host: string | undefined, isExternal: boolean): number {
    if (host === undefined) return -1;
    let index = this.#index.get(host);
    if (index === undefined) {
      index = this.#index.size;
      this.#index.set(host, index);
    }
    if (isExternal) this.#external.add(host);
    return index;
  }

  /** `[host, 1 when a URL of it is external else 0]`, by index. */
  entries(): [string, number][] {
    return [...this.#index.keys()].map((host) => [host, this.#external.has(host) ? 1 : 0]);
  }
}

/**
 * What "external" means, in the report as in the `external_link` view: a URL the crawl
 * recorded as out of its scope (the `external` role), whatever its host — another
 * port or scheme of a seed's host included.
 */
function isExternalUrl(url: Pick<UrlRow, 'role'>): boolean {
  return url.role === 'external';
}

/**
 * The outcome each URL without a fetch of its own got through another URL's: the end
 * of a redirect chain, a Content-Location (`FetchRow.representsUrlId`); and `ownOutcomes`,
 * the outcome of its own last fetch, of each URL where a redirect chain stopped because
 * the crawl had it already (the chain's fetch then ends on the 3xx).
 */
export async function representedOutcomes(reader: IndexReader): Promise<{ represented: Map<number, FetchOutcome>; ownOutcomes: Map<number, FetchOutcome> }> {
  const represented = new Map<number, FetchOutcome>();
  const chainEnds = new Set<number>();
  for await (const fetch of reader.fetches()) {
    if (fetch.representsUrlId === undefined || fetch.representsUrlId === fetch.urlId) continue;
    represented.set(fetch.representsUrlId, { status: fetch.status, errorCode: fetch.errorCode, redirects: [] });
    if (fetch.redirects.length > 0 && fetch.status !== undefined && fetch.status >= 300 && fetch.status < 400) chainEnds.add(fetch.representsUrlId);
  }
  const ownOutcomes = new Map<number, FetchOutcome>();
  if (chainEnds.size > 0) {
    for await (const fetch of reader.fetches()) {
      if (chainEnds.has(fetch.urlId)) ownOutcomes.set(fetch.urlId, { status: fetch.status, errorCode: fetch.errorCode, redirects: fetch.redirects });
    }
  }
  return { represented, ownOutcomes };
}

/** How many distinct pages link to each URL (the target each link met). */
export async function referringPageCounts(reader: IndexReader): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  let lastFrom: number | undefined;
  let lastTo: number | undefined;
  // Edges come ordered by page, then target: a page's several edges to one target are consecutive.
  for await (const edge of reader.edges()) {
    if (edge.fromUrlId === lastFrom && edge.toUrlId === lastTo) continue;
    lastFrom = edge.fromUrlId;
    lastTo = edge.toUrlId;
    if (edge.fromUrlId !== edge.toUrlId) counts.set(edge.toUrlId, (counts.get(edge.toUrlId) ?? 0) + 1);
  }
  return counts;
}

/** The ids of the URLs whose (redacted) keys are in `keys`. */
export async function idsOf(reader: IndexReader, keys: ReadonlySet<string>): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (keys.size === 0) return ids;
  for await (const url of reader.urls()) {
    const key = redactPassword(url.key);
    if (keys.has(key)) ids.set(key, url.id);
  }
  return ids;
}

/**
 * `[id, key, state, depth, aliasOf, status label, status class index, host index,
 * referring pages, first linked from (id), href as written there, spellings, 1 when
 * external else 0]`: compact,
 * the script's own shape.
 */
export async function* urlEntries(
  reader: IndexReader,
  outcomes: { readonly represented: ReadonlyMap<number, FetchOutcome>; readonly ownOutcomes: ReadonlyMap<number, FetchOutcome> },
  inPages: ReadonlyMap<number, number>,
  hosts: HostTable,
  externalIds: Set<number>,
  countDrawable: () => void,
  internalOnly: boolean,
): AsyncGenerator<unknown[]> {
  const forms = new FormCursor(reader.forms());
  try {
    for await (const url of reader.urls()) {
      const texts = (await forms.takeFor(url.id)).map((form) => form.text); // redacted by the cursor
      const host = hostOf(url.key);
      const isExternal = isExternalUrl(url);
      if (isExternal) externalIds.add(url.id);
      if (!(internalOnly && isExternal)) countDrawable();
      const chainEnd = url.lastFetch?.representsUrlId === undefined ? undefined : outcomes.ownOutcomes.get(url.lastFetch.representsUrlId);
      const status = statusOf(url.state, url.lastFetch, outcomes.represented.get(url.id), chainEnd);
      const first = url.firstLink;
      yield [
        url.id,
        redactPassword(url.key),
        url.state,
        url.depth,
        url.aliasOf ?? null,
        redactPassword(status.label),
        STATUS_CLASSES.indexOf(status.statusClass),
        hosts.indexOf(host, isExternal),
        inPages.get(url.id) ?? 0,
        first?.fromUrlId ?? null,
        first?.fromUrlId === undefined ? null : redactPassword(first.rawHref),
        texts,
        isExternal ? 1 : 0,
      ];
    }
  } finally {
    await forms.close();
  }
}

/** The edges' kinds (element and attribute), by first appearance: edge rows name them by index. */
export class EdgeKinds {
  readonly #index = new Map<string, number>();
  readonly #entries: [string | null, string | null][] = [];

  indexOf(element: string | undefined, attribute: string | undefined): number {
    const name = `${element ?? ''} ${attribute ?? ''}`;
    let index = this.#index.get(name);
    if (index === undefined) {
      index = this.#entries.length;
      this.#index.set(name, index);
      this.#entries.push([element ?? null, attribute ?? null]);
    }
    return index;
  }

  entries(): readonly [string | null, string | null][] {
    return this.#entries;
  }
}

/**
 * The edges, compact: one row per page and kind, `[from, kind, to, to, [to, count], …]`
 * (a target linked once is its id; more often, `[id, count]`); at most `limit` edges,
 * none that touches `leftOut`.
 */
export async function writeEdges(
  out: StreamWriter,
  reader: IndexReader,
  kinds: EdgeKinds,
  limit: number,
  leftOut: ReadonlySet<number> | undefined,
): Promise<{ written: number; isTruncated: boolean }> {
  let written = 0;
  let isTruncated = false;
  let rows = 0;
  let page: number | undefined;
  let byKind = new Map<number, unknown[]>();
  const flush = async (): Promise<void> => {
    for (const [kind, targets] of byKind) {
      await out.write((rows === 0 ? '\n' : ',\n') + scriptJson([page, kind, ...targets]));
      rows += 1;
    }
    byKind = new Map();
  };
  await out.write('[');
  for await (const edge of reader.edges()) {
    if (leftOut !== undefined && (leftOut.has(edge.fromUrlId) || leftOut.has(edge.toUrlId))) continue;
    if (written === limit) {
      isTruncated = true;
      break;
    }
    if (edge.fromUrlId !== page) {
      await flush();
      page = edge.fromUrlId;
    }
    const kind = kinds.indexOf(edge.element, edge.attribute);
    let targets = byKind.get(kind);
    if (targets === undefined) byKind.set(kind, (targets = []));
    targets.push(edge.count === 1 ? edge.toUrlId : [edge.toUrlId, edge.count]);
    written += 1;
  }
  await flush();
  await out.write('\n]');
  return { written, isTruncated };
}

/** `[severity, code, page, href as written, target, message, detail text, line]`. */
export function findingEntry(finding: AuditFinding): unknown[] {
  const detail = Object.entries(finding.detail)
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');
  return [finding.severity, finding.code, finding.page ?? null, finding.rawHref ?? null, finding.target ?? null, finding.message, detail === '' ? null : detail, sourceLine(finding) ?? null];
}

export async function* aliasEntries(reader: IndexReader): AsyncGenerator<Record<string, unknown>> {
  for await (const alias of reader.aliases()) {
    const detail = alias.detail === undefined ? null : redactPassword(alias.detail);
    yield { from: redactPassword(alias.fromKey), to: redactPassword(alias.toKey), evidence: alias.evidence, detail };
  }
}

export async function* redirectChains(reader: IndexReader): AsyncGenerator<Record<string, unknown>> {
  for await (const fetch of reader.fetches()) {
    const [first] = fetch.redirects;
    if (first === undefined) continue;
    const hops = fetch.redirects.map((hop) => ({ to: hop.to === undefined ? null : redactPassword(hop.to), status: hop.status }));
    yield { url: redactPassword(first.from), hops, errorCode: fetch.errorCode ?? null };
  }
}
