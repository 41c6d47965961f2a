// What a correct crawl of the demo site (site.ts) asks the server for, with the
// default options: seed `/`, base mode `rfc3986`, the default followed kinds
// (navigation, frame, refresh), resources and external links checked, /sitemap.xml
// read, robots.txt obeyed, scope = the seed's origin. The site's external links name
// localhost (the same server under another origin), so that the demo never leaves
// the machine.
// "Correct" means: RFC 3986 resolution, the §6.2 ladder up to the
// protocol rung learned from redirects and Content-Location, same-document
// references never fetched, and nothing fetched twice.
//
// Targets are written in the form `requestKey` gives them (§6.2.2.1–2), so a
// crawler may send any spelling that percent-encoding normalization joins to
// it: `/%7Euser/` counts as `/~user/`.

import { requestKey } from './request-target.js';

export interface ExpectedRequest {
  /** The request target (path and query), in `requestKey` form. */
  readonly target: string;
  /** Why a correct crawl requests it, or never does. */
  readonly why: string;
  /** A 5xx answer: the crawl's retry policy may ask again, so repeats are allowed. */
  readonly isRetryable?: true;
  /** How many requests a correct crawl makes for it (the server answers several host names). @default 1 */
  readonly times?: number;
}


/** Requested exactly once each (a retryable one at least once), in no particular order. */
export const EXPECTED_REQUESTS: readonly ExpectedRequest[] = Object.freeze([
  {
    target: '/robots.txt',
    why: 'RFC 9309: read once for each origin before its first request: 127.0.0.1:PORT, and localhost:PORT for the external link',
    times: 2,
  },
  { target: '/', why: 'the seed' },
  { target: '/sitemap.xml', why: 'sitemaps are read by default: /sitemap.xml of the seed\'s origin, before the crawl' },
  { target: '/orphan.html', why: 'listed in /sitemap.xml, linked from no page: seeded by the sitemap' },
  { target: '/spellings.html', why: 'linked from /' },
  { target: '/hrefs.html', why: 'linked from /' },
  // §6.2.2: /~user/, /%7Euser/, /%7euser/ and //127.0.0.1:PORT/~user/ are one resource.
  { target: '/~user/', why: 'four spellings on /spellings.html, one resource at the syntax rung' },
  {
    target: '/a-b.html',
    why:
      'eight spellings on /spellings.html (plain, %2D, HTTP:, /./, docs/../, /../, #x, #nowhere) are one resource, ' +
      'and /moved redirects to it: requested once, as a link or as the hop, whichever comes first',
  },
  { target: '/a-b.html?q=100%25', why: 'a lone "%" on /hrefs.html, cleaned to %25; another query is another resource' },
  { target: '/release%20notes.html', why: 'a raw space on /hrefs.html, percent-encoded' },
  {
    target: '/caf%C3%A9.html',
    why: 'a raw "é" on /hrefs.html (UTF-8) and on /legacy.html (windows-1252 byte E9), both UTF-8 percent-encoded',
  },
  { target: '/gzip.html', why: 'an href with surrounding whitespace on /hrefs.html, stripped' },
  { target: '/legacy.html', why: 'an href with a tab and a newline inside on /hrefs.html, removed' },
  {
    target: '/img/dot.png',
    why: 'the backslash href img\\dot.png on /hrefs.html, read as "/", and the <img src> on / (a resource, checked once)',
  },
  { target: '/site.css', why: '<link rel=stylesheet> on / and the Link: preload of /docs/: a resource, checked once (GET) and read for url()' },
  { target: '/app.js', why: '<script src> on /: a resource, checked once' },
  { target: '/img/dot-2x.png', why: 'a srcset candidate on /: a resource, checked once; absent (404), a broken image' },
  {
    target: '/out-of-scope.html',
    why: 'linked as http://localhost:PORT/out-of-scope.html: another origin, so an external link, checked once with HEAD, never read',
  },
  {
    target: '/gone.html',
    why: 'linked as http://localhost:PORT/gone.html: an external link checked with HEAD, then GET, since a HEAD 404 is not the verdict; 404 again, a broken external link',
    times: 2,
  },
  {
    target: '/manual/core.html',
    why:
      'linked from /; its Content-Location core.html.en makes core.html.en an alias of it, ' +
      'and its "#section" the same document',
  },
  {
    target: '/manual/',
    why: 'linked from /manual/core.html as "./" (resolved against the Content-Location base, same directory)',
  },
  { target: '/current.html', why: 'linked from /' },
  { target: '/latest/', why: 'the meta refresh of /current.html (refresh is followed by default)' },
  {
    target: '/guide/intro.html',
    why:
      '"intro.html" under three bases: the Content-Location /guide/ of /latest/, the <base> in the body of ' +
      '/base/in-body.html, the relative <base href="../guide/"> of /tutorial/relative-base.html',
  },
  { target: '/base/in-body.html', why: 'linked from /' },
  { target: '/tutorial/relative-base.html', why: 'linked from /' },
  { target: '/docs', why: 'linked from /; answers 301 /docs/' },
  { target: '/docs/', why: 'the hop of /docs: fetched while following the redirect; no followed link names it' },
  { target: '/chain/start', why: 'linked from /; 301 with an absolute Location' },
  { target: '/chain/moved/', why: 'hop 2 of the chain; 302 with the relative Location end.html' },
  { target: '/chain/moved/end.html', why: 'hop 3: end.html resolved against the hop that sent it (RFC 9110 §10.2.2)' },
  { target: '/moved', why: 'linked from /; 301 to /a-b.html' },
  { target: '/loop-a', why: 'linked from /; 302 /loop-b' },
  { target: '/loop-b', why: 'hop of /loop-a; its 302 back to /loop-a is a loop: /loop-a is not asked again' },
  { target: '/no-location', why: 'linked from /; a 302 without Location ends there' },
  { target: '/missing.html', why: 'linked from /; the broken link (404)' },
  { target: '/server-error', why: 'linked from /; 500', isRetryable: true },
]);

/** Never requested by a correct crawl with the default options; each names the mistake that would. */
export const NEVER_REQUESTED: readonly ExpectedRequest[] = Object.freeze([
  { target: '/private/secret.html', why: 'robots.txt disallows /private/ (linked from /)' },
  {
    target: '/manual/core.html.en',
    why: 'the Content-Location alias of /manual/core.html (protocol rung), linked by name from /manual/ after it was learned',
  },
  {
    target: '/manual/index.html.en',
    why: 'the Content-Location alias of /manual/; "index.html.en#top" there is a same-document reference',
  },
  {
    target: '/latest/intro.html',
    why: '"intro.html" of /latest/ with Content-Location left out of the base (--base-mode browser)',
  },
  { target: '/base/intro.html', why: '"intro.html" of /base/in-body.html with the <base> in <body> ignored' },
  { target: '/tutorial/intro.html', why: '"intro.html" of /tutorial/relative-base.html with its relative <base> ignored' },
  {
    target: '/wrong/intro.html',
    why: '"intro.html" of /tutorial/relative-base.html under its second <base>: the first one wins',
  },
  { target: '/chain/end.html', why: 'the relative Location of /chain/moved/ resolved against the first URL of the chain' },
  { target: '/caf%E9.html', why: 'the "é" of /legacy.html percent-encoded as its windows-1252 byte, not as UTF-8' },
  { target: '/caf%EF%BF%BD.html', why: '/legacy.html decoded as UTF-8: its byte E9 became U+FFFD' },
  { target: '/img%5Cdot.png', why: 'the backslash of img\\dot.png percent-encoded instead of read as "/"' },
  { target: '/leg%09acy%0A.html', why: 'the tab and newline of /hrefs.html percent-encoded instead of removed' },
  { target: '/./a-b.html', why: 'dot segments left in: RFC 3986 §5.2 removes them from every resolved reference' },
]);

/** References on the site that are recorded but never fetched, as written: none may reach the network. */
export const RECORDED_NEVER_FETCHED: readonly ExpectedRequest[] = Object.freeze([
  { target: 'mailto:webmaster@example.com', why: 'not fetchable: mailto:' },
  { target: 'javascript:void(0)', why: 'not fetchable: javascript:' },
]);

/** What `checkRequestLog` finds wrong with a crawl's requests. */
export interface RequestLogCheck {
  /** Expected targets that were never requested. */
  readonly missing: readonly string[];
  /** Expected targets requested more than once (retryable ones excepted), with their count. */
  readonly repeated: readonly { readonly target: string; readonly count: number }[];
  /** Log entries for a `NEVER_REQUESTED` target. */
  readonly forbidden: readonly string[];
  /** Log entries in neither list, and entries that are not `GET` or `HEAD` of an origin-form target. */
  readonly unexpected: readonly string[];
  /** Whether all four lists are empty. */
  readonly isCorrect: boolean;
}

const EXPECTED_BY_KEY = new Map(EXPECTED_REQUESTS.map((request) => [request.target, request]));
const NEVER_KEYS = new Set(NEVER_REQUESTED.map((request) => request.target));

/**
 * Check a demo server's request log (`"METHOD target"` entries) against the
 * lists above. Every request counts, whatever its method: a HEAD before a GET
 * is two requests.
 */
export function checkRequestLog(log: readonly string[]): RequestLogCheck {
  const counts = new Map<string, number>();
  const forbidden: string[] = [];
  const unexpected: string[] = [];
  for (const entry of log) {
    const space = entry.indexOf(' ');
    const method = entry.slice(0, space);
    const target = entry.slice(space + 1);
    if (space === -1 || (method !== 'GET' && method !== 'HEAD') || !target.startsWith('/')) {
      unexpected.push(entry);
      continue;
    }
    const key = requestKey(target);
    if (EXPECTED_BY_KEY.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
    else if (NEVER_KEYS.has(key)) forbidden.push(entry);
    else unexpected.push(entry);
  }
  const missing = EXPECTED_REQUESTS.filter((request) => !counts.has(request.target)).map((request) => request.target);
  const repeated = [...counts]
    .filter(([key, count]) => count > (EXPECTED_BY_KEY.get(key)?.times ?? 1) && EXPECTED_BY_KEY.get(key)?.isRetryable !== true)
    .map(([target, count]) => ({ target, count }));
  return {
    missing,
    repeated,
    forbidden,
    unexpected,
    isCorrect: missing.length === 0 && repeated.length === 0 && forbidden.length === 0 && unexpected.length === 0,
  };
}
