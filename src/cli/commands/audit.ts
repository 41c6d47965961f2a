// `linkladder audit`: what the crawl in the index says is wrong with the site's links.

import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  audit,
  AUDIT_CODE_LIST,
  compareFindings,
  countInlinks,
  filterFindings,
  findingTest,
  formatAuditCsv,
  formatAuditJson,
  formatAuditSarif,
  formatAuditText,
  formatSinceCsv,
  formatSinceJson,
  formatSinceText,
  formatTargetGroupsText,
  groupByTarget,
  parseSourceRoot,
  SEVERITIES,
  SEVERITY_RANK,
  summarizeFindings,
  targetGroupJson,
  type AuditFinding,
  type FindingChanges,
  type FindingTest,
  type Severity,
  type SourceRoot,
} from '../../report/index.js';
import type { IndexReader } from '../../store/index.js';
import { readBaseline, SinceRefused } from '../audit-since.js';
import type { CliContext } from '../cli-context.js';
import { addIndexPathOptions, indexTarget, type IndexPathOptions } from '../index-path.js';
import { indexLabel, openReader } from '../open-store.js';
import type { LineWriter } from '../line-writer.js';
import { refuseNoCrawl } from '../no-crawl.js';
import { EXIT_CODES } from '../exit-codes.js';
import { addOutputOptions, isTerminalOutput, outputFormat, withOutput, type OutputOptions, type OutputOptionsSpec } from '../output-options.js';
import { readPackageVersion } from '../package-version.js';

export const AUDIT_FORMATS = ['text', 'json', 'csv', 'sarif'] as const;
export type AuditFormat = (typeof AUDIT_FORMATS)[number];

export const FAIL_ON = ['error', 'warning'] as const satisfies readonly Severity[];

export const GROUP_BY = ['page', 'target'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

const OUTPUT: OutputOptionsSpec<AuditFormat> = { formats: AUDIT_FORMATS, defaultFormat: 'text' };

const HELP = `
Reads the index only: nothing is fetched again. Every code, with its severity
and meaning, is listed in docs/audit.md.

Output:
  text   a short summary (counts by severity and code, broken targets), then
         findings grouped by page: the page's URL, then per finding its
         severity, code, the href as written, what it resolves to and where the
         href is written (line, column), and one line saying what is wrong.
         Severities are coloured on a terminal (not with NO_COLOR set, nor when
         piped or written with --out; --color and --no-color decide instead)
  json   one JSON object per finding and line: {"code","severity","page",
         "rawHref","target","line","column","message","detail"} (absent: null)
  csv    a header, then severity,code,page,line,column,href,target,status,
         inlinks,message: status is the target's HTTP status (else its error
         code), inlinks how many pages have this finding on this target
  sarif  one SARIF 2.1.0 log: a rule per code, a result per finding located at
         its page's URL, or with --source-root at the page's file, with the line
         and column of the href
--group-by target ranks targets (most severe first, then by how many pages link
to them) and lists every referring page with its href as written and its line;
in json, one object per target: {"code","severity","target","status","pages",
"links":[{"page","rawHref","line","column"}]}.
--source-root http://127.0.0.1:8080/docs/=./site/ maps pages under that URL to
files under ./site/ (a URL ending in "/" is its index.html); repeatable, the
longest prefix wins.
--since RUN (a run id of this index, as \`stats\` lists them) or --since FILE
(another index) lists what changed since then: a summary line ("2 new, 1 fixed
since run 1 (…)"), then the findings new since then, then those fixed (there
then, gone now). A finding is the same from run to run when its code, page,
target and href as written are (not its line or message). Each crawl keeps its
findings' identities when it ends (not after a fatal error). json: each object
opens with "change":"new"|"fixed"; csv: a first column change; sarif: each
result's baselineState is "new" or "absent". --severity and --code apply to
both; the exit code counts the new findings only. An unknown run, or one that
kept no findings (crawled by an older version): one line, exit 2.
Exit code 1 when a finding shown (after --severity and --code) is at or above
--fail-on (default: error), 0 when none is; info findings never fail; 4 when the
index holds no crawl.`;

interface AuditCommandOptions extends IndexPathOptions, OutputOptions {
  readonly failOn: (typeof FAIL_ON)[number];
  readonly severity?: Severity;
  readonly code?: readonly string[];
  readonly groupBy: GroupBy;
  readonly sourceRoot?: readonly SourceRoot[];
  readonly color?: boolean;
  readonly since?: string;
}

export function addAuditCommand(program: Command, context: CliContext): void {
  const command = addIndexPathOptions(program.command('audit'))
    .summary('findings about the links of a crawl: broken, redirected, misresolved, …')
    .description(
      'Audit the crawl in the index: broken links and redirects, hrefs browsers and RFC 3986 read differently, base chain problems, missing fragments.',
    );
  addOutputOptions(command, OUTPUT)
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding of this severity or higher exists').choices(FAIL_ON).default('error'))
    .addOption(new Option('--severity <level>', 'show only findings at least this severe').choices(SEVERITIES))
    .addOption(new Option('--code <CODE>', 'show only findings with this code (repeatable)').argParser(collectCode))
    .addOption(new Option('--group-by <what>', 'page: findings by page; target: targets ranked by pages linking to them').choices(GROUP_BY).default('page'))
    .addOption(new Option('--source-root <prefix=dir>', 'SARIF: map page URLs under prefix to files under dir (repeatable)').argParser(collectSourceRoot))
    .addOption(new Option('--since <run|file>', 'only what is new and what was fixed since a run of this index, or another index file').conflicts('groupBy'))
    .option('--color', 'colour severities even when not writing to a terminal')
    .option('--no-color', 'never colour severities')
    .addHelpText('after', HELP)
    .action(async (options: AuditCommandOptions) => {
      const { db, connection } = await indexTarget(options, context);
      const file = indexLabel(db);
      const test = findingTest({ minSeverity: options.severity, codes: options.code });
      const reader = await openReader(db, connection);
      let worst = -1;
      try {
        if (await refuseNoCrawl(reader, file, context)) return;
        const color = options.color ?? (isTerminalOutput(options, context) && !hasNoColor(context.env));
        if (options.since !== undefined) {
          const worstNew = await since(options.since, reader, file, test, options, color, context);
          if (worstNew === undefined) return;
          worst = worstNew;
        } else {
          const findings = tap(filterFindings(audit(reader), test), (finding) => {
            worst = Math.max(worst, SEVERITY_RANK[finding.severity]);
          });
          await withOutput(options, context, (out) => write(out, findings, options, color));
        }
      } finally {
        await reader.close();
      }
      if (context.exitCode === EXIT_CODES.NO_CRAWL || context.exitCode === EXIT_CODES.USAGE) return;
      context.exitCode = worst >= SEVERITY_RANK[options.failOn] ? EXIT_CODES.INVALID : EXIT_CODES.OK;
    });
}

async function write(out: LineWriter, findings: AsyncIterable<AuditFinding>, options: AuditCommandOptions, color: boolean): Promise<void> {
  const format = outputFormat(options, OUTPUT) ?? 'text';
  const isByTarget = options.groupBy === 'target';
  // Streamed where nothing needs the whole list first.
  if (format === 'sarif') {
    const lines = formatAuditSarif(findings, { toolVersion: readPackageVersion(), sourceRoots: options.sourceRoot ?? [] });
    for await (const line of lines) await out.writeLine(line);
    return;
  }
  if (format === 'json' && !isByTarget) {
    for await (const line of formatAuditJson(findings)) await out.writeLine(line);
    return;
  }
  const all: AuditFinding[] = [];
  for await (const f of findings) all.push(f);
  const grouped = isByTarget ? groupByTarget(all) : undefined;
  let lines: AsyncIterable<string> | Iterable<string>;
  switch (format) {
    case 'text':
      lines = grouped === undefined ? formatAuditText(all, { summary: summarizeFindings(all), color }) : formatTargetGroupsText(grouped, summarizeFindings(all), { color });
      break;
    case 'json':
      lines = grouped!.groups.map((group) => JSON.stringify(targetGroupJson(group)));
      break;
    case 'csv': {
      const ordered = grouped === undefined ? all : [...grouped.groups.flatMap((g) => g.findings), ...grouped.withoutTarget];
      lines = formatAuditCsv(ordered, { inlinks: countInlinks(all) });
      break;
    }
  }
  for await (const line of lines) await out.writeLine(line);
}

/**
 * `--since`: compare the audit of now with the baseline, write what changed, and
 * return the rank of the most severe new finding shown (-1: none); `undefined`
 * when the baseline was refused (one line, exit 2).
 */
async function since(
  value: string,
  reader: IndexReader,
  file: string,
  test: FindingTest,
  options: AuditCommandOptions,
  color: boolean,
  context: CliContext,
): Promise<number | undefined> {
  const baseline = await readBaseline(value, reader, file);
  if (baseline instanceof SinceRefused) {
    await context.err.writeLine(`linkladder: error: ${baseline.message}`);
    context.exitCode = EXIT_CODES.USAGE;
    return undefined;
  }
  const now: AuditFinding[] = [];
  for await (const f of audit(reader)) now.push(f);
  const all = await compareFindings(baseline.findings, now);
  const changes: FindingChanges = { added: all.added.filter(test), fixed: all.fixed.filter(test) };
  await withOutput(options, context, async (out) => {
    const format = outputFormat(options, OUTPUT) ?? 'text';
    let lines: AsyncIterable<string> | Iterable<string>;
    switch (format) {
      case 'text':
        lines = formatSinceText(changes, baseline.label, { color });
        break;
      case 'json':
        lines = formatSinceJson(changes);
        break;
      case 'csv': {
        lines = formatSinceCsv(changes, { now: countInlinks(now), before: countInlinks(all.before) });
        break;
      }
      case 'sarif': {
        const added = new Set(changes.added);
        lines = formatAuditSarif([...changes.added, ...changes.fixed], {
          toolVersion: readPackageVersion(),
          sourceRoots: options.sourceRoot ?? [],
          baselineState: (f) => (added.has(f) ? 'new' : 'absent'),
        });
        break;
      }
    }
    for await (const line of lines) await out.writeLine(line);
  });
  return Math.max(-1, ...changes.added.map((f) => SEVERITY_RANK[f.severity]));
}

/** NO_COLOR (https://no-color.org): set and not empty. */
function hasNoColor(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env['NO_COLOR'];
  return value !== undefined && value !== '';
}

function collectCode(value: string, previous: readonly string[] | undefined): string[] {
  if (!(AUDIT_CODE_LIST as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`not an audit code (docs/audit.md lists them, e.g. LINK_BROKEN).`);
  }
  return [...(previous ?? []), value];
}

function collectSourceRoot(value: string, previous: readonly SourceRoot[] | undefined): SourceRoot[] {
  try {
    return [...(previous ?? []), parseSourceRoot(value)];
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
}

async function* tap<T>(items: AsyncIterable<T>, see: (item: T) => void): AsyncGenerator<T> {
  for await (const item of items) {
    see(item);
    yield item;
  }
}
