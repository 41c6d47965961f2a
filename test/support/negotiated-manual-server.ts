// A small generated manual served the way Apache serves its own manual with content
// negotiation (bench/support/serve-negotiated-manual.sh does it with the real Apache
// and the real manual): one tree of pages under every language prefix,
// /manual/<lang>/<page>, and under none, /manual/<page>. Each page exists in the
// first language and in some others (`translated`); a request under a language
// prefix answers that language's variant when there is one, else the first
// language's, 200 both times (ForceLanguagePriority Fallback), with
// `Content-Location: <page>.<lang>` naming the variant inside the requested
// directory. So /manual/de/x.html and /manual/fr/x.html answer the same bytes as
// /manual/en/x.html when x has no German or French translation: duplicates no URL
// shows. Pages carry navigation links relative to their tree, "available languages"
// links (`<a hreflang rel=alternate>`) and `<link rel=alternate hreflang>` to the
// variants that exist, and a few links to pages that do not (404).
//
// The server records every request with the variant it served (the "file", as
// Apache's %f names it), so that a test counts requests per distinct file.
//
// In the `unique` mode the same manual has no duplicates, as a Sphinx or DocBook
// build with one tree per language has: every page in every language, each body
// different, served as plain files under /manual/<lang>/ only (no negotiation, no
// Content-Location, no fallback; /manual/<page> is 404).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface NegotiatedManualOptions {
  /** Pages of the manual, the index included. @default 30 */
  readonly pages?: number;
  /** The languages; the first is the fallback every page has. @default ['en', 'de', 'fr'] */
  readonly languages?: readonly string[];
  /**
   * Whether page `page` (0 is the index) has a variant in `language` (never asked
   * for the first language). A language no reachable page is translated into is
   * never linked. Ignored in the `unique` mode.
   * @default the index in every language; then German every third page, French every fourth, others every fifth
   */
  readonly translated?: (page: number, language: string) => boolean;
  /** Pages that link to a page that does not exist (each such link is 404 in every tree). @default 3 */
  readonly brokenLinks?: number;
  /** `fallback`: negotiated, duplicates under every prefix; `unique`: one plain tree per language. @default 'fallback' */
  readonly mode?: 'fallback' | 'unique';
  /**
   * Whether pages declare their variants with `hreflang` (`<link rel=alternate hreflang>`
   * and the language links); without it the language links are plain `<a href>`.
   * @default true
   */
  readonly hreflang?: boolean;
}

/** One request as the server saw it. */
export interface ManualRequest {
  readonly method: string;
  /** The path as requested (no query). */
  readonly path: string;
  readonly status: number;
  /** The variant that answered (`mod/p4.html.en`, `style/manual.css`), for a 2xx; else undefined. */
  readonly file: string | undefined;
}

export interface NegotiatedManual {
  /** `http://127.0.0.1:port` */
  readonly origin: string;
  /**
   * Where a crawl starts: the first language's index, `${origin}/manual/${languages[0]}/index.html`
   * (the name its pages link it by). The language trees are siblings: crawl with the
   * origin scope (the server serves nothing outside /manual/); a prefix scope from
   * this seed covers the first language's tree only.
   */
  readonly seed: string;
  /** The page paths inside a language tree (`index.html`, `p1.html`, `mod/p2.html` …). */
  readonly pages: readonly string[];
  /** Every file the manual has: each page's variants and the stylesheet. */
  readonly treeFiles: ReadonlySet<string>;
  /** The paths under /manual/ the broken links point to (in every tree that links them). */
  readonly brokenPaths: readonly string[];
  /** Every request, in order of arrival. */
  readonly requests: ManualRequest[];
  /** The distinct files served (2xx) so far. */
  files(): Set<string>;
  /**
   * The file a GET of `path` (under the origin, no query) would resolve to, without
   * requesting it: the truth a test checks joins against (two URLs are duplicates
   * exactly when they resolve to one file). Undefined for a 3xx or 404.
   */
  fileFor(path: string): string | undefined;
  /** The body of a file of `treeFiles` (what a request that resolves to it answers). */
  body(file: string): string | undefined;
  close(): Promise<void>;
}

const DEFAULT_LANGUAGES = ['en', 'de', 'fr'] as const;
const SECTIONS = ['', 'mod/', 'howto/'] as const;
const STYLESHEET = 'style/manual.css';

function defaultTranslated(page: number, language: string): boolean {
  if (page === 0) return true;
  if (language === 'de') return page % 3 === 0;
  if (language === 'fr') return page % 4 === 0;
  return page % 5 === 0;
}

function pagePath(page: number): string {
  return page === 0 ? 'index.html' : `${SECTIONS[page % SECTIONS.length]}p${page}.html`;
}

/** The relative reference from the page at `from` to `to`, both paths inside one tree. */
function relativeHref(from: string, to: string): string {
  const fromDirs = from.split('/').slice(0, -1);
  const toParts = to.split('/');
  let shared = 0;
  while (shared < fromDirs.length && shared < toParts.length - 1 && fromDirs[shared] === toParts[shared]) shared++;
  return '../'.repeat(fromDirs.length - shared) + toParts.slice(shared).join('/');
}

function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;');
}

interface ManualShape {
  readonly pages: readonly string[];
  /** The languages each page exists in, the first language first. */
  readonly variants: readonly (readonly string[])[];
  /** Page index → the missing page it links to. */
  readonly brokenBy: ReadonlyMap<number, string>;
  readonly hreflang: boolean;
}

/** The HTML of page `page` in `language`: what its variant file holds. */
function pageHtml(shape: ManualShape, page: number, language: string): string {
  const path = shape.pages[page]!;
  const count = shape.pages.length;
  const href = (target: number): string => relativeHref(path, shape.pages[target]!);
  const available = shape.variants[page]!;
  // Alternates are written as absolute paths so that they lead to the language
  // trees from the unprefixed tree (/manual/x.html) as well.
  const alternates = shape.hreflang ? available.map((other) => `<link rel="alternate" hreflang="${other}" href="/manual/${other}/${path}">`) : [];
  const declares = (other: string): string => (shape.hreflang ? ` hreflang="${other}" rel="alternate"` : '');
  const languageLinks = available.map((other) =>
    other === language ? `<span>${other}</span>` : `<a href="/manual/${other}/${path}"${declares(other)} title="${other}">${other}</a>`,
  );
  const navigation = [0, 1, 2, 3, 4, 5].filter((target) => target < count && target !== page).map((target) => `<li><a href="${href(target)}">page ${target}</a></li>`);
  const neighbours: string[] = [];
  if (page > 0) neighbours.push(`<a href="${href(page - 1)}">previous</a>`);
  if (page + 1 < count) neighbours.push(`<a href="${href(page + 1)}">next</a>`);
  for (const child of [2 * page + 1, 2 * page + 2]) if (child < count && child > page + 1) neighbours.push(`<a href="${href(child)}">more</a>`);
  const missing = shape.brokenBy.get(page);
  if (missing !== undefined) neighbours.push(`<a href="${relativeHref(path, missing)}">a page that was removed</a>`);
  const text = Array.from({ length: 8 }, (_, k) => `<p>${escapeText(`${language}: paragraph ${k} of page ${page} (${path}), about directive ${(page * 7 + k) % 13}.`)}</p>`);
  return [
    '<!DOCTYPE html>',
    `<html lang="${language}"><head><meta charset="utf-8"><title>${escapeText(`${path} [${language}]`)}</title>`,
    `<link rel="stylesheet" href="/manual/${STYLESHEET}">`,
    ...alternates,
    '</head><body>',
    `<div class="languages">Available languages: ${languageLinks.join(' | ')}</div>`,
    `<ul class="navigation">${navigation.join('')}</ul>`,
    `<h1 id="top">${escapeText(path)}</h1>`,
    ...text,
    `<p>${neighbours.join(' ')} <a href="#top">top</a></p>`,
    '</body></html>',
    '',
  ].join('\n');
}

/** Language tags from an Accept-Language header, best first (q=0 dropped). */
function acceptedLanguages(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), order };
    })
    .filter((entry) => entry.tag !== '' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order)
    .map((entry) => entry.tag);
}

/** Serve the manual on 127.0.0.1 (a port the OS picks); resolves once it listens. */
export async function startNegotiatedManual(options: NegotiatedManualOptions = {}): Promise<NegotiatedManual> {
  const count = options.pages ?? 30;
  const languages = options.languages ?? DEFAULT_LANGUAGES;
  const mode = options.mode ?? 'fallback';
  const translated = options.translated ?? defaultTranslated;
  const brokenLinks = options.brokenLinks ?? 3;
  if (!Number.isInteger(count) || count < 1) throw new TypeError(`Expected \`pages\` to be an integer >= 1, got \`${count}\``);
  if (languages.length === 0) throw new TypeError('Expected `languages` to name at least one language');
  if (!Number.isInteger(brokenLinks) || brokenLinks < 0 || brokenLinks >= count) {
    throw new TypeError(`Expected \`brokenLinks\` to be an integer from 0 to pages - 1, got \`${brokenLinks}\``);
  }
  const fallback = languages[0]!;
  const pages = Array.from({ length: count }, (_, page) => pagePath(page));
  const variants = pages.map((_, page) => (mode === 'unique' ? [...languages] : languages.filter((language) => language === fallback || translated(page, language))));
  const brokenBy = new Map<number, string>();
  for (let k = 1; k <= brokenLinks; k++) brokenBy.set(Math.floor((k * count) / (brokenLinks + 1)), `${SECTIONS[k % SECTIONS.length]}removed-${k}.html`);
  const shape: ManualShape = { pages, variants, brokenBy, hreflang: options.hreflang ?? true };

  const bodies = new Map<string, string>();
  for (const [page, path] of pages.entries()) for (const language of variants[page]!) bodies.set(`${path}.${language}`, pageHtml(shape, page, language));
  bodies.set(STYLESHEET, 'body { font-family: serif; }\n');
  const pageByPath = new Map(pages.map((path, page) => [path, page]));
  const prefixes = new Set(languages);

  const requests: ManualRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const answer = respond(path, req.headers['accept-language']);
    const status = answer.status;
    requests.push({ method: req.method ?? 'GET', path, status, file: status >= 200 && status < 300 ? answer.file : undefined });
    res.writeHead(status, answer.headers);
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  });

  interface Answer {
    readonly status: number;
    readonly headers: Record<string, string>;
    readonly body: string;
    readonly file?: string;
  }

  function notFound(): Answer {
    return { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!DOCTYPE html><title>Not Found</title><h1>Not Found</h1>\n' };
  }

  function file(name: string, headers: Record<string, string> = {}): Answer {
    const type = name.endsWith('.css') ? 'text/css' : 'text/html; charset=utf-8';
    return { status: 200, headers: { 'content-type': type, ...headers }, body: bodies.get(name)!, file: name };
  }

  function respond(path: string, acceptLanguage: string | undefined): Answer {
    const match = /^\/manual(?:\/([^/]+))?(\/.*)?$/.exec(path);
    if (match === null) return notFound();
    let [, first, rest = ''] = match;
    let prefix: string | undefined;
    if (first !== undefined && prefixes.has(first)) {
      prefix = first;
      // A doubled prefix goes to the last one, as Apache's manual configuration does.
      const doubled = /^\/([^/]+)(\/.*)?$/.exec(rest);
      if (doubled !== null && prefixes.has(doubled[1]!)) return { status: 301, headers: { location: `/manual/${doubled[1]}${doubled[2] ?? ''}` }, body: '' };
    } else if (first !== undefined) {
      rest = `/${first}${rest}`;
    }
    if (rest === '') return { status: 301, headers: { location: `${path}/` }, body: '' };
    let inside = rest.slice(1);
    if (inside === '' || inside.endsWith('/')) inside += 'index.html';
    if (inside === STYLESHEET) return file(STYLESHEET);
    if (prefix === undefined && mode === 'unique') return notFound();
    // A variant named in full (the Content-Location target) is a plain file.
    if (bodies.has(inside)) return mode === 'unique' ? notFound() : file(inside);
    const page = pageByPath.get(inside);
    if (page === undefined) return notFound();
    const available = variants[page]!;
    if (mode === 'unique') return prefix !== undefined && available.includes(prefix) ? file(`${inside}.${prefix}`, { 'content-language': prefix }) : notFound();
    // The prefix names the preferred language; without one, Accept-Language does;
    // the first language is the fallback (LanguagePriority, ForceLanguagePriority Fallback).
    const wanted = prefix !== undefined ? [prefix] : acceptedLanguages(acceptLanguage);
    const chosen = wanted.find((language) => available.includes(language)) ?? fallback;
    const variant = `${inside}.${chosen}`;
    return file(variant, {
      'content-location': variant.split('/').at(-1)!,
      'content-language': chosen,
      vary: 'negotiate,accept-language',
      tcn: 'choice',
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.keepAliveTimeout = 60_000;
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    seed: `${origin}/manual/${fallback}/index.html`,
    pages,
    treeFiles: new Set(bodies.keys()),
    brokenPaths: [...brokenBy.values()],
    requests,
    files: () => new Set(requests.flatMap((request) => (request.file === undefined ? [] : [request.file]))),
    fileFor: (path) => {
      const answer = respond(path, undefined);
      return answer.status >= 200 && answer.status < 300 ? answer.file : undefined;
    },
    body: (name) => bodies.get(name),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
