// The demo site that `npm start` serves on 127.0.0.1 and crawls: a handful of
// tiny resources, each holding one or two of the traps a link-normalizing
// crawler meets (spellings of one URL, redirects, Content-Location, robots.txt, and
// the base chain). Written as data, with the server's origin substituted
// where a page needs an absolute link, so tsc builds it like any other module.
// What a correct crawl requests, and what it never does, is listed beside it in
// expected-requests.ts.

import { OptionError, describeValue } from '../../errors.js';
import { encodeWindows1252 } from './windows-1252.js';

/** One resource of the site: a response the server sends as it is. */
export interface DemoResource {
  /** Where the server answers: the path as `routeKey` reads a request target. */
  readonly path: string;
  /** What the resource tests, in one line (the trap it holds). */
  readonly trap: string;
  readonly status: number;
  /** Response headers, names lower case. The server adds Content-Length. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body before any content-coding: a string is sent as UTF-8, bytes as they
   * are. With `content-encoding: gzip` the server sends it gzip-compressed.
   */
  readonly body: string | Uint8Array;
}

export interface DemoSite {
  /** `http://127.0.0.1:PORT`, as substituted into the pages. */
  readonly origin: string;
  /** Every resource by its `path`, in the order below. */
  readonly resources: ReadonlyMap<string, DemoResource>;
}

/** Content-Type of every HTML page but the windows-1252 one. */
export const HTML_UTF8 = 'text/html; charset=utf-8';

/** An http origin as `createDemoSite` takes it: scheme, authority, nothing after. */
const ORIGIN_FORM = /^http:\/\/[^/?#\s]+$/;

/** A 1×1 grey-scale PNG: signature, IHDR, one IDAT, IEND (67 bytes, CRCs valid). */
const DOT_PNG = new Uint8Array(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR42mNgAAAAAgAB5Sfe/AAAAABJRU5ErkJggg==', 'base64'),
);

/** Apache MultiViews' headers on a negotiated response (besides Content-Location). */
const NEGOTIATED = { 'content-language': 'en', vary: 'negotiate,accept-language', tcn: 'choice' } as const;

/** /manual/core.html and its variant core.html.en: one representation. */
const CORE = '<h1>core</h1><a href="#section">#section</a> <a href="./">manual index</a><h2 id="section">section</h2>';

/** /manual/ and its variant index.html.en. */
const MANUAL = '<h1 id="top">manual</h1><a href="core.html.en">core, the variant by name</a> <a href="index.html.en#top">#top</a>';

/** The link every <base> trap (and /latest/) resolves: /guide/intro.html when the base is right. */
const INTRO_LINK = '<a href="intro.html">intro</a>';

function html(title: string, body: string, head = ''): string {
  return `<!doctype html>\n<html><head><title>${title}</title>${head}</head>\n<body>\n${body}\n</body></html>\n`;
}

/** A sitemaps.org 0.9 `<urlset>` of absolute URLs (none needs XML escaping). */
function urlset(urls: readonly string[]): string {
  const entries = urls.map((url) => `  <url><loc>${url}</loc></url>\n`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}</urlset>\n`;
}

interface PageOptions {
  readonly head?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly status?: number;
}

function page(path: string, trap: string, body: string, options: PageOptions = {}): DemoResource {
  return {
    path,
    trap,
    status: options.status ?? 200,
    headers: { 'content-type': HTML_UTF8, ...options.headers },
    body: html(path, body, options.head),
  };
}

function redirect(path: string, trap: string, status: number, location: string | undefined): DemoResource {
  return {
    path,
    trap,
    status,
    headers: location === undefined ? { 'content-type': 'text/plain' } : { 'content-type': 'text/plain', location },
    body: location === undefined ? `${status}, but no Location\n` : `${status} -> ${location}\n`,
  };
}

/**
 * The demo site for a server listening at `origin` (`http://host:port`, no path).
 * Throws `OptionError` for anything else.
 */
export function createDemoSite(origin: string): DemoSite {
  if (typeof origin !== 'string' || !ORIGIN_FORM.test(origin)) {
    throw new OptionError(`Expected \`origin\` to be "http://host:port" without a path, got ${describeValue(origin)}`);
  }
  // RFC 3986 §3.1 and §6.2.2.1: the scheme is case-insensitive. §4.2: a network-path reference.
  const upperScheme = origin.replace(/^http:/, 'HTTP:');
  const networkPath = origin.replace(/^http:/, '');
  // Another host name for the same socket: another origin, so out of scope.
  const otherHost = origin.replace(/^http:\/\/[^:/]+/, 'http://localhost');

  const resources: DemoResource[] = [
    // RFC 9309: /private/ is off limits, though / links into it.
    {
      path: '/robots.txt',
      trap: 'robots.txt disallowing /private/',
      status: 200,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: 'User-agent: *\nDisallow: /private/\n',
    },

    // The seed. Same-document references (#top, ""), the redirect and error
    // links, external links (out of scope: checked, never crawled; on localhost,
    // so that the demo never leaves the machine), what is recorded but never
    // fetched (mailto:, javascript:, robots-disallowed) and the resources the page
    // uses (img src, srcset, script src, stylesheet: checked once, not crawled).
    page(
      '/',
      'seed: same-document refs, redirects, errors, out-of-scope, non-fetchable and non-followed references',
      `<h1 id="top">linkladder demo</h1>
<p><a href="#top">#top</a> <a href="">empty href</a>
<p><a href="spellings.html">spellings</a> <a href="hrefs.html">browser hrefs</a>
<a href="manual/core.html">negotiated manual</a> <a href="current.html">current (meta refresh)</a>
<a href="base/in-body.html">base in body</a> <a href="tutorial/relative-base.html">relative base</a>
<p><a href="docs">docs (no slash)</a> <a href="chain/start">redirect chain</a> <a href="moved">moved</a>
<a href="loop-a">loop</a> <a href="no-location">3xx without Location</a>
<a href="missing.html">broken</a> <a href="server-error">500</a>
<p><a href="private/secret.html">private</a>
<a href="${otherHost}/out-of-scope.html">localhost</a> <a href="${otherHost}/gone.html">a broken external link</a>
<a href="mailto:webmaster@example.com">mail</a> <a href="javascript:void(0)">script</a>
<p><img src="img/dot.png" srcset="img/dot.png 1x, img/dot-2x.png 2x" alt="dot"><script src="app.js"></script>`,
      { head: '<link rel="stylesheet" href="site.css">' },
    ),

    // RFC 3986 §6.2.2, §5.2.4 and §4.2: twelve links, two resources, one request each.
    page(
      '/spellings.html',
      'percent-encoding, hex case, scheme case, dot segments, network-path reference, fragments',
      `<a href="/~user/">~user</a> <a href="/%7Euser/">%7E</a> <a href="/%7euser/">%7e</a>
<a href="${networkPath}/~user/">network-path</a>
<a href="a-b.html">a-b</a> <a href="/a%2Db.html">%2D</a> <a href="${upperScheme}/a-b.html">HTTP:</a>
<a href="/./a-b.html">/./</a> <a href="docs/../a-b.html">../</a> <a href="/../a-b.html">/../ above the root</a>
<a href="a-b.html#x">#x (exists)</a> <a href="a-b.html#nowhere">#nowhere (no such id)</a>`,
    ),
    page('/~user/', 'target of /~user/, /%7Euser/, /%7euser/ and a network-path reference', '<h1>~user</h1>'),
    page('/a-b.html', 'target of /a-b.html, /a%2Db.html, HTTP:, dot segments, /moved; holds id "x"', '<h1 id="x">a-b</h1>'),

    // Hrefs browsers accept and RFC 3986 rejects (WHATWG URL clean-up). Each one
    // is the only way to the resource it names.
    page(
      '/hrefs.html',
      'browser-only hrefs: surrounding whitespace, tab/newline, backslash, raw space, raw non-ASCII, lone %',
      `<a href="  /gzip.html\n">surrounding whitespace</a>
<a href="/leg&#9;acy\n.html">tab and newline inside</a>
<a href="img\\dot.png">backslash</a>
<a href="/release notes.html">raw space</a>
<a href="/café.html">raw non-ASCII</a>
<a href="/a-b.html?q=100%">lone %</a>`,
    ),
    page('/release%20notes.html', 'target of a raw space in an href', '<h1>release notes</h1>'),
    page('/caf%C3%A9.html', 'target of a raw "é" (RFC 3987 §3.1: UTF-8, then percent-encoded)', '<h1>café</h1>'),
    // Only whitespace-stripping reaches it. Always compressed, whatever
    // Accept-Encoding says (a pre-compressed file served as is), so the trap is met.
    page('/gzip.html', 'Content-Encoding: gzip', '<h1>gzip</h1><p>This page travelled compressed.', {
      headers: { 'content-encoding': 'gzip', vary: 'Accept-Encoding' },
    }),
    // Only the tab/newline clean-up reaches it. Bytes in windows-1252 ("é" 0xE9,
    // "’" 0x92, "€" 0x80), declared only in Content-Type; its href with a raw "é"
    // must decode as windows-1252 before it is UTF-8 percent-encoded.
    {
      path: '/legacy.html',
      trap: 'windows-1252 body declared in Content-Type, accented link text, raw "é" in an href',
      status: 200,
      headers: { 'content-type': 'text/html; charset=windows-1252' },
      body: encodeWindows1252(html('/legacy.html', '<a href="/café.html">Café’s menu: 5 €</a>')),
    },
    // Only the backslash clean-up reaches it (the <img src> on / is not followed).
    {
      path: '/img/dot.png',
      trap: 'image/png reached by a backslash href',
      status: 200,
      headers: { 'content-type': 'image/png' },
      body: DOT_PNG,
    },

    // §3: Content-Location of a negotiated variant, as Apache MultiViews sends it.
    // "#section" resolves to core.html.en#section: the same document. The ETag
    // lacks its closing quote, as Apache's negotiated ETags do (§4).
    page('/manual/core.html', 'Content-Location: core.html.en (negotiated variant), #section link, unterminated ETag', CORE, {
      headers: { 'content-location': 'core.html.en', ...NEGOTIATED, etag: '"2a-5f1e3c4d;5f1e3c4e' },
    }),
    // The variant itself, as Apache serves it when asked by name. The same bytes:
    // the alias learned from the header holds, so it is never fetched.
    page('/manual/core.html.en', 'the variant named by Content-Location: served, never requested', CORE),
    // A directory index negotiated to index.html.en. Reachable only from
    // core.html, so the alias core.html.en → core.html is known before this page
    // links to the variant by name.
    page('/manual/', 'Content-Location: index.html.en (directory index); links core.html.en, already an alias', MANUAL, {
      headers: { 'content-location': 'index.html.en', ...NEGOTIATED },
    }),
    page('/manual/index.html.en', 'the directory index variant: served, never requested', MANUAL),

    // A meta refresh (followed by default) to a page whose Content-Location is
    // in another directory: with the RFC chain "intro.html" is /guide/intro.html,
    // as a browser reads it /latest/intro.html (which does not exist).
    page('/current.html', 'meta refresh to latest/', '<p>Moved to <a href="latest/">latest</a>.', {
      head: '<meta http-equiv="refresh" content="0; url=latest/">',
    }),
    page('/latest/', 'Content-Location in another directory (/guide/)', INTRO_LINK, {
      headers: { 'content-location': '/guide/' },
    }),

    // §5.1.1 <base href>: an absolute one that appears only in <body>, after the
    // link it governs.
    page(
      '/base/in-body.html',
      '<base href> absolute, and only in <body>',
      `${INTRO_LINK}\n<base href="${origin}/guide/">`,
    ),
    // A relative <base href> (resolved against the page URL), then a second
    // one, which is ignored: the first <base> with an href wins.
    page('/tutorial/relative-base.html', '<base href="../guide/"> relative, then a second <base> (first wins)', INTRO_LINK, {
      head: '<base href="../guide/"><base href="/wrong/">',
    }),
    page('/guide/intro.html', 'where "intro.html" lands under every base above', '<h1>intro</h1>'),

    // §4 trailing-slash redirect. /docs/ carries the non-followed references that
    // live in headers and <head>: a Link header and a (self) canonical.
    redirect('/docs', 'trailing-slash redirect 301 -> /docs/', 301, '/docs/'),
    page('/docs/', 'redirect target; Link: header (preload); <link rel=canonical> to itself', '<a href="/docs">/docs</a>', {
      head: `<link rel="canonical" href="${upperScheme}/docs/">`,
      headers: { link: '</site.css>; rel=preload; as=style' },
    }),

    // A two-hop chain: an absolute Location, then a relative one that resolves
    // against the second hop (/chain/moved/end.html), not the first URL.
    redirect('/chain/start', 'redirect chain hop 1: 301, absolute Location', 301, `${origin}/chain/moved/`),
    redirect('/chain/moved/', 'redirect chain hop 2: 302, relative Location', 302, 'end.html'),
    page('/chain/moved/end.html', 'end of the redirect chain', '<h1>end of the chain</h1>'),
    // A redirect to a URL that /spellings.html links too: one request for it, whichever comes first.
    redirect('/moved', 'redirect to an already-linked URL (/a-b.html)', 301, '/a-b.html'),
    redirect('/loop-a', 'redirect loop, first hop', 302, '/loop-b'),
    redirect('/loop-b', 'redirect loop, second hop (back to /loop-a)', 302, '/loop-a'),
    redirect('/no-location', '3xx without Location', 302, undefined),
    page('/server-error', '500', '<h1>500 Internal Server Error</h1>', { status: 500 }),
    // (/missing.html, linked from /, is not here: the server answers it 404.)

    // Sitemaps (sitemaps.org 0.9), read before the crawl: /sitemap.xml lists pages that links
    // reach too (one request each all the same) and /orphan.html, which no page links to
    // (it links home, as pages do: no page but it links to /).
    {
      path: '/sitemap.xml',
      trap: 'a urlset: its URLs seed the crawl; one of them (/orphan.html) is linked from no page',
      status: 200,
      headers: { 'content-type': 'application/xml; charset=utf-8' },
      body: urlset(['/', '/spellings.html', '/hrefs.html', '/orphan.html'].map((path) => origin + path)),
    },
    page('/orphan.html', 'listed in /sitemap.xml, linked from no page: reached only through the sitemap (SITEMAP_ORPHAN)', '<h1>orphan</h1><a href="/">home</a>'),

    // Disallowed by robots.txt: served, so a crawler that ignores robots.txt shows up in the log.
    page('/private/secret.html', 'robots-disallowed page linked from /', '<h1>You should not be here</h1>'),

    // The external link of / (as http://localhost:PORT/…): checked with HEAD, never read.
    page('/out-of-scope.html', 'external link target (another origin): checked, never crawled', '<a href="/never-crawled.html">not followed</a>'),

    // Used by /: checked once each, never read for links but the stylesheet (img/dot-2x.png, in the srcset, is absent on purpose).
    {
      path: '/site.css',
      trap: '<link rel=stylesheet> and Link: preload target: a resource, checked once',
      status: 200,
      headers: { 'content-type': 'text/css; charset=utf-8' },
      body: 'body { font-family: sans-serif; }\n',
    },
    {
      path: '/app.js',
      trap: '<script src> target: a resource, checked once',
      status: 200,
      headers: { 'content-type': 'text/javascript; charset=utf-8' },
      body: '// nothing to run\n',
    },
  ];
  return Object.freeze({ origin, resources: new Map(resources.map((resource) => [resource.path, Object.freeze(resource)])) });
}
