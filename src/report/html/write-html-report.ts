// `writeHtmlReport`: one self-contained HTML file — funnel chart, findings, aliases and
// redirects, and a link-graph explorer — with the data embedded as JSON, streamed.

import type { Writable } from 'node:stream';
import { describeValue, OptionError } from '../../errors.js';
import type { IndexReader } from '../../store/index.js';
import type { AuditFinding } from '../audit/finding.js';
import { FormCursor } from '../graph/read-graph.js';
import { redactPassword } from '../redact.js';
import { StreamWriter } from '../graph/stream-writer.js';
import { collectStats, FETCHES_SAVED_DEFINITION, type CrawlStats } from '../stats/crawl-stats.js';
import { funnelChart } from './funnel-chart.js';
import { scriptJson } from './html-escape.js';
import { pageEnd, pageStart } from './report-page.js';

const DEFAULTS = { maxNodes: 20_000, maxEdges: 200_000 } as const;

export interface HtmlReportOptions {
  /**
   * Most URLs embedded for the graph explorer; past it the explorer says it shows part.
   * @default 20000
   */
  readonly maxNodes?: number;
  /**
   * Most edges embedded for the graph explorer.
   * @default 200000
   */
  readonly maxEdges?: number;
}

/** What the report holds, as the counts at its top show them. */
export interface HtmlReportSummary {
  readonly urls: number;
  readonly links: number;
  readonly fetches: number;
  readonly findings: number;
  readonly aliases: number;
  readonly errors: number;
  /** URLs and edges embedded for the explorer. */
  readonly nodes: number;
  readonly edges: number;
  readonly isGraphTruncated: boolean;
}

/**
 * Write the report of `reader` and the audit's `findings` to `output` (left open).
 * The graph is embedded up to `maxNodes`/`maxEdges`: the explorer is meant for sites
 * of a few thousand pages.
 */
export async function writeHtmlReport(
  reader: IndexReader,
  findings: readonly AuditFinding[],
  output: Writable,
  options: HtmlReportOptions = {},
): Promise<HtmlReportSummary> {
  const limits = validateOptions(options);
  const stats = await collectStats(reader);
  const counts = {
    urls: stats.urls,
    links: (await reader.stats()).links,
    fetches: stats.fetches,
    findings: findings.length,
    aliases: sum(stats.aliasesByEvidence),
    errors: sum(stats.errorsByCode),
  };
  const out = new StreamWriter(output);
  await out.write(
    pageStart({
      title: await seedsTitle(reader),
      counts: [
        ['urls', 'URLs', counts.urls],
        ['links', 'links', counts.links],
        ['fetches', 'fetches', counts.fetches],
        ['findings', 'findings', counts.findings],
        ['aliases', 'aliases', counts.aliases],
        ['errors', 'fetch errors', counts.errors],
      ],
      funnelSvg: funnelChart(stats.funnel),
      savedText: savedText(stats),
    }),
  );
  await out.write('{"findings":');
  await writeArray(out, findings, Infinity);
  await out.write(',"aliases":');
  await writeArray(out, aliasEntries(reader), Infinity);
  await out.write(',"redirects":');
  await writeArray(out, redirectChains(reader), Infinity);
  await out.write(',"nodes":');
  const nodes = await writeArray(out, nodeEntries(reader), limits.maxNodes);
  await out.write(',"edges":');
  const edges = await writeArray(out, edgeEntries(reader), limits.maxEdges);
  const isGraphTruncated = nodes.isTruncated || edges.isTruncated;
  const truncated = isGraphTruncated
    ? `The explorer shows the first ${nodes.written} URLs and ${edges.written} edges of a larger graph: export the whole graph with \`linkladder graph\`.`
    : null;
  await out.write(`,"truncated":${scriptJson(truncated)}}`);
  await out.write(pageEnd());
  await out.flush();
  return { ...counts, nodes: nodes.written, edges: edges.written, isGraphTruncated };
}

function validateOptions(options: HtmlReportOptions): Required<HtmlReportOptions> {
  const limits = { ...DEFAULTS, ...stripUndefined(options) };
  for (const name of ['maxNodes', 'maxEdges'] as const) {
    const value: unknown = limits[name];
    if (!Number.isInteger(value) || (value as number) < 0) {
      throw new OptionError(`Expected \`${name}\` to be an integer >= 0, got ${describeValue(value)}`);
    }
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

/** `[id, key, state, depth, aliasOf, status, forms]`: compact, the explorer's own shape. */
async function* nodeEntries(reader: IndexReader): AsyncGenerator<unknown[]> {
  const forms = new FormCursor(reader.forms());
  try {
    for await (const url of reader.urls()) {
      const texts = (await forms.takeFor(url.id)).map((form) => form.text); // redacted by the cursor
      yield [url.id, redactPassword(url.key), url.state, url.depth, url.aliasOf ?? null, url.lastFetch?.status ?? null, texts];
    }
  } finally {
    await forms.close();
  }
}

/** `[from, to, count, element, attribute]`. */
async function* edgeEntries(reader: IndexReader): AsyncGenerator<unknown[]> {
  for await (const edge of reader.edges()) yield [edge.fromUrlId, edge.toUrlId, edge.count, edge.element ?? null, edge.attribute ?? null];
}

/** The seeds (the URLs at depth 0 that open the index), for the header. */
async function seedsTitle(reader: IndexReader): Promise<string> {
  const seeds: string[] = [];
  for await (const url of reader.urls()) {
    if (url.depth !== 0) break;
    seeds.push(redactPassword(url.key));
  }
  if (seeds.length === 0) return 'an empty index';
  return `crawl of ${seeds.join(', ')}`;
}

function savedText(stats: CrawlStats): string {
  const { folded } = stats;
  const saved =
    stats.fetchesSaved === undefined
      ? 'Fetches saved: not recorded (the index was crawled before crawl runs were recorded)'
      : `Fetches saved: ${stats.fetchesSaved} — ${FETCHES_SAVED_DEFINITION}`;
  return `${saved}. Distinct targets folded by rung: syntax ${folded.syntax}, scheme ${folded.scheme}, protocol ${folded.protocol}.`;
}

function sum(counts: Readonly<Record<string, number>>): number {
  return Object.values(counts).reduce((total, n) => total + n, 0);
}
