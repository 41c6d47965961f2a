// `linkladder stats` as a person reads it: aligned labels, the funnel as a ladder.

import { requestTotal, type RequestCounts } from '../../crawl/index.js';
import { splitByEvidence } from '../../ladder/index.js';
import { FETCHES_SAVED_DEFINITION, LINKS_NOT_FETCHED_DEFINITION, type CrawlStats } from './crawl-stats.js';
import { workerRows } from './format-workers.js';

const LABEL_WIDTH = 16;

/** The lines of the plain report. */
export function formatStats(stats: CrawlStats): string[] {
  const { funnel, folded } = stats;
  const width = String(Math.max(funnel.rawLinks, funnel.distinctStrings, 1)).length;
  const count = (n: number): string => String(n).padStart(width);
  const { protocol, content, claimed } = splitByEvidence(stats.aliasesByEvidence);
  const rows: [string, string][] = [
    // The distinct counts come from what each link added to the index: a seed's own URL,
    // known before any link, is not among them (a link naming it meets a known string).
    ['funnel', 'the comparison ladder (RFC 3986 §6.2), over the links with a target (distinct: beyond the seeds):'],
    ['  raw links', `${count(funnel.rawLinks)}  links with a resolved target`],
    ['  strings', `${count(funnel.distinctStrings)}  distinct target strings (fragment removed)`],
    ['  syntax', `${count(funnel.distinctSyntax)}  distinct after syntax-based normalization (§6.2.2), ${folded.syntax} folded`],
    ['  scheme', `${count(funnel.distinctScheme)}  distinct after scheme-based normalization (§6.2.3), ${folded.scheme} folded`],
    ['  aliases', `${count(funnel.afterAliases)}  distinct after protocol-based aliases (§6.2.4), ${folded.protocol} folded`],
    ['  unresolved', `${count(funnel.unresolved)}  links without a valid target`],
    ['fetches saved', stats.fetchesSaved === undefined ? 'not recorded (the index was crawled before crawl runs were recorded)' : `${stats.fetchesSaved}  (${FETCHES_SAVED_DEFINITION})`],
    ['requests', requestsText(stats.requests, stats.runsNotEnded)],
    ['links unfetched', `${stats.linksNotFetched}  (${LINKS_NOT_FETCHED_DEFINITION}; ${stats.fetches} fetches)`],
    ['urls', String(stats.urls)],
    ['aliases', `${total(protocol)}  by evidence: ${list(protocol)}`],
    ['errors', `${total(stats.errorsByCode)}${total(stats.errorsByCode) === 0 ? '' : `  by code: ${list(stats.errorsByCode)}`}`],
    ['broken', `${total(stats.broken)}  4xx ${stats.broken['client-error']}, 5xx ${stats.broken['server-error']}, no response ${stats.broken.failed}`],
    ['verdicts', verdictsText(stats.verdicts)],
    ['duplicates', duplicatesText(stats.duplicates)],
  ];
  // Content evidence is heuristic, beyond RFC 3986: shown apart, when there is any.
  // A canonical link is a page's claim, recorded and never obeyed: no alias, counted apart.
  if (total(claimed) > 0) rows.splice(rows.findIndex(([label]) => label === 'aliases') + 1, 0, ['canonical', `${total(claimed)}  pages name another URL as canonical (rel=canonical): recorded, not obeyed, no alias`]);
  if (total(content) > 0) rows.splice(rows.findIndex(([label]) => label === 'aliases') + 1, 0, ['content aliases', `${total(content)}  heuristic, by --content-evidence: ${list(content)}`]);
  if (stats.contentEvidence !== undefined) rows.push(['content rules', contentRulesText(stats.contentEvidence)]);
  if (stats.workers !== undefined) rows.push(...workerRows(stats.workers));
  return rows.map(([label, text]) => `${label.padEnd(LABEL_WIDTH)}${text}`);
}

/** The URLs checked by verdict, as the crawl's summary says them. */
export function verdictsText(verdicts: CrawlStats['verdicts']): string {
  return `${verdicts.ok + verdicts.broken + verdicts.unverified} URLs checked: ${verdicts.ok} ok, ${verdicts.broken} broken, ${verdicts.unverified} unverified`;
}

/** Pairs shown on the line; `--json` has `DUPLICATE_PAIRS_KEPT`. */
const PAIRS_SHOWN = 3;

// Content evidence, beyond RFC 3986 and heuristic: said so on the line.
function duplicatesText(duplicates: CrawlStats['duplicates']): string {
  const { groups, urls, joinedByContent, prefixPairs } = duplicates;
  let text = `${groups} group${groups === 1 ? '' : 's'}, ${urls} URLs byte-identical, not joined by the ladder (content evidence, heuristic)`;
  if (joinedByContent > 0) text += `, ${joinedByContent} of them joined by --content-evidence`;
  if (prefixPairs.length === 0) return text;
  const shown = prefixPairs.slice(0, PAIRS_SHOWN).map((pair) => `${pair.from} ↔ ${pair.to} ${pair.count}`);
  return `${text}: ${shown.join(', ')}${prefixPairs.length > PAIRS_SHOWN ? ', …' : ''}`;
}

/** What `--content-evidence` did in its last run: the held URLs' fate and the rules, most supported first. */
function contentRulesText(content: NonNullable<CrawlStats['contentEvidence']>): string {
  const { runId, rules, deferred, joined, released } = content;
  const shown = rules.slice(0, PAIRS_SHOWN).map((rule) => `${rule.prefixes[0]} ↔ ${rule.prefixes[1]} support ${rule.support}${rule.contradictions > 0 ? `, contradicted ${rule.contradictions}` : ''}`);
  const more = rules.length > PAIRS_SHOWN ? ', …' : '';
  return `${rules.length} learned by run ${runId} (heuristic)${shown.length > 0 ? `: ${shown.join('; ')}${more}` : ''}; ${deferred} URLs held back: ${joined} joined without a request, ${released} fetched`;
}

/** Requests by kind: `a fetches, b retries, c redirect hops, d robots.txt, e sitemaps`. */
export function requestKindsText(requests: RequestCounts): string {
  const { fetches, retries, redirects, robots, sitemaps } = requests;
  return `${fetches} fetches, ${retries} retries, ${redirects} redirect hops, ${robots} robots.txt, ${sitemaps} ${sitemaps === 1 ? 'sitemap' : 'sitemaps'}`;
}

function requestsText(requests: CrawlStats['requests'], runsNotEnded: number | undefined): string {
  if (requests === undefined) return 'not recorded (the index was crawled before crawl runs were recorded)';
  const text = `${requestTotal(requests)}  ${requestKindsText(requests)}`;
  if (runsNotEnded === undefined) return text;
  const runs = runsNotEnded === 1 ? '1 run' : `${runsNotEnded} runs`;
  return `${text}; ${runs} did not end (killed, or still going): what a killed run had in flight or not yet committed is counted by the run that sent it again`;
}

function total(counts: Readonly<Partial<Record<string, number>>>): number {
  return Object.values(counts).reduce((sum: number, n) => sum + (n ?? 0), 0);
}

function list(counts: Readonly<Partial<Record<string, number>>>): string {
  return Object.entries(counts)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
}
