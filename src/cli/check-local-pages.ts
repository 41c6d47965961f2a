// The local side of `check`: which file each page and target is, and which
// findings and external links concern the files given (or changed).

import { existsSync } from 'node:fs';
import path from 'node:path';
import { verdictOfRow, type Verdict } from '../crawl/index.js';
import { isHtmlMediaType, isMarkdownMediaType, type FileFetcher } from '../fetch/index.js';
import { AliasEnds, resourceKeyOf } from '../ladder/index.js';
import { audit, toCheckFinding, type AuditFinding, type CheckFinding } from '../report/index.js';
import { PAGE_EXTENSIONS, relativeFile, type CheckPlan } from './check-targets.js';
import { openReader } from './open-store.js';

/**
 * The local side of a check: which file a page or target is, which findings are
 * shown (the files given; with --changed, what the changed files break), and whose
 * external links are requested.
 */
export class LocalPages {
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
        if (url.role === 'page' && url.state === 'done' && url.lastFetch !== undefined && isReadPage(url.lastFetch)) pageUrls.push(url);
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

/**
 * A page whose links were read: a 2xx of a media type the crawl reads links from (HTML
 * and Markdown, as the fetcher decodes them). A 404 page is a broken target, not a page checked.
 */
function isReadPage({ status, contentType }: { readonly status?: number | undefined; readonly contentType?: string | undefined }): boolean {
  return status !== undefined && status >= 200 && status < 300 && (isHtmlMediaType(contentType) || isMarkdownMediaType(contentType));
}

function keyOf(url: string): string {
  return resourceKeyOf(url) ?? url;
}
