// `linkladder check <target...>`: crawl and audit in one command, for CI — a site
// build folder, Markdown or HTML files of a repository, or a live site.

import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { givenSettings, settingOptions } from '../../config/index.js';
import { commandSettings } from '../command-settings.js';
import { parseCacheMaxAge, type CrawlSummary } from '../../crawl/index.js';
import { createFileFetcher, localRobots, type FileFetcher } from '../../fetch/index.js';
import { checkSummaryLine, countCheckFindings, formatCheckMarkdown, SEVERITY_RANK } from '../../report/index.js';
import { ChangedFilesError, changedFiles } from '../changed-files.js';
import { DEFAULT_CHECK_DB, FreshIndex, previousVerdicts } from '../check-index.js';
import { LocalPages } from '../check-local-pages.js';
import { CHECK_FAIL_ON, CHECK_FORMATS, urlsChecked, writeFindings, type CheckFormat, type Shape } from '../check-output.js';
import { PAGE_EXTENSIONS, TargetError, planCheck, type CheckPlan } from '../check-targets.js';
import { NOT_CHECK_SETTINGS, originOf, tuningOf } from '../check-tuning.js';
import type { CliContext } from '../cli-context.js';
import { EXIT_CODES } from '../exit-codes.js';
import { addOutputOptions, outputFormat, withOutput, type OutputOptions, type OutputOptionsSpec } from '../output-options.js';
import { cliCredentials } from '../request-credentials.js';
import { runCrawl } from '../run-crawl.js';

const OUTPUT: OutputOptionsSpec<CheckFormat> = { formats: CHECK_FORMATS, defaultFormat: 'text' };

const HELP = `
Targets:
  a folder        a site build (Hugo, Jekyll, Sphinx, Docusaurus output): every
                  .html/.htm/.md/.markdown file in it is checked, orphans included
                  (hidden folders and node_modules are skipped). Its pages get the
                  origin http://site.invalid/ (.invalid never resolves), or the URL
                  given by --site-url, so that root-relative links (/css/a.css)
                  map back into the folder
  files, globs    .md/.markdown/.html files of a repository ("docs/**/*.md",
                  quoted): read under the working directory (or --root); links to
                  other files are checked against the disk (and those files read
                  for their anchors, a folder counts as there); only the files
                  given are reported
  http(s) URLs    crawled as \`crawl\` does

Nothing is served and no port is opened: files are read from disk. External
links are checked once each (HEAD, GET where needed), politely, as \`crawl\` does
(--no-check-external keeps the check offline).

Each run builds a fresh index (--db, default ${DEFAULT_CHECK_DB}): written beside it
and renamed over it when the run ends, so a killed check leaves the old one.

--changed REF reports only what the files changed since REF (git diff, plus
untracked files) break: their own findings, and links in other files into them
(a renamed heading, a deleted page); external links of unchanged files are not
requested.

Severity: a link whose target is broken (missing file, 404/410, a name that does
not resolve, a missing #fragment) is an error; one that could not be verified
(timeout, 5xx, 429, a bot wall of another site) a warning; other findings keep
the severity of docs/audit.md.

Output (stdout; progress and the crawl's summary go to stderr):
  text   findings grouped by file: file:line:col  severity  CODE  "href" →
         target (its file when local)  message; then a verdict summary
  json   one object per line: {"code","severity","verdict","target","rawHref",
         "file","line","column","page","message"} (absent: null)
  csv    severity,code,verdict,file,line,column,href,target,page,message
  sarif  SARIF 2.1.0, each result at its file (relative URI), line and column

Exit codes: 0 nothing at or above --fail-on (default: error), 1 something is,
2 bad usage (a target that is no folder, page file, glob or URL), 3 the index
cannot be opened or written, 4 nothing was checked (an empty folder, no
reachable seed), 130 Ctrl-C.`;

interface CheckCommandOptions extends OutputOptions {
  readonly failOn: (typeof CHECK_FAIL_ON)[number];
  readonly db: string;
  readonly siteUrl?: string;
  readonly root?: string;
  readonly map?: readonly string[];
  readonly indexFile?: readonly string[];
  readonly cleanUrls?: boolean;
  readonly changed?: string;
  readonly cacheMaxAge: string;
  readonly summary?: string;
  readonly config?: string;
}

export function addCheckCommand(program: Command, context: CliContext): void {
  const command = program
    .command('check')
    .summary('check the links of a site folder, Markdown files or a site, for CI (crawl + audit)')
    .description('Check the links of a site build folder, Markdown or HTML files, or a live site, and exit non-zero when one is broken.')
    .argument('<target...>', 'folders, .html/.htm/.md/.markdown files, quoted globs of them, or http(s) URLs');
  addOutputOptions(command, OUTPUT)
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding of this severity or higher exists').choices(CHECK_FAIL_ON).default('error'))
    .addOption(new Option('--db <path>', 'the index this run rebuilds (a file)').default(DEFAULT_CHECK_DB))
    .addOption(new Option('--site-url <url>', 'the URL the folder is published at (root-relative links resolve against it)'))
    .addOption(new Option('--root <dir>', 'the folder files and globs are read under (root-relative links resolve to it)').default(undefined, 'the working directory'))
    .addOption(new Option('--map <prefix=dir>', 'check links under an absolute URL prefix against files under dir (repeatable)').argParser(collect))
    .addOption(new Option('--index-file <name>', 'what a folder URL means (repeatable)').argParser(collectIndexFile).default(undefined, 'index.html, index.htm'))
    .addOption(new Option('--clean-urls', '/about may mean about.html'))
    .addOption(new Option('--changed <git-ref>', 'report only what files changed since this git revision break'))
    .addOption(new Option('--cache-max-age <duration>', 'reuse external answers of the previous run this young (90s, 30m, 12h, 1d, 0)').default('1d'))
    .addOption(new Option('--summary <file>', 'also append a Markdown summary to this file (a CI job summary: $GITHUB_STEP_SUMMARY)'));
  // crawl's tuning flags, from the settings' schema (src/config/schema.ts), less those check decides itself.
  for (const option of settingOptions()) if (!NOT_CHECK_SETTINGS.has(option.attributeName())) command.addOption(option);
  command.addHelpText('after', HELP).action(async (targets: string[], options: CheckCommandOptions) => {
    context.exitCode = await check(targets, options, command, context);
  });
}

type ExitCodeOf = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

async function check(targets: readonly string[], options: CheckCommandOptions, command: Command, context: CliContext): Promise<ExitCodeOf> {
  const usage = async (message: string): Promise<ExitCodeOf> => {
    await context.err.writeLine(`linkladder: error: ${message}`);
    return EXIT_CODES.USAGE;
  };
  const format = outputFormat(options, OUTPUT) ?? 'text';
  let cacheMaxAgeMs: number;
  try {
    cacheMaxAgeMs = parseCacheMaxAge(options.cacheMaxAge, '--cache-max-age');
  } catch {
    return usage(`--cache-max-age ${options.cacheMaxAge}: expected a duration such as 45s, 30m, 12h, 1d or 0 (off)`);
  }
  if (/^postgres(ql)?:/i.test(options.db)) return usage('--db: check rebuilds its index each run, in a file; a PostgreSQL index is for crawl');
  const given = givenSettings(command);
  const settings = await commandSettings(context, options.config, given);
  // Before the targets are read: a URL's userinfo is Basic auth, never crawled, stored or printed.
  const credentials = await cliCredentials(settings, targets, context, (seeds) => seeds.filter((seed) => /^https?:\/\//i.test(seed)));
  if (typeof credentials === 'string') return usage(credentials);

  let plan: CheckPlan;
  let changed: Set<string> | undefined;
  try {
    plan = await planCheck(credentials.seeds, {
      cwd: context.cwd,
      siteUrl: options.siteUrl,
      root: options.root,
      maps: options.map,
      indexFiles: options.indexFile ?? ['index.html', 'index.htm'],
    });
    if (options.changed !== undefined) changed = await changedFiles(options.changed, context.cwd);
  } catch (error) {
    if (error instanceof TargetError || error instanceof ChangedFilesError) return usage(error.message);
    throw error;
  }
  for (const warning of plan.warnings) await context.err.writeLine(`linkladder: warning: ${warning}`);
  if (plan.urls.length === 0 && plan.seeds.length === 0) {
    await context.err.writeLine(`linkladder: error: nothing to check: no ${[...PAGE_EXTENSIONS].join(', ')} file in ${credentials.seeds.join(', ')}`);
    return EXIT_CODES.NO_CRAWL;
  }

  const index = new FreshIndex(options.db, context.cwd);
  try {
    await index.prepare();
  } catch (error) {
    await context.err.writeLine(`linkladder: error: cannot write the index ${options.db}: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_CODES.FAILURE;
  }
  // The external answers of the previous run, read before this run replaces its index:
  // reused while younger than --cache-max-age, so a pull request's check asks no site
  // again what yesterday's asked.
  const previous = await previousVerdicts(index.path, { now: Date.now(), maxAgeMs: cacheMaxAgeMs }, (message) => context.err.writeLine(`linkladder: warning: ${message}`));

  let files: FileFetcher | undefined;
  const indexFiles = options.indexFile ?? ['index.html', 'index.htm'];
  const local = new LocalPages(plan, changed, context.cwd, indexFiles);
  let summary: CrawlSummary | undefined;
  try {
    const run = await runCrawl(
      {
        seeds: [...plan.urls, ...plan.seeds],
        dbPath: index.partialPath,
        userAgent: settings.userAgent,
        isJson: false,
        tuning: tuningOf(settings, plan, given),
        isDefaultIndex: false,
        isSummaryOnStderr: true,
        credentials: credentials.credentials,
        clients: (http) => {
          if (plan.roots.length === 0) return http;
          files = createFileFetcher({
            roots: plan.roots,
            indexFiles,
            cleanUrls: options.cleanUrls === true,
            directoryListing: plan.isRepository,
            // Its own view of the HTTP fetcher: runCrawl closes that one, once.
            fallback: { fetch: (url, signal, callOptions) => http.fetcher.fetch(url, signal, callOptions) },
            maxBodyBytes: settings.maxBodyBytes,
          });
          local.fetcher = files;
          return { fetcher: files, robots: localRobots(files, http.robots) };
        },
        runtime: {
          ...(previous === undefined ? {} : { verdictCache: previous }),
          ...(plan.roots.length === 0 ? {} : { scopeRoots: [...plan.roots.map((root) => root.prefix), ...plan.urls.map(originOf)] }),
          ...(local.isSelective ? { isExternalChecked: (page: string) => local.isExternalChecked(page) } : {}),
        },
      },
      context,
    );
    summary = run.summary;
    if (run.exitCode !== EXIT_CODES.OK) {
      await index.discard();
      return run.exitCode;
    }
    await index.commit();
  } catch (error) {
    await index.discard().catch(() => undefined);
    throw error;
  } finally {
    await (files as FileFetcher | undefined)?.close();
  }

  const { findings, pages, links } = await local.report(index.path);
  let worst = -1;
  for (const f of findings) worst = Math.max(worst, SEVERITY_RANK[f.severity]);
  // Links, as the findings count them: a missing fragment makes a link to a page that answered broken.
  const counts = countCheckFindings(findings);
  const fragmentsMissing = findings.filter((f) => f.code === 'LINK_FRAGMENT_MISSING').length;
  const verdicts = { ok: Math.max(0, links.ok - fragmentsMissing), broken: counts.byVerdict.broken, unverified: counts.byVerdict.unverified };
  const shape: Shape = { failOn: options.failOn, pages, verdicts, urlsChecked: urlsChecked(summary) };
  await withOutput(options, context, (out) => writeFindings(out, format, findings, local, shape));
  if (options.summary !== undefined) {
    try {
      await appendFile(path.resolve(context.cwd, options.summary), `${formatCheckMarkdown(findings, { ...shape.verdicts, pages: pages.length, failOn: options.failOn })}\n`);
    } catch (error) {
      await context.err.writeLine(`linkladder: error: cannot write the summary ${options.summary}: ${error instanceof Error ? error.message : String(error)}`);
      return EXIT_CODES.FAILURE;
    }
  }
  // The text report closes with it; the other formats keep stdout to their own shape.
  if (format !== 'text') await context.err.writeLine(checkSummaryLine(countCheckFindings(findings), urlsChecked(summary)));
  return worst >= SEVERITY_RANK[options.failOn] ? EXIT_CODES.INVALID : EXIT_CODES.OK;
}

function collect(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function collectIndexFile(value: string, previous: readonly string[] | undefined): string[] {
  if (value === '' || /[\\/]/.test(value) || value === '.' || value === '..') {
    throw new InvalidArgumentError('expected a file name, without "/" (e.g. index.html).');
  }
  return [...(previous ?? []), value];
}
