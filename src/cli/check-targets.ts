// What `linkladder check` was given, made into a crawl: http(s) URLs are seeds as
// `crawl` takes them; a folder is a site build published at a local origin (or at
// `--site-url`), every HTML and Markdown file in it a seed (orphans included: a
// folder check checks every file); files and globs are Markdown or HTML of a
// repository, read under one root (the working directory, or `--root`).

import type { Dirent } from 'node:fs';
import { opendir, stat } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import type { FileRoot } from '../fetch/index.js';

/** The extensions of the pages a check reads for links. */
export const PAGE_EXTENSIONS: ReadonlySet<string> = new Set(['.html', '.htm', '.md', '.markdown']);

/**
 * The origins of folders with no `--site-url`: `.invalid` never resolves (RFC 6761
 * §6.4), so no request for one can leave the machine, and none names a real site.
 */
export function localOrigin(n: number): string {
  return n === 0 ? 'http://site.invalid/' : `http://site${n + 1}.invalid/`;
}

/** The origin of the files and globs given, under their root. */
export const FILES_ORIGIN = 'http://files.invalid/';

/** Directories never walked: version control, dependencies, and hidden ones (`.cache`, `.github` …). */
function isSkippedDirectory(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** A walk stops at this many files found; the rest is said in a warning, not read. */
export const MAX_WALKED_FILES = 1_000_000;

export interface CheckTargetOptions {
  readonly cwd: string;
  /** `--site-url`: where the (one) folder is published. */
  readonly siteUrl?: string | undefined;
  /** `--root`: the folder the files and globs are read under. @default cwd */
  readonly root?: string | undefined;
  /** `--map prefix=dir`. */
  readonly maps?: readonly string[] | undefined;
  /** `--index-file`. */
  readonly indexFiles: readonly string[];
}

export interface CheckPlan {
  /** http(s) targets, crawled as `crawl` does. */
  readonly urls: readonly string[];
  /** The folders answered from disk, longest prefix first. */
  readonly roots: readonly FileRoot[];
  /** The URLs of the local pages to read first (every file of a folder, each file given). */
  readonly seeds: readonly string[];
  /** Files given by name or glob (absolute): only their findings are shown; `undefined` when none was. */
  readonly givenFiles: ReadonlySet<string> | undefined;
  /** Whether files (not only folders) were given. */
  readonly hasFileTargets: boolean;
  /**
   * Whether the pages are a repository's (files given, or folders of Markdown only):
   * a folder there is a page, as a code host shows it, where a site build answers 404.
   */
  readonly isRepository: boolean;
  /** The prefixes of `--map` roots. */
  readonly mapPrefixes: ReadonlySet<string>;
  /** The folders given (absolute). */
  readonly folders: readonly string[];
  /** Warnings to print (a walk cut short). */
  readonly warnings: readonly string[];
}

/** A target that cannot be checked, or options that contradict: one usage line. */
export class TargetError extends Error {
  override readonly name = 'TargetError';
}

/** Turn the targets into roots and seeds; throws `TargetError`. */
export async function planCheck(targets: readonly string[], options: CheckTargetOptions): Promise<CheckPlan> {
  const urls: string[] = [];
  const folders: string[] = [];
  const files = new Set<string>();
  for (const target of targets) {
    if (/^https?:\/\//i.test(target)) {
      urls.push(target);
      continue;
    }
    if (/^[a-z][a-z0-9+.-]+:/i.test(target) && !/^[a-z]:[\\/]/i.test(target)) {
      throw new TargetError(`${target}: only http and https URLs, folders and .html/.htm/.md/.markdown files can be checked`);
    }
    const absolute = path.resolve(options.cwd, target);
    const stats = await stat(absolute).catch(() => undefined);
    if (stats?.isDirectory() === true) folders.push(absolute);
    else if (stats?.isFile() === true) {
      if (!isPage(absolute)) throw new TargetError(`${target}: not an .html, .htm, .md or .markdown file`);
      files.add(absolute);
    } else if (stats !== undefined) {
      throw new TargetError(`${target}: not a regular file or a folder`);
    } else if (/[*?[\]{}]/.test(target)) {
      const matched = await expandGlob(target, options.cwd);
      if (matched.length === 0) throw new TargetError(`${target}: the pattern matches no .html, .htm, .md or .markdown file`);
      for (const file of matched) files.add(file);
    } else {
      throw new TargetError(`${target}: no such file or folder (a target is a folder, an .html/.md file, a glob or an http(s) URL)`);
    }
  }
  if (options.siteUrl !== undefined && folders.length !== 1) {
    throw new TargetError(`--site-url names where one folder is published; ${folders.length === 0 ? 'no folder was given' : `${folders.length} folders were given`}`);
  }
  const roots: FileRoot[] = [];
  const seeds: string[] = [];
  const warnings: string[] = [];
  let hasHtml = false;
  for (const [i, dir] of folders.entries()) {
    const prefix = options.siteUrl === undefined ? localOrigin(i) : folderUrl(options.siteUrl, '--site-url');
    roots.push({ prefix, dir });
    const walked = await walkPages(dir);
    if (walked.isCut) warnings.push(`${dir}: more than ${MAX_WALKED_FILES} files; the rest are not checked`);
    for (const file of walked.files) {
      seeds.push(pageUrl(prefix, dir, file, options.indexFiles));
      if (!isMarkdown(file)) hasHtml = true;
    }
  }
  if (files.size > 0) {
    const dir = path.resolve(options.cwd, options.root ?? '.');
    const rootStats = await stat(dir).catch(() => undefined);
    if (rootStats?.isDirectory() !== true) throw new TargetError(`--root ${options.root ?? '.'}: not a folder`);
    for (const file of files) {
      if (!isInside(file, dir)) throw new TargetError(`${path.relative(options.cwd, file)}: outside the root ${dir} (give --root)`);
      seeds.push(pageUrl(FILES_ORIGIN, dir, file, []));
    }
    roots.push({ prefix: FILES_ORIGIN, dir });
  }
  const mapPrefixes = new Set<string>();
  for (const map of options.maps ?? []) {
    const root = await mapRoot(map, options.cwd);
    roots.push(root);
    mapPrefixes.add(root.prefix);
  }
  const byPrefix = new Map<string, FileRoot>();
  for (const root of roots) {
    if (byPrefix.has(root.prefix)) throw new TargetError(`${root.prefix} is the URL of two folders`);
    byPrefix.set(root.prefix, root);
  }
  return {
    urls,
    roots: [...roots].sort((a, b) => b.prefix.length - a.prefix.length),
    seeds: [...new Set(seeds)],
    givenFiles: files.size === 0 ? undefined : files,
    hasFileTargets: files.size > 0,
    isRepository: files.size > 0 || (folders.length > 0 && !hasHtml),
    mapPrefixes,
    folders,
    warnings,
  };
}

function isPage(file: string): boolean {
  return PAGE_EXTENSIONS.has(path.extname(file).toLowerCase());
}

function isMarkdown(file: string): boolean {
  const extension = path.extname(file).toLowerCase();
  return extension === '.md' || extension === '.markdown';
}

function isInside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** A quoted glob, expanded as a shell would not: pages only, hidden and dependency folders left out. */
async function expandGlob(pattern: string, cwd: string): Promise<string[]> {
  const matched = await glob(pattern.replaceAll('\\', '/'), {
    cwd,
    absolute: true,
    onlyFiles: true,
    dot: false,
    followSymbolicLinks: false,
    ignore: ['**/node_modules/**', '**/.git/**'],
    expandDirectories: false,
  });
  const pages: string[] = [];
  for (const file of matched.sort()) {
    if (!isPage(file)) continue;
    // A FIFO or a device named like a page is no page: reading it would wait for ever.
    if ((await stat(file).catch(() => undefined))?.isFile() === true) pages.push(path.normalize(file));
  }
  return pages;
}

/**
 * Every page file under `dir`, in a stable order. Symbolic links to directories are
 * not followed (a loop would never end, and a link out of the folder is not the
 * site's); a link to a regular file is read as the file. FIFOs, sockets and
 * devices are left out: reading one would block.
 */
async function walkPages(dir: string): Promise<{ files: string[]; isCut: boolean }> {
  const files: string[] = [];
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let handle;
    try {
      handle = await opendir(current);
    } catch {
      continue; // unreadable: its links into it answer for themselves
    }
    const entries: Dirent[] = [];
    for await (const entry of handle) entries.push(entry);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!isSkippedDirectory(entry.name)) pending.push(full);
      } else if (isPage(entry.name)) {
        if (entry.isFile() || (entry.isSymbolicLink() && (await stat(full).catch(() => undefined))?.isFile() === true)) {
          files.push(full);
          if (files.length >= MAX_WALKED_FILES) return { files, isCut: true };
        }
      }
    }
  }
  return { files: files.sort(), isCut: false };
}

/** The URL of `file` under a root; an index file is seeded by its directory's URL (read once, as the directory). */
export function pageUrl(prefix: string, dir: string, file: string, indexFiles: readonly string[]): string {
  const segments = path.relative(dir, file).split(path.sep);
  if (indexFiles.includes(segments.at(-1)!)) segments[segments.length - 1] = '';
  return prefix + segments.map(encodeSegment).join('/');
}

/**
 * A file name as a path segment (RFC 3986 §3.3 `pchar`): what a segment may hold
 * as it is stays so (sub-delims, ":", "@"), so that the seed is the URL its links write.
 */
function encodeSegment(name: string): string {
  return encodeURIComponent(name).replace(/%(?:24|26|2B|2C|3B|3D|3A|40)/g, (escape) => decodeURIComponent(escape));
}

/** `url` as a folder's URL: absolute http(s), no query or fragment, ending in "/". */
function folderUrl(url: string, flag: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetError(`${flag} ${url}: not an absolute http(s) URL`);
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.search !== '' || parsed.hash !== '' || parsed.username !== '') {
    throw new TargetError(`${flag} ${url}: expected an http(s) URL without query, fragment or user`);
  }
  return parsed.href.endsWith('/') ? parsed.href : `${parsed.href}/`;
}

/** `--map <prefix>=<dir>`: production URLs under prefix are checked against files under dir. */
async function mapRoot(map: string, cwd: string): Promise<FileRoot> {
  const at = map.indexOf('=', map.indexOf('://') + 3);
  if (!/^https?:\/\//i.test(map) || at <= 0) throw new TargetError(`--map ${map}: expected <URL prefix>=<folder>, e.g. https://example.com/=./public`);
  const prefix = folderUrl(map.slice(0, at), '--map');
  const dir = path.resolve(cwd, map.slice(at + 1));
  const stats = await stat(dir).catch(() => undefined);
  if (stats?.isDirectory() !== true) throw new TargetError(`--map ${map}: ${map.slice(at + 1)} is not a folder`);
  return { prefix, dir };
}

/** `file` relative to `cwd` with "/" separators, as findings name it; absolute when it lies outside `cwd`. */
export function relativeFile(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  // Outside the working directory (a Debian doc tree checked from elsewhere), "../../../usr/…" says less than the path itself.
  const shown = relative === '..' || relative.startsWith(`..${path.sep}`) ? file : relative;
  return shown.split(path.sep).join('/');
}
