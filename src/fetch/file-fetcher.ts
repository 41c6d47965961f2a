// A Fetcher over folders: the URLs under a root (`https://example.com/docs/` ⇄
// `./public/`) are answered from disk as a static web server would answer them,
// never served, no port. The crawl cannot tell a file from an HTTP response, so
// the base chain, the ladder, the index and the audit work on a build folder as
// they do on a live site, and a file is read once however its links spell it.
//
// What a static server does, done here: a directory URL means its index file; a
// directory named without its trailing slash answers a 301 to the slash form (so
// the page's base, RFC 3986 §5.1.3, is the directory); a missing file is a 404.
// An index file's answer names its own URL in Content-Location, so the crawl knows
// `dir/` and `dir/index.html` are one file: seed a folder's index files by their
// directory URL, so that the directory is read first and its index file never again.
// `fileOf` is async (it asks the disk); `pathOf` maps without asking.

import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import type { FetchErrorCode } from '../errors.js';
import { percentDecodeUtf8 } from '../uri/index.js';
import { decodeCss, decodeHtml, decodeUtf8 } from './decode-body.js';
import { toRequestTarget } from './request-target.js';
import type {
  FetchCallOptions,
  FetchHop,
  FetchedResponse,
  Fetcher,
  HttpMethod,
  RobotsCallOptions,
  RobotsPolicy,
} from './types.js';

/** One folder and the URL it is published at. */
export interface FileRoot {
  /** An absolute http(s) URL ending in `/`: the URL of the folder. */
  readonly prefix: string;
  /** The folder, an absolute path. */
  readonly dir: string;
}

export interface FileFetcherOptions {
  /** The folders answered from disk; a URL under several takes the longest prefix. */
  readonly roots: readonly FileRoot[];
  /**
   * What a directory URL means, in order.
   * @default ['index.html', 'index.htm']
   */
  readonly indexFiles?: readonly string[];
  /**
   * `/about` may mean `about.html` (and `about.htm`) when no file or directory
   * `about` exists, as static hosts with "clean URLs" serve it.
   * @default false
   */
  readonly cleanUrls?: boolean;
  /**
   * A directory with no index file answers 200 (a repository's folder, as a code host
   * shows it) instead of 404 (what a web server answers for a site build).
   * @default false
   */
  readonly directoryListing?: boolean;
  /**
   * Answers the URLs under no root (external links).
   * @default undefined (they end with `ERR_FETCH_NO_ROOT`)
   */
  readonly fallback?: Fetcher | undefined;
  /**
   * Bytes of a file read at most: past it the body is cut there (`ERR_FETCH_BODY_TOO_LARGE`),
   * as an HTTP body past the fetcher's cap is.
   * @default 10 MiB
   */
  readonly maxBodyBytes?: number;
  /**
   * The longest chain of directory redirects followed (`/a` → `/a/`): one at most in practice.
   * @default 10
   */
  readonly maxRedirects?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

/** A Fetcher answering the URLs under its roots from disk. */
export interface FileFetcher extends Fetcher {
  /** Nothing to release (files are closed as they are read); the fallback is not closed: it is its creator's. */
  close(): Promise<void>;
  /** Whether `url` is under one of the roots (answered from disk). */
  isLocal(url: string): boolean;
  /**
   * The file `url` is read from (index file, clean URL applied), as an absolute path;
   * `undefined` when `url` is under no root or names nothing on disk.
   */
  fileOf(url: string): Promise<string | undefined>;
  /**
   * The path `url` names under its root, without asking the disk (no index file
   * added): `undefined` when `url` is under no root or cannot name a file.
   */
  pathOf(url: string): string | undefined;
  /** What the disk was asked so far: answers given (a request each) and body bytes read. */
  readonly reads: { readonly files: number; readonly bytes: number };
}

export const FILE_FETCHER_DEFAULTS = Object.freeze({
  indexFiles: Object.freeze(['index.html', 'index.htm']) as readonly string[],
  cleanUrls: false,
  directoryListing: false,
  maxBodyBytes: 10 * 1024 * 1024,
  maxRedirects: 10,
});

/** The media type a file is answered with, by its extension (lower-cased); others are `application/octet-stream`. */
export const FILE_MEDIA_TYPES: Readonly<Record<string, string>> = Object.freeze({
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xhtml': 'application/xhtml+xml',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
});

/** The media types whose body is read and decoded (what the crawl parses). */
const READ_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml', 'text/markdown', 'text/css']);

interface ValidRoot {
  readonly prefix: string;
  readonly dir: string;
}

/** Where a URL leads on disk. */
type Located =
  | { readonly kind: 'file'; readonly path: string; readonly stats: Stats; readonly contentLocation?: string }
  | { readonly kind: 'listing'; readonly path: string }
  | { readonly kind: 'redirect'; readonly to: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'error'; readonly code: FetchErrorCode };

/** Create a fetcher over folders. Throws `TypeError` for roots that are not absolute URL prefixes with folders. */
export function createFileFetcher(options: FileFetcherOptions): FileFetcher {
  const roots = validRoots(options.roots);
  const indexFiles = options.indexFiles ?? FILE_FETCHER_DEFAULTS.indexFiles;
  const cleanUrls = options.cleanUrls ?? FILE_FETCHER_DEFAULTS.cleanUrls;
  const directoryListing = options.directoryListing ?? FILE_FETCHER_DEFAULTS.directoryListing;
  const maxBodyBytes = options.maxBodyBytes ?? FILE_FETCHER_DEFAULTS.maxBodyBytes;
  const maxRedirects = options.maxRedirects ?? FILE_FETCHER_DEFAULTS.maxRedirects;
  const now = options.now ?? Date.now;
  const fallback = options.fallback;
  const reads = { files: 0, bytes: 0 };

  /** The root of `url` and the decoded path segments under it; `undefined` outside the roots or for a path no file can have. */
  const place = (url: string): { readonly root: ValidRoot; readonly segments: readonly string[]; readonly query: string } | 'outside' | 'invalid' => {
    const target = toRequestTarget(url);
    if (!target.ok) return 'outside';
    const { origin, path } = target.target;
    const queryAt = path.indexOf('?');
    const pathOnly = queryAt === -1 ? path : path.slice(0, queryAt);
    const full = origin + pathOnly;
    const root = roots.find((r) => full.startsWith(r.prefix) || `${full}/` === r.prefix);
    if (root === undefined) return 'outside';
    const rest = full.length < root.prefix.length ? '' : full.slice(root.prefix.length);
    const segments: string[] = [];
    for (const raw of rest.split('/')) {
      const decoded = percentDecodeUtf8(raw);
      // A name no file has: an encoded "/" or NUL, or a dot segment spelled with %2E (RFC 3986 §5.2.4 removed the others).
      if (decoded === undefined || decoded.includes('/') || decoded.includes('\0') || decoded === '.' || decoded === '..') return 'invalid';
      if (sep !== '/' && decoded.includes(sep)) return 'invalid';
      segments.push(decoded);
    }
    return { root, segments, query: queryAt === -1 ? '' : path.slice(queryAt) };
  };

  const locate = async (url: string): Promise<Located> => {
    const where = place(url);
    if (where === 'outside') return { kind: 'error', code: 'ERR_FETCH_NO_ROOT' };
    if (where === 'invalid') return { kind: 'missing' };
    const { root, segments } = where;
    const isDirectoryUrl = segments.length === 0 || segments.at(-1) === '';
    const path = join(root.dir, ...segments);
    const found = await statOf(path);
    if (found === 'error') return { kind: 'error', code: 'ERR_FETCH_FILE_UNREADABLE' };
    if (found !== undefined && found.isDirectory()) {
      // The slash form, as a web server answers it (nginx, Apache: 301), so that the page's base is the directory.
      if (!isDirectoryUrl) return { kind: 'redirect', to: directoryUrl(url) };
      for (const name of indexFiles) {
        const index = await statOf(join(path, name));
        if (index === 'error') return { kind: 'error', code: 'ERR_FETCH_FILE_UNREADABLE' };
        if (index !== undefined && !index.isDirectory()) return fileOrError(join(path, name), index, encodeURIComponent(name));
      }
      return directoryListing ? { kind: 'listing', path } : { kind: 'missing' };
    }
    if (found !== undefined) return fileOrError(path, found, await directoryOfIndex(path, segments.at(-1)!));
    if (cleanUrls && !isDirectoryUrl) {
      for (const extension of ['.html', '.htm']) {
        const clean = await statOf(path + extension);
        if (clean === 'error') return { kind: 'error', code: 'ERR_FETCH_FILE_UNREADABLE' };
        if (clean !== undefined && !clean.isDirectory()) return fileOrError(path + extension, clean);
      }
    }
    return { kind: 'missing' };
  };

  /** `./` when the file named `name` at `path` is what its directory's URL answers (its first index file present). */
  const directoryOfIndex = async (path: string, name: string): Promise<string | undefined> => {
    const at = indexFiles.indexOf(name);
    if (at === -1) return undefined;
    for (const earlier of indexFiles.slice(0, at)) {
      const other = await statOf(join(path, '..', earlier));
      if (other !== undefined && other !== 'error' && !other.isDirectory()) return undefined;
    }
    return './';
  };

  const answer = async (url: string, method: HttpMethod, signal: AbortSignal | undefined, options: FetchCallOptions | undefined): Promise<FetchedResponse> => {
    const startedAt = now();
    const hops: FetchHop[] = [];
    const seen = new Set<string>();
    let current = url;
    for (let hop = 0; ; hop++) {
      if (signal?.aborted === true) return failed(url, current, hops, startedAt, now, method, 'ERR_FETCH_ABORTED');
      options?.onRequest?.({ url: current, kind: hop === 0 ? 'page' : 'redirect' });
      reads.files++;
      seen.add(current);
      const located = await locate(current);
      if (located.kind === 'error') return failed(url, current, hops, startedAt, now, method, located.code);
      if (located.kind === 'missing') return respond(url, current, hops, startedAt, now, method, 404, {}, undefined);
      if (located.kind === 'listing') return respond(url, current, hops, startedAt, now, method, 200, { 'content-type': 'text/html' }, undefined);
      if (located.kind === 'redirect') {
        hops.push({ from: current, to: located.to, status: 301 });
        const headers = { location: located.to };
        if (seen.has(located.to)) return failed(url, current, hops, startedAt, now, method, 'ERR_FETCH_REDIRECT_LOOP', 301, headers);
        if (hop >= maxRedirects) return failed(url, current, hops, startedAt, now, method, 'ERR_FETCH_TOO_MANY_REDIRECTS', 301, headers);
        let decision: unknown;
        try {
          decision = options?.beforeRedirect === undefined ? 'follow' : await options.beforeRedirect({ from: current, to: located.to, status: 301, hopIndex: hop });
        } catch {
          decision = undefined;
        }
        if (decision === 'stop') return { ...respond(url, current, hops, startedAt, now, method, 301, headers, undefined), redirectStopped: true };
        if (decision !== 'follow') {
          return { ...failed(url, current, hops, startedAt, now, method, 'ERR_FETCH_REDIRECT_HOOK_FAILED', 301, headers), redirectStopped: true };
        }
        current = located.to;
        continue;
      }
      return readFile(url, current, hops, startedAt, located, method, options, signal);
    }
  };

  const readFile = async (
    url: string,
    finalUrl: string,
    hops: readonly FetchHop[],
    startedAt: number,
    { path, stats, contentLocation }: Extract<Located, { kind: 'file' }>,
    method: HttpMethod,
    options: FetchCallOptions | undefined,
    signal: AbortSignal | undefined,
  ): Promise<FetchedResponse> => {
    const contentType = FILE_MEDIA_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
    const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
    const headers: Record<string, string> = {
      'content-type': contentType,
      'content-length': String(stats.size),
      'last-modified': stats.mtime.toUTCString(),
      etag,
      // RFC 9110 §8.7: a directory's representation is its index file's, and the index file's is the
      // directory's. The crawl learns from either that `dir/` and `dir/index.html` are one resource
      // (RFC 3986 §6.2.4), whichever it reads first.
      ...(contentLocation === undefined ? {} : { 'content-location': contentLocation }),
    };
    // RFC 9110 §13.1.2: the file has not changed since the validator was given.
    if (options?.validators?.etag === etag && hops.length === 0) return respond(url, finalUrl, hops, startedAt, now, method, 304, headers, undefined);
    const isRead = method === 'GET' && (options?.read === 'bytes' || READ_TYPES.has(contentType));
    if (!isRead) return respond(url, finalUrl, hops, startedAt, now, method, 200, headers, undefined);
    const bytes = await readCapped(path, maxBodyBytes);
    if (bytes === 'error') return failed(url, finalUrl, hops, startedAt, now, method, 'ERR_FETCH_FILE_UNREADABLE');
    if (bytes === 'not-regular') return failed(url, finalUrl, hops, startedAt, now, method, 'ERR_FETCH_FILE_NOT_REGULAR');
    if (signal?.aborted === true) return failed(url, finalUrl, hops, startedAt, now, method, 'ERR_FETCH_ABORTED');
    reads.bytes += bytes.data.length;
    const errorCode = bytes.isCut ? 'ERR_FETCH_BODY_TOO_LARGE' : undefined;
    if (options?.read === 'bytes') return { ...respond(url, finalUrl, hops, startedAt, now, method, 200, headers, undefined, bytes.data.length, errorCode), data: bytes.data };
    const decoded = contentType === 'text/css' ? decodeCss(bytes.data, undefined) : contentType === 'text/markdown' ? decodeUtf8(bytes.data) : decodeHtml(bytes.data, undefined);
    return {
      ...respond(url, finalUrl, hops, startedAt, now, method, 200, headers, decoded.text, bytes.data.length, errorCode),
      charset: decoded.charset,
    };
  };

  const isLocal = (url: string): boolean => place(url) !== 'outside';

  return Object.freeze({
    fetch: async (url: string, signal?: AbortSignal, options?: FetchCallOptions): Promise<FetchedResponse> => {
      const method = options?.method ?? 'GET';
      if (!isLocal(url)) {
        if (fallback !== undefined) return fallback.fetch(url, signal, options);
        const startedAt = now();
        return failed(url, url, [], startedAt, now, method, 'ERR_FETCH_NO_ROOT');
      }
      try {
        return await answer(url, method, signal, options);
      } catch {
        // fs failed in a way statOf/readCapped did not foresee: the file's error, never a throw.
        const startedAt = now();
        return failed(url, url, [], startedAt, now, method, 'ERR_FETCH_FILE_UNREADABLE');
      }
    },
    // The fallback is its creator's to close (the crawl's HTTP fetcher is closed where it was made).
    close: async () => undefined,
    isLocal,
    pathOf: (url: string) => {
      const where = place(url);
      return typeof where === 'string' ? undefined : join(where.root.dir, ...where.segments);
    },
    fileOf: async (url: string) => {
      const located = await locate(url).catch(() => undefined);
      return located?.kind === 'file' ? located.path : located?.kind === 'listing' ? located.path : undefined;
    },
    reads,
  });
}

/**
 * robots.txt for a crawl over folders: a local URL is allowed without a request (a
 * folder has no robots.txt to ask: it is the user's own); others are asked of `inner`.
 */
export function localRobots(fetcher: Pick<FileFetcher, 'isLocal'>, inner: RobotsPolicy | undefined): RobotsPolicy | undefined {
  if (inner === undefined) return undefined;
  return Object.freeze({
    isAllowed: (url: string, options?: RobotsCallOptions) => (fetcher.isLocal(url) ? Promise.resolve(true) : inner.isAllowed(url, options)),
    crawlDelayMs: (url: string) => (fetcher.isLocal(url) ? undefined : inner.crawlDelayMs(url)),
    robotsFile: (url: string) => (fetcher.isLocal(url) ? undefined : inner.robotsFile?.(url)),
  });
}

function validRoots(roots: readonly FileRoot[]): readonly ValidRoot[] {
  if (!Array.isArray(roots) || roots.length === 0) throw new TypeError('Expected `roots` to be a non-empty array of { prefix, dir }');
  const valid = roots.map((root) => {
    const target = toRequestTarget(root.prefix);
    if (!target.ok || !root.prefix.endsWith('/')) throw new TypeError(`Expected a root prefix to be an absolute http(s) URL ending in "/", got ${JSON.stringify(root.prefix)}`);
    if (typeof root.dir !== 'string' || !root.dir.startsWith('/')) throw new TypeError(`Expected a root dir to be an absolute path, got ${JSON.stringify(root.dir)}`);
    const { origin, path } = target.target;
    return { prefix: origin + path.replace(/\?.*$/, ''), dir: root.dir };
  });
  // The longest prefix wins.
  return Object.freeze(valid.sort((a, b) => b.prefix.length - a.prefix.length));
}

/** `url` with a `/` after its path (before its query, its fragment dropped). */
function directoryUrl(url: string): string {
  const hash = url.indexOf('#');
  const withoutFragment = hash === -1 ? url : url.slice(0, hash);
  const question = withoutFragment.indexOf('?');
  return question === -1 ? `${withoutFragment}/` : `${withoutFragment.slice(0, question)}/${withoutFragment.slice(question)}`;
}

/** The stats of `path` (symlinks followed); `undefined` when nothing is there; `'error'` when it cannot be told. */
async function statOf(path: string): Promise<Stats | undefined | 'error'> {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // Nothing there, or a path through a file (a/b where a is a file), or a name too long to exist.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG') return undefined;
    return 'error';
  }
}

function fileOrError(path: string, stats: Stats, contentLocation?: string): Located {
  // A FIFO would block a read until a writer comes; a device may never end.
  if (!stats.isFile()) return { kind: 'error', code: 'ERR_FETCH_FILE_NOT_REGULAR' };
  return contentLocation === undefined ? { kind: 'file', path, stats } : { kind: 'file', path, stats, contentLocation };
}

/**
 * At most `cap` bytes of the file; opened without blocking and checked again once
 * open, so that a FIFO put in its place after the stat does not hang the read.
 */
async function readCapped(path: string, cap: number): Promise<{ readonly data: Uint8Array; readonly isCut: boolean } | 'error' | 'not-regular'> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return 'error';
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return 'not-regular';
    const size = Math.min(stats.size, cap);
    const data = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(data, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return { data: at === size ? data : data.subarray(0, at), isCut: stats.size > cap };
  } catch {
    return 'error';
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function respond(
  url: string,
  finalUrl: string,
  hops: readonly FetchHop[],
  startedAt: number,
  now: () => number,
  method: HttpMethod,
  status: number | undefined,
  headers: Readonly<Record<string, string>>,
  body: string | undefined,
  bytes = 0,
  errorCode: FetchErrorCode | undefined = undefined,
): FetchedResponse {
  const contentType = headers['content-type'];
  return {
    requestUrl: url,
    finalUrl,
    hops,
    status,
    headers,
    contentType,
    charset: undefined,
    body,
    bytes,
    startedAt,
    durationMs: Math.max(0, now() - startedAt),
    errorCode,
    method,
  };
}

function failed(
  url: string,
  finalUrl: string,
  hops: readonly FetchHop[],
  startedAt: number,
  now: () => number,
  method: HttpMethod,
  code: FetchErrorCode,
  status?: number,
  headers: Readonly<Record<string, string>> = {},
): FetchedResponse {
  return respond(url, finalUrl, hops, startedAt, now, method, status, headers, undefined, 0, code);
}
