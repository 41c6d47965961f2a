// The end-of-crawl summary of `crawl` and `demo`: one screen of plain lines, or one JSON object.

import type { BrokenKind, CrawlSummary, StopReason, Verdict } from '../crawl/index.js';
import { splitByEvidence } from '../ladder/index.js';
import type { MatchRung } from '../store/index.js';
import type { InterruptSignal } from './cli-context.js';
import { requestKindsText } from '../report/index.js';
import { toJsonLine } from './json-line.js';
import { formatSeconds } from './progress-line.js';

const LABEL_WIDTH = 12;

/** Lines are wrapped (after a comma) to fit this many columns. */
const SCREEN_WIDTH = 80;

const STOPPED: Readonly<Record<StopReason, string>> = {
  'frontier-empty': 'finished: the frontier is empty',
  'max-pages': 'stopped at --max-pages: the rest stays queued; run it again to go on',
  signal: 'interrupted (Ctrl-C): claimed URLs requeued; run it again to resume',
  fatal: 'stopped on a fatal error (on stderr); run it again to resume',
  'seeds-failed': 'nothing crawled: no seed could be fetched (on stderr)',
};

const TERMINATED = 'terminated (SIGTERM): claimed URLs requeued; run it again to resume';

const NOTHING_LEFT = 'nothing left to do: earlier runs settled every URL of the index; --recheck asks them again';

const AUDIT_HINT = '; `linkladder audit` lists the links to them';

/** What the index holds beyond this run, given when an earlier run crawled into it. */
export interface IndexStanding {
  /** Broken URLs of the whole index, by kind (as `stats` counts them). */
  readonly broken: Readonly<Record<BrokenKind, number>>;
  /** The URLs of the whole index checked, by verdict (as `stats` and the audit count them); absent when not read. */
  readonly verdicts?: Readonly<Record<Verdict, number>> | undefined;
}

/**
 * The summary as lines of `label  text`, what to fix first (broken, redirects),
 * then what was checked and how long it took, then the counts of the crawl in
 * plain words (the ladder's own terms are `stats` and `explain`'s); `signal`
 * says which one stopped it. With `standing` (an index crawled before), a run
 * that found nothing to do says so, and broken URLs are also given for the
 * whole index when they differ from this run's: a run that asked nothing must
 * not look like a clean site.
 */
export function formatSummary(summary: CrawlSummary, signal?: InterruptSignal, standing?: IndexStanding): string[] {
  const index = summary.index;
  const urls = sum(Object.values(index.urlsByState));
  const isNothingLeft =
    standing !== undefined && summary.stoppedBy === 'frontier-empty' && summary.requests === 0 && summary.pagesFetched === 0 && summary.pagesFailed === 0;
  const stopped = summary.stoppedBy === 'signal' && signal === 'SIGTERM' ? TERMINATED : isNothingLeft ? NOTHING_LEFT : STOPPED[summary.stoppedBy];
  const indexBroken = standing !== undefined && !sameCounts(summary.broken, standing.broken) ? standing.broken : undefined;
  const lines: [string, string][] = [
    ['crawl', stopped],
    [
      'broken',
      indexBroken !== undefined
        ? brokenText(summary.broken, ' this run')
        : brokenText(summary.broken) + (sum(Object.values(summary.broken)) > 0 ? AUDIT_HINT : ''),
    ],
  ];
  if (indexBroken !== undefined) lines.push(['', `whole index: ${brokenText(indexBroken)}${sum(Object.values(indexBroken)) > 0 ? AUDIT_HINT : ''}`]);
  // The verdicts the audit reports by (LINK_BROKEN, LINK_UNVERIFIED), and `stats` counts.
  const indexVerdicts = standing?.verdicts !== undefined && !sameCounts(summary.verdicts, standing.verdicts) ? standing.verdicts : undefined;
  lines.push(['verdicts', verdictText(summary.verdicts, indexVerdicts === undefined ? '' : ' this run')]);
  if (indexVerdicts !== undefined) lines.push(['', `whole index: ${verdictText(indexVerdicts)}`]);
  lines.push(
    ['redirects', `${summary.redirected} URLs answered with a redirect, ${summary.requestsByKind.redirects} redirect hops followed`],
    ['external', externalText(summary)],
    ['resources', `${summary.resourcesChecked} checked (images, stylesheets, scripts, …), each once: ${summary.resourcesBroken} broken`],
  );
  const disallowed = summary.notCheckedByRobots;
  if (disallowed > 0) lines.push(['not checked', `${disallowed} URL${disallowed === 1 ? '' : 's'}: robots.txt disallows ${disallowed === 1 ? 'it' : 'them'}`]);
  lines.push(
    ['duration', formatDuration(summary.durationMs)],
    ['requests', requestsText(summary)],
    // Every role: the resources and external links of the lines above are among them.
    [
      'fetched',
      `${summary.pagesFetched} URLs answered, ${summary.pagesFailed} failed (pages, resources and external links); ` +
        `${summary.representationsReused} came with another URL's response`,
    ],
    ['links', `${summary.links} recorded, ${summary.queued} URLs queued`],
    ['known URLs', knownText(summary.linksByRung)],
    ['saved', `${summary.fetchesSaved} requests avoided: URLs joined to a known page first`],
  );
  if (!sameCounts(summary.linksByRung, index.linksByRung)) {
    lines.push(['', `whole index: ${knownText(index.linksByRung)}`]);
  }
  const { protocol, content, claimed } = splitByEvidence(summary.aliasesLearned);
  lines.push(['merged', `${sum(Object.values(protocol) as number[])} URLs found to stand for another (${counts(protocol)}); evidence rejected ${summary.evidenceRejected}, revoked ${summary.evidenceRevoked}`]);
  // A page's claim about itself: recorded, never obeyed, so no URL is merged by it.
  const canonical = sum(Object.values(claimed) as number[]);
  if (canonical > 0) lines.push(['canonical', canonicalText(canonical)]);
  // Beyond RFC 3986, heuristic: shown apart from what servers proved, so no one takes it for proof.
  const held = summary.contentEvidence;
  if (held !== undefined || sum(Object.values(content) as number[]) > 0) {
    const rules = held === undefined ? '' : `; ${held.deferred} predicted duplicates held back (${held.joined} joined without a request, ${held.released} fetched), ${held.rules.length} rules learned`;
    lines.push(['content', `${sum(Object.values(content) as number[])} URLs joined by content evidence, heuristic (${counts(content)})${rules}`]);
  }
  lines.push(
    ['errors', errorsText(summary.errorsByCode)],
    ...summary.robotsOutages.map((outage): [string, string] => ['robots', robotsOutageLine(outage)]),
    ...summary.hostsUnreachable.map((host): [string, string] => ['unreachable', unreachableHostLine(host)]),
    ...(summary.politeness ?? []).map((host): [string, string] => ['politeness', politenessLine(host)]),
    ['hrefs', `browser-style fixes: ${counts(byName(summary.hrefFindings), 'none')}`],
    ['index', `${urls} URLs (${counts(index.urlsByState)}), ${index.fetches} fetches`],
  );
  return lines.flatMap(([label, text]) =>
    wrap(text, SCREEN_WIDTH - LABEL_WIDTH).map((part, i) => `${(i === 0 ? label : '').padEnd(LABEL_WIDTH)}${part}`.trimEnd()),
  );
}

/** Pages whose rel=canonical names another URL: what `stats` and `explain` say of them too. */
export function canonicalText(pages: number): string {
  return `${pages} page${pages === 1 ? '' : 's'} name${pages === 1 ? 's' : ''} another URL as canonical (rel=canonical): recorded, not obeyed, no alias`;
}

/**
 * External links: checked once each, those an earlier run's answer stood for (the
 * verdict cache), how many were broken, and what the second pass asked again.
 */
export function externalText(summary: CrawlSummary): string {
  const cached = summary.externalFromCache ?? 0;
  const fromCache = cached > 0 ? `, ${cached} from the cache (not requested)` : '';
  const asked = summary.secondPassAsked ?? 0;
  const second = asked > 0 ? `; second pass: ${asked} unverified asked again, ${summary.secondPassOk ?? 0} now ok` : '';
  return `${summary.externalChecked} links to other sites checked, each once${fromCache}: ${summary.externalBroken} broken${second}`;
}

/** RFC 9309 §2.3.1.4: a host's robots.txt that could not be read, and what became of its URLs. */
function robotsOutageLine(outage: CrawlSummary['robotsOutages'][number]): string {
  const origin = outage.robotsUrl.replace(/\/robots\.txt$/, '');
  const why = outage.status === undefined ? (outage.errorCode ?? 'no response') : `status ${outage.status}`;
  const tries = `${outage.attempts} ${outage.attempts === 1 ? 'try' : 'tries'}`;
  if (outage.isOver) return `robots.txt of ${origin} was unreachable (${why}) and answered after ${tries}`;
  const left = `${outage.urlsLeft} URL${outage.urlsLeft === 1 ? '' : 's'} left queued for the next run`;
  return `robots.txt of ${origin} unreachable (${why}, ${tries}): nothing of it fetched, ${left}`;
}

/** A host paused for the run: what failed, and its URLs recorded without a request. */
function unreachableHostLine(host: CrawlSummary['hostsUnreachable'][number]): string {
  const left = `${host.urlsNotChecked} URL${host.urlsNotChecked === 1 ? '' : 's'} of it not checked, ${host.code}`;
  return `${host.origin} paused for the run, no answer to ${host.failures} requests in a row, ${host.errorCode}; ${left}`;
}

/**
 * What a host's answers made the crawl do (host-pace.ts), each figure the count of
 * responses it sent: `127.0.0.1 paused 2× by Retry-After (longest 2 s); 3 × 429:
 * rate lowered to 1 request / 4 s (now 1 / 1 s)`.
 */
export function politenessLine(host: NonNullable<CrawlSummary['politeness']>[number]): string {
  const parts: string[] = [];
  if (host.pauses > 0) parts.push(`paused ${host.pauses}× by Retry-After (longest ${formatSeconds(host.longestPauseMs)} s)`);
  if (host.tooManyRequests > 0) {
    const now = host.delayMs === 0 ? 'now back to the configured rate' : `now 1 / ${formatSeconds(host.delayMs)} s`;
    parts.push(`${host.tooManyRequests} × 429: rate lowered to 1 request / ${formatSeconds(host.slowestDelayMs)} s (${now})`);
  }
  return `${host.host} ${parts.join('; ')}`;
}

/** URLs settled with an error, by code: `stats` counts the same. */
export function errorsText(errorsByCode: Readonly<Record<string, number>>): string {
  const total = sum(Object.values(errorsByCode));
  return total === 0 ? 'none' : `${urls(total)}: ${counts(byName(errorsByCode))}`;
}

/** Broken links by kind; `scope` follows the count (` this run`). */
export function brokenText(broken: Readonly<Record<BrokenKind, number>>, scope = ''): string {
  const total = sum(Object.values(broken));
  return `${urls(total)}${scope}: 4xx ${broken['client-error']}, 5xx ${broken['server-error']}, no response ${broken.failed}`;
}

/** URLs checked by verdict: `N URLs checked: a ok, b broken, c unverified`. */
export function verdictText(verdicts: Readonly<Record<Verdict, number>>, scope = ''): string {
  return `${urls(verdicts.ok + verdicts.broken + verdicts.unverified)} checked${scope}: ${verdicts.ok} ok, ${verdicts.broken} broken, ${verdicts.unverified} unverified`;
}

/** Every request sent, and what each was for. */
function requestsText(summary: CrawlSummary): string {
  return `${summary.requests}: ${requestKindsText(summary.requestsByKind)}`;
}

/** `text` in lines of at most `width` columns, broken after ", " or "; " (a longer piece stays whole). */
function wrap(text: string, width: number): string[] {
  const pieces = text.split(/(?<=[,;] )/);
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    if (line !== '' && (line + piece).trimEnd().length > width) {
      lines.push(line.trimEnd());
      line = '';
    }
    line += piece;
  }
  lines.push(line.trimEnd());
  return lines;
}

/** The summary as the last JSON line of `--json`, after the events; with `standing`, the whole index's broken URLs as `indexBroken`. */
export function summaryJson(summary: CrawlSummary, standing?: IndexStanding, options: { readonly insecure?: boolean } = {}): string {
  return toJsonLine({
    type: 'summary',
    ...summary,
    // As the text summary's closing `tls` line: a run that verified no certificate says so.
    ...(options.insecure === true ? { insecure: true } : {}),
    ...(standing === undefined ? {} : { indexBroken: standing.broken }),
    ...(standing?.verdicts === undefined ? {} : { indexVerdicts: standing.verdicts }),
  });
}

/** Links that named a URL the crawl knew already, in plain words (`stats` gives them by rung). */
function knownText(linksByRung: Readonly<Record<MatchRung, number>>): string {
  const { new: fresh, string: same, syntax, scheme, protocol } = linksByRung;
  const total = same + syntax + scheme + protocol;
  return `${total} links named a URL already known (as written ${same}, spelled another way ${syntax + scheme}, through a redirect or Content-Location ${protocol}); ${fresh} led to a new URL`;
}

function sameCounts(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => (a[key] ?? 0) === (b[key] ?? 0));
}

/** Codes in name order: the crawl counts them in the order it met them. */
function byName(record: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `name n, name n` in the record's order; `ifEmpty` when there are none. */
function counts(record: Readonly<Record<string, number>>, ifEmpty = ''): string {
  const entries = Object.entries(record);
  if (entries.length === 0) return ifEmpty;
  return entries.map(([name, n]) => `${name} ${n}`).join(', ');
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** `1 URL`, `2 URLs`. */
function urls(count: number): string {
  return `${count} URL${count === 1 ? '' : 's'}`;
}
