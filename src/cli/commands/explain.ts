// `linkladder explain <url>`: why the index fetched, skipped or merged a URL.

import type { Command } from 'commander';
import { errorKindOf, explain, isFromCache, type ExplainArchived, type Explanation } from '../../crawl/index.js';
import { ERROR_MESSAGES, type ErrorCode } from '../../errors.js';
import type { FetchRow, UrlRecord } from '../../store/index.js';
import type { CliContext } from '../cli-context.js';
import { formatOption, isJsonOutput, jsonOption, outOption, TEXT_OR_JSON, withOutput, type OutputOptions } from '../output-options.js';
import { addIndexPathOptions, indexTarget, type IndexPathOptions } from '../index-path.js';
import { EXIT_CODES } from '../exit-codes.js';
import { toJsonLine } from '../json-line.js';
import { openReadOnlyIndex } from '../open-store.js';

const LABEL_WIDTH = 10;

const HELP = `
Output:
  plain   the URL's key and the rung at which the URL as written meets it, the
          verdict (fetched, failed, skipped, merged, queued) and why, the alias
          chain (the URL first, the one that stands for it last) with the
          evidence of each step, the page and href that first named it, and
          its fetches (each with the protocol its answer came over: HTTP/1.1, HTTP/2),
          and the WARC records that stand for it (crawl --warc): file @ offset
          (+length bytes), response or revisit (with the record it refers to), date
  --json  the explanation as one object: {"input","error","key","spelling",
          "url","aliasChain","resource","verdict","reason","scope",
          "firstLink","fetches","evidence","archived"}
Exit code 0 when the URL is in the index (at any rung), 1 when it is not
(or is not an absolute URI).`;

interface ExplainCommandOptions extends IndexPathOptions, OutputOptions {
}

export function addExplainCommand(program: Command, context: CliContext): void {
  addIndexPathOptions(program.command('explain'))
    .summary('why a URL was fetched, skipped or merged')
    .description('Say why the index fetched, skipped or merged a URL, from what the index holds.')
    .argument('<url>', 'an absolute URL, spelled any way (it is looked up by its key)')
    .addOption(formatOption(TEXT_OR_JSON))
    .addOption(jsonOption())
    .addOption(outOption())
    .addHelpText('after', HELP)
    .action(async (url: string, options: ExplainCommandOptions) => {
      const target = await indexTarget(options, context);
      const store = await openReadOnlyIndex(target.db, target.connection);
      let explanation: Explanation;
      try {
        explanation = await explain(store, url);
      } finally {
        await store.close();
      }
      const lines = isJsonOutput(options) ? [toJsonLine(explanation)] : formatExplanation(explanation);
      await withOutput(options, context, async (out) => {
        for (const line of lines) await out.writeLine(line);
      });
      context.exitCode = explanation.url === undefined ? EXIT_CODES.INVALID : EXIT_CODES.OK;
    });
}

function formatExplanation(why: Explanation): string[] {
  const lines: [string, string][] = [['url', why.input]];
  if (why.error !== undefined) {
    const message = (ERROR_MESSAGES as Readonly<Record<string, string>>)[why.error as ErrorCode];
    lines.push(['error', message === undefined ? why.error : `${why.error}: ${message}`]);
  }
  if (why.key !== undefined) {
    const how = why.spelling === 'string' ? 'written as its key' : `meets it at rung ${why.spelling ?? '?'}`;
    lines.push(['key', `${why.key}  (${how})`]);
  }
  lines.push(['verdict', `${why.verdict}: ${why.reason}`]);
  if (why.url !== undefined) {
    const [first, ...rest] = why.aliasChain;
    if (first !== undefined) lines.push(['chain', describeUrl(first)]);
    rest.forEach((next, i) => {
      const proof = why.evidence[i];
      const by = proof === undefined ? 'protocol rung' : `${proof.evidence}${proof.detail === undefined ? '' : ` ${proof.detail}`}`;
      lines.push(['', `→ ${describeUrl(next)}  (${by})`]);
    });
    if (rest.length === 0) lines.push(['', 'no alias: it stands for itself']);
    const link = why.firstLink;
    if (link !== undefined) {
      lines.push(['found', link.fromKey === undefined ? `as a seed or in a response: ${link.rawHref}` : `on ${link.fromKey} as href "${link.rawHref}"`]);
    }
    for (const fetch of why.fetches) lines.push(['fetch', describeFetch(fetch)]);
  }
  for (const record of why.archived) lines.push(['archived', describeArchived(record, why.key)]);
  return lines.map(([label, text]) => `${label.padEnd(LABEL_WIDTH)}${text}`);
}

/**
 * One fetch row: a refusal (nothing requested), a row made from another URL's
 * response, or a request of its own read in the order it happened — each redirect
 * hop's status and where it led, then the last answer.
 */
function describeFetch(fetch: FetchRow): string {
  const at = new Date(fetch.startedAt).toISOString();
  const isOwn = fetch.durationMs !== undefined || fetch.redirects.length > 0;
  const code = fetch.errorCode;
  // An earlier run's answer, kept by the verdict cache: no request this run.
  if (isFromCache(fetch)) return `${at}  from the cache of ${at.slice(0, 10)} (asked then by an earlier run): ${code ?? (fetch.status === undefined ? 'no response' : `status ${fetch.status}`)}, not requested this run`;
  if (!isOwn && code !== undefined && errorKindOf(code) === 'refused') return `${at}  not requested: ${code}`;
  const answer = code ?? (fetch.status === undefined ? 'no response' : `status ${fetch.status}`);
  if (!isOwn) return `${at}  with another URL’s response: ${answer}`;
  const hops = fetch.redirects.map((hop) => `${hop.status} → ${hop.to ?? '(no Location)'}`);
  const last = fetch.redirects.at(-1);
  // A chain the crawl stopped at a URL it knew: the last hop's target was not requested.
  const isStopped = last !== undefined && last.to !== undefined && last.from === fetch.finalUrl && last.status === fetch.status && code === undefined;
  const end = isStopped ? 'not requested (known already)' : answer;
  const attempts = fetch.attempts > 1 ? `, ${fetch.attempts} attempts` : '';
  return `${at}  ${[...hops, end].join(', ')}, ${fetch.durationMs ?? '?'} ms${attempts}${protocolText(fetch)}`;
}

/**
 * A WARC record: where it lies (file @ offset, +length), its type and WARC-Date, its
 * status; the URL it was requested as when that is not the key asked about; for a
 * revisit, the response it refers to.
 */
function describeArchived(record: ExplainArchived, key: string | undefined): string {
  const status = record.status === undefined ? '' : `, status ${record.status}`;
  const as = record.uri === key ? '' : `, for ${record.uri}`;
  let refers = '';
  if (record.type === 'revisit') {
    const original = record.refersTo;
    refers =
      original === undefined
        ? `, of payload ${record.payloadDigest ?? '(none)'} (its first response is not in the index)`
        : `, of ${original.uri} ${warcDate(original.date)} (${original.file} @ ${original.offset})`;
  }
  return `${record.file} @ ${record.offset} (+${record.length} bytes) ${record.type} ${warcDate(record.date)}${status}${as}${refers}`;
}

/** A WARC-Date as WARC writes it: UTC, milliseconds only when there are some. */
function warcDate(date: Date): string {
  return date.toISOString().replace('.000Z', 'Z');
}

/** The protocol the last response came over, as people name it (none recorded: nothing said). */
function protocolText(fetch: FetchRow): string {
  if (fetch.protocol === undefined) return '';
  return fetch.protocol === 'h2' ? ', HTTP/2' : ', HTTP/1.1';
}

function describeUrl(url: UrlRecord): string {
  return `${url.key}  [${url.state}, depth ${url.depth}]`;
}
