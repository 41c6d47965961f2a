// `linkladder check <target...>`: crawl and audit in one command, for CI — a site
// build folder, Markdown or HTML files of a repository, or a live site.

import { existsSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { givenSettings, loadCrawlSettings, settingOptions, type CrawlSettings } from '../../config/index.js';
import { CRAWL_DEFAULTS, isPrivateUrl, parseCacheMaxAge, verdictOfRow, type CrawlSummary, type Verdict } from '../../crawl/index.js';
import { createFileFetcher, localRobots, type FileFetcher } from '../../fetch/index.js';
import {
  audit,
  checkSummaryLine,
  countCheckFindings,
  formatCheckCsv,
  formatCheckGithub,
  formatCheckJson,
  formatCheckJunit,
  formatCheckMarkdown,
  formatCheckSarif,
  formatCheckText,
  SEVERITY_RANK,
  toCheckFinding,
  type AuditFinding,
  type CheckFinding,
  type Severity,
} from '../../report/index.js';
import { AliasEnds, resourceKeyOf } from '../../ladder/index.js';
import { ChangedFilesError, changedFiles } from '../changed-files.js';
import { DEFAULT_CHECK_DB, FreshIndex, previousVerdicts } from '../check-index.js';
import { PAGE_EXTENSIONS, TargetError, planCheck, relativeFile, type CheckPlan } from '../check-targets.js';
import type { CliContext } from '../cli-context.js';
import { EXIT_CODES } from '../exit-codes.js';
import type { LineWriter } from '../line-writer.js';
import { openReader } from '../open-store.js';
import { addOutputOptions, outputFormat, withOutput, type OutputOptions, type OutputOptionsSpec } from '../output-options.js';
import { readPackageVersion } from '../package-version.js';
import { runCrawl, type CrawlTuning } from '../run-crawl.js';

export const CHECK_FORMATS = ['text', 'json', 'csv', 'sarif', 'junit', 'github', 'markdown'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

const OUTPUT: OutputOptionsSpec<CheckFormat> = { formats: CHECK_FORMATS, defaultFormat: 'text' };

export const CHECK_FAIL_ON = ['error', 'warning'] as const satisfies readonly Severity[];

/**
 * Settings of `crawl` that `check` does not take: its index is its own (`--db`
 * with another default, rebuilt each run), its scope is the folders and URLs given,
 * and it reads no sitemap (every file of a folder is a seed already), re-checks
 * nothing (each run is fresh) and keeps to RFC 3986 evidence.
 */
const NOT_CHECK_SETTINGS: ReadonlySet<string> = new Set([
  'db',
  'json',
  'scope',
  'sitemap',
  'maxSitemaps',
  'maxSitemapEntries',
  'contentEvidence',
  'recheck',
  'contentLocationAlias',
]);

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
  // Defaults < config file < LINKLADDER_* variables < the flags given; a bad source throws ERR_CONFIG_INVALID (exit 2).
  const given = givenSettings(command);
  const settings = await loadCrawlSettings({
    configPath: options.config,
    cwd: context.cwd,
    env: context.env,
    flags: given,
    onWarning: (message) => void context.err.writeLine(`linkladder: warning: ${message}`),
  });

  let plan: CheckPlan;
  let changed: Set<string> | undefined;
  try {
    plan = await planCheck(targets, {
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
    await context.err.writeLine(`linkladder: error: nothing to check: no ${[...PAGE_EXTENSIONS].join(', ')} file in ${targets.join(', ')}`);
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

/** Pages in flight at once when a folder is checked (measured on a 2-core machine: 4 → 16 took a 122 MB tree from 14.5 s to 11.2 s; 64 gained nothing more). */
const LOCAL_CONCURRENCY = 16;

/** crawl()'s settings for this check: the folders and URLs given are the scope; no sitemap. */
function tuningOf(settings: CrawlSettings, plan: CheckPlan, given: Partial<CrawlSettings>): CrawlTuning {
  const tuning: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) if (!NOT_CHECK_SETTINGS.has(key) && key !== 'userAgent') tuning[key] = value;
  const isLocal = plan.roots.length > 0;
  return {
    ...(tuning as CrawlTuning),
    sitemap: false,
    scope: isLocal ? 'prefix' : CRAWL_DEFAULTS.scope,
    // A folder's own origin is a name, never connected to: a site URL on a private address is no reason to refuse it.
    allowPrivate: settings.allowPrivate || plan.roots.some((root) => isPrivateUrl(root.prefix)),
    // Files are read many at a time (a disk has no server to spare, and a page parsed on another
    // core overlaps with the main thread's writes); each other host keeps its own limit and delay.
    concurrency: given.concurrency ?? (isLocal ? LOCAL_CONCURRENCY : settings.concurrency),
    // An unverified external link (a timeout, a 503, a 429) is asked once more at the end, politely.
    secondPass: given.secondPass ?? true,
    // Files given by name: the files they link to are read for their anchors, not followed further.
    maxDepth: given.maxDepth === undefined && plan.urls.length === 0 && plan.hasFileTargets && !hasFolders(plan) ? 1 : settings.maxDepth,
  };
}

function hasFolders(plan: CheckPlan): boolean {
  return plan.folders.length > 0;
}

function originOf(url: string): string {
  try {
    return `${new URL(url).origin}/`;
  } catch {
    return url;
  }
}

/** URLs checked, as the crawl's summary counts them by verdict (on stderr): one figure for both. */
function urlsChecked(summary: CrawlSummary | undefined): number | undefined {
  return summary === undefined ? undefined : summary.verdicts.ok + summary.verdicts.broken + summary.verdicts.unverified;
}

/** What the formats need besides the findings. */
interface Shape {
  readonly failOn: (typeof CHECK_FAIL_ON)[number];
  /** Every page checked and shown: its file (relative), or its URL for a live site. */
  readonly pages: readonly string[];
  /** The links of the pages shown, by verdict (a link with a missing fragment is broken). */
  readonly verdicts: Readonly<Record<'ok' | 'broken' | 'unverified', number>>;
  readonly urlsChecked: number | undefined;
}

async function writeFindings(out: LineWriter, format: CheckFormat, findings: readonly CheckFinding[], local: LocalPages, shape: Shape): Promise<void> {
  let lines: AsyncIterable<string> | Iterable<string>;
  const { urlsChecked, failOn } = shape;
  switch (format) {
    case 'text':
      lines = formatCheckText(findings, { targetLabel: (target) => local.targetLabel(target), urlsChecked });
      break;
    case 'json':
      lines = formatCheckJson(findings);
      break;
    case 'csv':
      lines = formatCheckCsv(findings);
      break;
    case 'sarif':
      lines = formatCheckSarif(findings, { toolVersion: readPackageVersion() });
      break;
    case 'junit':
      lines = [formatCheckJunit(findings, { checkedFiles: shape.pages, failOn, toolVersion: readPackageVersion() })];
      break;
    case 'github':
      lines = [formatCheckGithub(findings, { failOn })];
      break;
    case 'markdown':
      lines = [formatCheckMarkdown(findings, { ...shape.verdicts, pages: shape.pages.length, failOn })];
      break;
  }
  // The CI formats come whole, their last line ended.
  for await (const line of lines) await out.writeLine(line.endsWith('\n') ? line.slice(0, -1) : line);
}

/**
 * The local side of a check: which file a page or target is, which findings are
 * shown (the files given; with --changed, what the changed files break), and whose
 * external links are requested.
 */
class LocalPages {
  fetcher: FileFetcher | undefined;
  readonly #plan: CheckPlan;
  readonly #changed: ReadonlySet<string> | undefined;
  readonly #cwd: string;
  readonly #indexFiles: readonly string[];
  /** File paths (absolute) of URLs, as found. */
  readonly #files = new Map<string, string | undefined>();
  /** Keys of the local pages whose external links are requested (selective runs only). */
  readonly #externalPages: Set<string> | undefined;

  constructor(plan: CheckPlan, changed: ReadonlySet<string> | undefined, cwd: string, indexFiles: readonly string[]) {
    this.#plan = plan;
    this.#changed = changed;
    this.#cwd = cwd;
    this.#indexFiles = indexFiles;
    if (changed === undefined && plan.givenFiles === undefined) {
      this.#externalPages = undefined;
      return;
    }
    // Seeds are the files (an index file by its folder's URL): the pages whose external links count.
    this.#externalPages = new Set();
    for (const seed of plan.seeds) {
      const file = this.#seedFile(seed);
      if (file === undefined || !this.#isReported(file)) continue;
      this.#externalPages.add(keyOf(seed));
    }
  }

  /** Whether some pages' external links are left alone. */
  get isSelective(): boolean {
    return this.#externalPages !== undefined;
  }

  isExternalChecked(page: string): boolean {
    if (this.#externalPages === undefined || this.fetcher?.isLocal(page) !== true) return true;
    return this.#externalPages.has(keyOf(page));
  }

  /** A file is reported when it was given (if files were) and changed (with --changed). */
  #isReported(file: string): boolean {
    if (this.#plan.givenFiles !== undefined && !this.#plan.givenFiles.has(file)) return false;
    return this.#changed === undefined || this.#changed.has(file);
  }

  /** The file a seed URL was made from, without asking the disk. */
  #seedFile(seed: string): string | undefined {
    const root = this.#plan.roots.find((r) => seed.startsWith(r.prefix));
    if (root === undefined) return undefined;
    const relative = decodeURIComponent(seed.slice(root.prefix.length));
    const file = path.join(root.dir, ...relative.split('/'));
    if (!relative.endsWith('/') && relative !== '') return file;
    // A folder's URL stands for its index file: the first of them that exists was walked.
    return this.#indexFiles.map((name) => path.join(file, name)).find((candidate) => existsSync(candidate)) ?? path.join(file, this.#indexFiles[0] ?? 'index.html');
  }

  async #fileOf(url: string): Promise<string | undefined> {
    const fetcher = this.fetcher;
    if (fetcher === undefined) return undefined;
    const bare = url.replace(/#.*$/s, '');
    if (this.#files.has(bare)) return this.#files.get(bare);
    let file: string | undefined;
    if (fetcher.isLocal(bare)) file = (await fetcher.fileOf(bare)) ?? fetcher.pathOf(bare);
    this.#files.set(bare, file);
    return file;
  }

  /**
   * The findings of the index at `db`, as check's findings, those to show only; and
   * the pages checked that are shown (files relative to the working directory, else URLs).
   */
  async report(db: string): Promise<{ readonly findings: CheckFinding[]; readonly pages: string[]; readonly links: Record<Verdict, number> }> {
    const reader = await openReader(db);
    const raw = [];
    const pageUrls: { readonly id: number; readonly key: string }[] = [];
    const verdictById = new Map<number, Verdict>();
    const aliasOf = new Map<number, number>();
    const links: Record<Verdict, number> = { ok: 0, broken: 0, unverified: 0 };
    try {
      for await (const f of audit(reader)) raw.push(f);
      for await (const url of reader.urls()) {
        if (url.aliasOf !== undefined) aliasOf.set(url.id, url.aliasOf);
        if (url.lastFetch !== undefined) verdictById.set(url.id, verdictOfRow(url.lastFetch, url.role));
        if (url.role === 'page' && url.state === 'done' && url.lastFetch !== undefined && isPageType(url.lastFetch.contentType)) pageUrls.push(url);
      }
      const shownPages = new Set<number>();
      for (const { id, key } of pageUrls) {
        const file = await this.#fileOf(key);
        if (file === undefined || this.#isShown(file, undefined)) shownPages.add(id);
      }
      // The links of the pages shown, by the verdict on their target (after its aliases,
      // RFC 3986 §6.2.4, a cycle named by its least member as everywhere): what was checked.
      const ends = new AliasEnds<number>((id) => aliasOf.get(id));
      for await (const link of reader.links()) {
        if (!shownPages.has(link.fromUrlId)) continue;
        const id = link.toUrlId === undefined ? undefined : ends.endOf(link.toUrlId);
        const verdict = id === undefined ? undefined : verdictById.get(id);
        if (verdict !== undefined) links[verdict]++;
      }
    } finally {
      await reader.close();
    }
    const pages: string[] = [];
    for (const { key } of pageUrls) {
      const file = await this.#fileOf(key);
      if (file === undefined) pages.push(key);
      else if (this.#isShown(file, undefined) && !pages.includes(relativeFile(this.#cwd, file))) pages.push(relativeFile(this.#cwd, file));
    }
    for (const f of raw) {
      if (f.page !== undefined) await this.#fileOf(f.page);
      if (f.target !== undefined) await this.#fileOf(f.target);
    }
    const shown: CheckFinding[] = [];
    // A file read under two URLs (`a.html?x=1` and `a.html`, both spellings of an index file read at
    // once) gives its findings twice: one finding per place in the file.
    const places = new Set<string>();
    for (const f of raw) {
      const pageFile = f.page === undefined ? undefined : this.#files.get(f.page.replace(/#.*$/s, ''));
      if (pageFile !== undefined && this.#isRepeated(f.code, f.page!, pageFile)) continue;
      if (this.#isFolderLink(f)) continue;
      const finding = toCheckFinding(f, () => (pageFile === undefined ? undefined : relativeFile(this.#cwd, pageFile)));
      const place = pageFile === undefined ? undefined : JSON.stringify([f.code, pageFile, f.line, f.column, f.rawHref, f.target]);
      if (place !== undefined && places.has(place)) continue;
      if (place !== undefined) places.add(place);
      if (this.#isShown(pageFile, f.target)) shown.push(finding);
    }
    return { findings: shown, pages, links };
  }

  /**
   * Findings that say nothing about the links: a file of a folder read again under
   * a --map URL (its findings were given under the folder's URL), and files alike
   * (clean URLs, alias pages a generator writes, a mapped copy).
   */
  #isRepeated(code: string, page: string, pageFile: string): boolean {
    if (code === 'DUPLICATE_REPRESENTATION') return true;
    const root = this.#plan.roots.find((r) => page.startsWith(r.prefix));
    return root !== undefined && this.#plan.mapPrefixes.has(root.prefix) && this.#plan.folders.some((dir) => pageFile.startsWith(dir + path.sep));
  }

  /**
   * In a repository a link to a folder without its slash (`[src](src)`) is how one
   * writes it, and a code host shows the folder: the slash redirect a web server
   * answers is no finding there.
   */
  #isFolderLink(f: AuditFinding): boolean {
    if (!this.#plan.isRepository || f.code !== 'LINK_REDIRECT' || f.target === undefined) return false;
    const bare = f.target.replace(/#.*$/s, '');
    return f.detail['finalUrl'] === `${bare}/` && this.fetcher?.isLocal(bare) === true;
  }

  #isShown(pageFile: string | undefined, target: string | undefined): boolean {
    const isFiltered = this.#plan.givenFiles !== undefined || this.#changed !== undefined;
    if (!isFiltered || pageFile === undefined) return true;
    if (this.#isReported(pageFile)) return true;
    // A link from another file into a changed one: what the change broke elsewhere.
    if (this.#changed === undefined || target === undefined) return false;
    const targetFile = this.#files.get(target.replace(/#.*$/s, ''));
    const changed = this.#changed;
    return targetFile !== undefined && (changed.has(targetFile) || this.#indexFiles.some((name) => changed.has(path.join(targetFile, name))));
  }

  /** A local target as its file (relative, with its fragment); `undefined` for other targets. */
  targetLabel(target: string): string | undefined {
    const bare = target.replace(/#.*$/s, '');
    const file = this.#files.get(bare);
    if (file === undefined) return undefined;
    const hash = target.indexOf('#');
    // A folder named with its slash, without an index file to stand for it.
    const slash = bare.endsWith('/') && !PAGE_EXTENSIONS.has(path.extname(file).toLowerCase()) ? '/' : '';
    return relativeFile(this.#cwd, file) + slash + (hash === -1 ? '' : target.slice(hash));
  }
}

/** The media types of pages: what check reads links from. */
function isPageType(contentType: string | undefined): boolean {
  return contentType === 'text/html' || contentType === 'application/xhtml+xml' || contentType === 'text/markdown';
}

function keyOf(url: string): string {
  return resourceKeyOf(url) ?? url;
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
