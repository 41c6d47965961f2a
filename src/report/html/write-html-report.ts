// `writeHtmlReport`: one self-contained HTML file that leads with what to fix — the
// broken links with their referring pages (static HTML, readable without script) —
// then every URL with its status (filter by status class and host), the external
// links, every finding (paged), redirects and aliases, the link graph drawn (colour by
// status, redirects as arrows) with an explorer, and the crawl runs with their
// settings. The data is embedded once as JSON, streamed.

import type { Writable } from 'node:stream';
import { describeValue, OptionError } from '../../errors.js';
import { splitByEvidence } from '../../ladder/index.js';
import type { IndexReader, UrlRow } from '../../store/index.js';
import type { AuditFinding } from '../audit/finding.js';
import { FormCursor } from '../graph/read-graph.js';
import { redactPassword } from '../redact.js';
import { StreamWriter } from '../graph/stream-writer.js';
import { collectStats, FETCHES_SAVED_DEFINITION, type CrawlStats } from '../stats/crawl-stats.js';
import { brokenTargets, sourceLine } from './broken-targets.js';
import { brokenTableHtml } from './broken-table.js';
import { duplicatesTableHtml, readDuplicateGroups } from './duplicates-table.js';
import { funnelChart } from './funnel-chart.js';
import { scriptJson } from './html-escape.js';
import { pageEnd, pageStart } from './report-page.js';
import { runLine, runsHtml } from './run-facts.js';
import { hostOf, siteName, siteOf } from './site-facts.js';
import { STATUS_CLASSES, statusOf, type FetchOutcome } from './status-class.js';

const DEFAULTS = { maxNodes: 20_000, maxEdges: 200_000, internalOnly: false } as const;

export interface HtmlReportOptions {
  /**
   * Most URLs the graph draws (the shallowest first); past it the page says it shows part.
   * Every URL is still listed in the tables.
   * @default 20000
   */
  readonly maxNodes?: number;
  /**
   * Most edges embedded for the graph explorer's links in and out.
   * @default 200000
   */
  readonly maxEdges?: number;
  /**
   * The graph draws and explores only URLs in the crawl's scope: for big sites, whose
   * external links would crowd it. The tables still list every URL.
   * @default false
   */
  readonly internalOnly?: boolean;
}

/** What the report holds, as the counts at its top show them. */
export interface HtmlReportSummary {
  readonly urls: number;
  readonly links: number;
  readonly fetches: number;
  readonly findings: number;
  /** Aliases a server proved (RFC 3986 §6.2.4). */
  readonly aliases: number;
  /** Aliases by content evidence (`digest`, `rule`: heuristic, beyond RFC 3986). */
  readonly contentAliases: number;
  readonly errors: number;
  /** Links (findings `LINK_BROKEN`) to targets that answered 4xx/5xx or could not be fetched. */
  readonly brokenLinks: number;
  /** Distinct broken targets. */
  readonly brokenTargets: number;
  /** URLs out of the crawl's scope: the `external` role, as the index's `external_link` view has them. */
  readonly externalUrls: number;
  /** URLs the graph draws, and edges embedded for its explorer. */
  readonly nodes: number;
  readonly edges: number;
  readonly isGraphTruncated: boolean;
}

/**
 * Write the report of `reader` and the audit's `findings` to `output` (left open).
 * Every URL and finding is embedded; the graph's edges up to `maxEdges`, and it
 * draws up to `maxNodes` URLs.
 */
export async function writeHtmlReport(
  reader: IndexReader,
  findings: readonly AuditFinding[],
  output: Writable,
  options: HtmlReportOptions = {},
): Promise<HtmlReportSummary> {
  const limits = validateOptions(options);
  const stats = await collectStats(reader);
  const runs = await reader.runs();
  const site = await siteOf(reader, runs);
  const outcomes = await representedOutcomes(reader);
  const inPages = await referringPageCounts(reader);
  const broken = brokenTargets(findings);
  const idOfKey = await idsOf(reader, new Set(broken.flatMap((target) => [target.target, ...target.referrers.map((referrer) => referrer.page)])));
  const brokenLinks = broken.reduce((sum, target) => sum + target.referrers.length, 0);
  const redirectedLinks = findings.filter((finding) => finding.code === 'LINK_REDIRECT').length;

  const out = new StreamWriter(output);
  const counts = {
    urls: stats.urls,
    links: (await reader.stats()).links,
    fetches: stats.fetches,
    findings: findings.length,
    // What servers proved (RFC 3986 §6.2.4); content evidence, a heuristic, is counted apart.
    aliases: sum(splitByEvidence(stats.aliasesByEvidence).protocol),
    contentAliases: sum(splitByEvidence(stats.aliasesByEvidence).content),
    errors: sum(stats.errorsByCode),
  };
  await out.write(
    pageStart({
      siteName: siteName(site),
      seeds: site.seeds,
      runLine: runLine(runs),
      counts: [
        ['broken-links', 'broken links', brokenLinks],
        ['broken-targets', 'broken targets', broken.length],
        ['redirected-links', 'links to redirects', redirectedLinks],
        ['urls', 'URLs', counts.urls],
        ['links', 'links', counts.links],
        ['fetches', 'fetches', counts.fetches],
        ['findings', 'findings', counts.findings],
        ['aliases', 'aliases', counts.aliases],
        ...(counts.contentAliases > 0 ? [['content-aliases', 'content aliases (heuristic)', counts.contentAliases] as const] : []),
        ['errors', 'fetch errors', counts.errors],
      ],
      brokenHtml: brokenTableHtml(broken, idOfKey),
      duplicatesHtml: duplicatesTableHtml(await readDuplicateGroups(reader), stats.duplicates, stats.contentEvidence),
      runsHtml: runsHtml(runs),
      funnelSvg: funnelChart(stats.funnel),
      savedText: savedText(stats),
      isInternalOnly: limits.internalOnly,
    }),
  );
  await out.write(`{"classes":${scriptJson(STATUS_CLASSES)},"urls":`);
  const hosts = new HostTable();
  const externalIds = new Set<number>();
  let drawable = 0;
  await writeArray(out, urlEntries(reader, outcomes, inPages, hosts, externalIds, () => (drawable += 1), limits.internalOnly), Infinity);
  await out.write(`,"hosts":${scriptJson(hosts.entries())},"edges":`);
  const kinds = new EdgeKinds();
  const edges = await writeEdges(out, reader, kinds, limits.maxEdges, limits.internalOnly ? externalIds : undefined);
  await out.write(`,"edgeKinds":${scriptJson(kinds.entries())}`);
  await out.write(',"findings":');
  await writeArray(out, findings.map(findingEntry), Infinity);
  await out.write(',"aliases":');
  await writeArray(out, aliasEntries(reader), Infinity);
  await out.write(',"redirects":');
  await writeArray(out, redirectChains(reader), Infinity);
  const truncated = edges.isTruncated
    ? `The explorer knows the first ${edges.written} edges of a larger graph: export the whole graph with \`linkladder graph\`.`
    : null;
  await out.write(`,"graph":${scriptJson({ internalOnly: limits.internalOnly, maxNodes: limits.maxNodes })},"truncated":${scriptJson(truncated)}}`);
  await out.write(pageEnd());
  await out.flush();
  const nodes = Math.min(drawable, limits.maxNodes);
  return {
    ...counts,
    brokenLinks,
    brokenTargets: broken.length,
    externalUrls: externalIds.size,
    nodes,
    edges: edges.written,
    isGraphTruncated: edges.isTruncated || drawable > limits.maxNodes,
  };
}

function validateOptions(options: HtmlReportOptions): Required<HtmlReportOptions> {
  const limits = { ...DEFAULTS, ...stripUndefined(options) };
  for (const name of ['maxNodes', 'maxEdges'] as const) {
    const value: unknown = limits[name];
    if (!Number.isInteger(value) || (value as number) < 0) {
      throw new OptionError(`Expected \`${name}\` to be an integer >= 0, got ${describeValue(value)}`);
    }
  }
  if (typeof limits.internalOnly !== 'boolean') {
    throw new OptionError(`Expected \`internalOnly\` to be a boolean, got ${describeValue(limits.internalOnly)}`);
  }
  return limits;
}

function stripUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** A JSON array of `items`, one element a write, at most `limit` of them. */
async function writeArray(
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
class HostTable {
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
async function representedOutcomes(reader: IndexReader): Promise<{ represented: Map<number, FetchOutcome>; ownOutcomes: Map<number, FetchOutcome> }> {
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
async function referringPageCounts(reader: IndexReader): Promise<Map<number, number>> {
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
async function idsOf(reader: IndexReader, keys: ReadonlySet<string>): Promise<Map<string, number>> {
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
async function* urlEntries(
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
class EdgeKinds {
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
async function writeEdges(
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
function findingEntry(finding: AuditFinding): unknown[] {
  const detail = Object.entries(finding.detail)
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');
  return [finding.severity, finding.code, finding.page ?? null, finding.rawHref ?? null, finding.target ?? null, finding.message, detail === '' ? null : detail, sourceLine(finding) ?? null];
}

async function* aliasEntries(reader: IndexReader): AsyncGenerator<Record<string, unknown>> {
  for await (const alias of reader.aliases()) {
    const detail = alias.detail === undefined ? null : redactPassword(alias.detail);
    yield { from: redactPassword(alias.fromKey), to: redactPassword(alias.toKey), evidence: alias.evidence, detail };
  }
}

async function* redirectChains(reader: IndexReader): AsyncGenerator<Record<string, unknown>> {
  for await (const fetch of reader.fetches()) {
    const [first] = fetch.redirects;
    if (first === undefined) continue;
    const hops = fetch.redirects.map((hop) => ({ to: hop.to === undefined ? null : redactPassword(hop.to), status: hop.status }));
    yield { url: redactPassword(first.from), hops, errorCode: fetch.errorCode ?? null };
  }
}

function savedText(stats: CrawlStats): string {
  const { folded } = stats;
  const saved =
    stats.fetchesSaved === undefined
      ? 'Fetches saved: not recorded (the index was crawled before crawl runs were recorded)'
      : `Fetches saved: ${stats.fetchesSaved} — ${FETCHES_SAVED_DEFINITION}`;
  return `${saved}. Distinct targets folded by rung: syntax ${folded.syntax}, scheme ${folded.scheme}, protocol ${folded.protocol}.`;
}

function sum(counts: Readonly<Partial<Record<string, number>>>): number {
  return Object.values(counts).reduce((total: number, n) => total + (n ?? 0), 0);
}
