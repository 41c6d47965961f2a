// `writeHtmlReport`: one self-contained HTML file that leads with what to fix — the
// broken links with their referring pages (static HTML, readable without script) —
// then every URL with its status (filter by status class and host), the external
// links, every finding (paged), redirects and aliases, the link graph drawn (colour by
// status, redirects as arrows) with an explorer, and the crawl runs with their
// settings. The data is embedded once as JSON, streamed (report-data.ts).

import type { Writable } from 'node:stream';
import { describeValue, OptionError } from '../../errors.js';
import { splitByEvidence } from '../../ladder/index.js';
import type { IndexReader } from '../../store/index.js';
import type { AuditFinding } from '../audit/finding.js';
import { StreamWriter } from '../graph/stream-writer.js';
import { collectStats, FETCHES_SAVED_DEFINITION, type CrawlStats } from '../stats/crawl-stats.js';
import { brokenTargets } from './broken-targets.js';
import { brokenTableHtml } from './broken-table.js';
import { duplicatesTableHtml, readDuplicateGroups } from './duplicates-table.js';
import { funnelChart } from './funnel-chart.js';
import { scriptJson } from './html-escape.js';
import {
  aliasEntries,
  EdgeKinds,
  findingEntry,
  HostTable,
  idsOf,
  redirectChains,
  referringPageCounts,
  representedOutcomes,
  urlEntries,
  writeArray,
  writeEdges,
} from './report-data.js';
import { pageEnd, pageStart } from './report-page.js';
import { runLine, runsHtml } from './run-facts.js';
import { siteName, siteOf } from './site-facts.js';
import { STATUS_CLASSES } from './status-class.js';

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
