// audit() against a MemoryStore's IndexReader: the cases a crawl of a fixture site
// does not reach easily (old indexes, cross-origin redirects, chains learned from
// another URL's fetch, refusals of the crawl's own), ordering, streaming, options.

import { describe, expect, it } from 'vitest';
import { OptionError } from '../../../src/errors.js';
import { audit, type AuditFinding } from '../../../src/report/index.js';
import type { FetchRow, IndexReader, LinkRow, UrlRole, UrlState } from '../../../src/store/index.js';
import { collect } from '../../support/collect.js';
import { countingReader } from '../support/counting-reader.js';
import { readerOf } from '../support/memory-index.js';

const H = 'http://h';

interface UrlSpec {
  readonly id: number;
  readonly path: string;
  readonly state?: UrlState;
  readonly aliasOf?: number;
  readonly role?: UrlRole;
  /** Its last fetch (fields left out: a 200 text/html page, `finalUrl` its own URL); none when absent. */
  readonly fetch?: Partial<FetchRow>;
  /** Earlier fetches, before `fetch`. */
  readonly earlier?: readonly Partial<FetchRow>[];
}

/** A link as the reader gives it: the target spelled as its ladder rung says, admitted through the alias for `protocol`. */
type LinkSpec = Pick<LinkRow, 'fromUrlId' | 'rawHref'> & Partial<LinkRow>;

/** An index written through a MemoryStore: URLs in id order, then their fetches, then the links. */
function index(urls: readonly UrlSpec[], links: readonly LinkSpec[]): Promise<IndexReader> {
  return readerOf({
    urls: urls.map((spec) => ({
      id: spec.id,
      key: spec.path.includes('://') ? spec.path : H + spec.path,
      state: spec.state,
      aliasOf: spec.aliasOf,
      role: spec.role,
      fetches: [...(spec.earlier ?? []), ...(spec.fetch === undefined ? [] : [spec.fetch])].map(({ id: _id, urlId: _urlId, ...fetch }) => ({ finalUrl: H + spec.path, ...fetch })),
    })),
    links: links.map((spec) => ({
      from: spec.fromUrlId,
      rawHref: spec.rawHref,
      to: spec.metUrlId,
      spelling: spec.ladderRung === 'syntax' || spec.ladderRung === 'scheme' ? spec.ladderRung : 'string',
      isThroughAlias: spec.rung === 'protocol',
      fragment: spec.fragment,
      element: spec.element,
      attribute: spec.attribute,
      baseLevel: spec.baseLevel,
      findings: spec.findings,
      alternateTarget: spec.alternateTarget,
      error: spec.error,
    })),
  });
}

const codes = async (findings: AsyncIterable<AuditFinding>): Promise<string[]> => (await collect(findings)).map((f) => f.code);
const page = (body: Partial<FetchRow> = {}): Partial<FetchRow> => ({ status: 200, contentType: 'text/html', anchors: ['a'], ...body });

describe('audit: targets as the crawl fetched them', () => {
  it('a target the crawl refused to fetch itself (robots.txt) or that did not answer is unverified, not broken (rows without a verdict: derived)', async () => {
    const reader = await index(
      [
        { id: 1, path: '/', fetch: page() },
        { id: 2, path: '/private', state: 'failed', fetch: { status: undefined, contentType: undefined, errorCode: 'ERR_CRAWL_ROBOTS_DISALLOWED', durationMs: undefined } },
        { id: 3, path: '/down', state: 'failed', fetch: { status: undefined, contentType: undefined, errorCode: 'ERR_FETCH_NETWORK' } },
        { id: 4, path: '/queued' },
      ],
      [
        { fromUrlId: 1, rawHref: 'private', metUrlId: 2 },
        { fromUrlId: 1, rawHref: 'down', metUrlId: 3 },
        { fromUrlId: 1, rawHref: 'queued', metUrlId: 4 },
      ],
    );
    expect((await collect(audit(reader)))).toEqual([
      expect.objectContaining({ code: 'LINK_UNVERIFIED', severity: 'warning', verdict: 'unverified', rawHref: 'private', message: 'not checked: robots.txt disallows it' }),
      expect.objectContaining({ code: 'LINK_UNVERIFIED', severity: 'warning', verdict: 'unverified', rawHref: 'down', message: 'the target could not be fetched (ERR_FETCH_NETWORK)', detail: { errorCode: 'ERR_FETCH_NETWORK' } }),
    ]);
  });

  it('LINK_BROKEN only for a broken verdict, LINK_UNVERIFIED for an unverified one, each saying why; the recorded verdict is read, not judged again', async () => {
    const gone = (status: number, verdict?: FetchRow['verdict']): Partial<FetchRow> => ({ status, contentType: 'text/html', anchors: [], ...(verdict === undefined ? {} : { verdict }) });
    const reader = await index(
      [
        { id: 1, path: '/', fetch: page() },
        { id: 2, path: '/missing', fetch: gone(404, 'broken') },
        { id: 3, path: '/busy', fetch: gone(503, 'unverified') },
        { id: 4, path: '/slow', fetch: gone(429, 'unverified') },
        { id: 5, path: 'http://x/wall', role: 'external', fetch: gone(403, 'unverified') },
        { id: 6, path: '/own-wall', fetch: gone(403, 'broken') },
        // A status policy said so when the crawl recorded it (999=ok): the audit does not say otherwise.
        { id: 7, path: 'http://x/li', role: 'external', fetch: gone(999, 'ok') },
        { id: 8, path: 'http://nxdomain.invalid/', role: 'external', fetch: { status: undefined, contentType: undefined, errorCode: 'ERR_FETCH_DNS', verdict: 'broken' } },
        { id: 9, path: 'http://x/timeout', role: 'external', fetch: { status: undefined, contentType: undefined, errorCode: 'ERR_FETCH_HEADERS_TIMEOUT', verdict: 'unverified' } },
        // Rows of an index older than verdicts: derived with the default policy, by the URL's role.
        { id: 10, path: 'http://x/old-wall', role: 'external', fetch: gone(403) },
        { id: 11, path: '/old-gone', fetch: gone(410) },
      ],
      [2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((id) => ({ fromUrlId: 1, rawHref: `l${id}`, metUrlId: id })),
    );
    const findings = await collect(audit(reader));
    expect(findings.map((f) => [f.rawHref, f.code, f.severity, f.verdict, f.message])).toEqual([
      ['l2', 'LINK_BROKEN', 'error', 'broken', 'the target answered 404'],
      ['l3', 'LINK_UNVERIFIED', 'warning', 'unverified', 'the target answered 503 (a server error: try again later)'],
      ['l4', 'LINK_UNVERIFIED', 'warning', 'unverified', 'the target answered 429 (too many requests: rate-limited)'],
      ['l5', 'LINK_UNVERIFIED', 'warning', 'unverified', 'the target answered 403 (a bot wall: the host refuses crawlers)'],
      ['l6', 'LINK_BROKEN', 'error', 'broken', 'the target answered 403'],
      ['l8', 'LINK_BROKEN', 'error', 'broken', 'the target could not be fetched (ERR_FETCH_DNS)'],
      ['l9', 'LINK_UNVERIFIED', 'warning', 'unverified', 'the target could not be fetched (ERR_FETCH_HEADERS_TIMEOUT)'],
      ['l10', 'LINK_UNVERIFIED', 'warning', 'unverified', 'the target answered 403 (a bot wall: the host refuses crawlers)'],
      ['l11', 'LINK_BROKEN', 'error', 'broken', 'the target answered 410'],
    ]);
  });

  it('a URL met only as a hop of another URL\'s redirect chain: the hops left from it, and the final URL', async () => {
    const reader = await index(
      [
        { id: 1, path: '/', fetch: page() },
        // /c → /a → /b, fetched at /c: /a is an alias learned from that chain, with no fetch of its own.
        { id: 2, path: '/c', state: 'alias', aliasOf: 4, fetch: { finalUrl: `${H}/b`, redirects: [{ from: `${H}/c`, to: `${H}/a`, status: 301 }, { from: `${H}/a`, to: `${H}/b`, status: 302 }] } },
        { id: 3, path: '/a', state: 'alias', aliasOf: 4 },
        { id: 4, path: '/b', fetch: page({ durationMs: undefined }) },
      ],
      [{ fromUrlId: 1, rawHref: 'a', metUrlId: 3, toUrlId: 4, rung: 'protocol', ladderRung: 'string' }],
    );
    const findings = (await collect(audit(reader)));
    expect(findings).toEqual([
      expect.objectContaining({ code: 'LINK_REDIRECT', page: `${H}/`, rawHref: 'a', target: `${H}/a`, detail: { finalUrl: `${H}/b`, hops: 1 } }),
      expect.objectContaining({ code: 'REDIRECT_CHAIN', page: `${H}/c`, detail: { hops: 2, finalUrl: `${H}/b` } }),
    ]);
  });

  it('a redirect not followed because its target was fetched already: judged by that target', async () => {
    const stopped = (to: string): Partial<FetchRow> => ({ status: 301, contentType: undefined, finalUrl: `${H}/moved`, redirects: [{ from: `${H}/moved`, to: H + to, status: 301 }] });
    const reader = await index(
      [
        { id: 1, path: '/', fetch: page() },
        { id: 2, path: '/a', fetch: page({ anchors: ['yes'] }) },
        { id: 3, path: '/moved', state: 'alias', aliasOf: 2, fetch: stopped('/a') },
        { id: 4, path: '/missing', fetch: { status: 404 } },
        // Not made an alias (say, the crawl did not): the redirect's target stands for it all the same.
        { id: 5, path: '/moved-away', fetch: { ...stopped('/missing'), finalUrl: `${H}/moved-away`, redirects: [{ from: `${H}/moved-away`, to: `${H}/missing`, status: 308 }] } },
      ],
      [
        { fromUrlId: 1, rawHref: 'moved#yes', fragment: 'yes', metUrlId: 3 },
        { fromUrlId: 1, rawHref: 'moved#no', fragment: 'no', metUrlId: 3 },
        { fromUrlId: 1, rawHref: 'moved-away', metUrlId: 5 },
      ],
    );
    expect((await collect(audit(reader))).map((f) => [f.code, f.rawHref, f.message, f.detail])).toEqual([
      ['LINK_REDIRECT', 'moved#yes', `the target redirects to ${H}/a (1 hop): link to the final URL`, { finalUrl: `${H}/a`, hops: 1 }],
      ['LINK_REDIRECT', 'moved#no', `the target redirects to ${H}/a (1 hop): link to the final URL`, { finalUrl: `${H}/a`, hops: 1 }],
      ['LINK_FRAGMENT_MISSING', 'moved#no', 'no element with id or name "no" in the target page', { fragment: 'no' }],
      ['LINK_BROKEN', 'moved-away', `the target answered 404 after 1 redirect to ${H}/missing`, { status: 404, hops: 1, finalUrl: `${H}/missing` }],
    ]);
  });

  it('a redirect that ends in a 404 is a broken link, not a redirect', async () => {
    const reader = await index(
      [
        { id: 1, path: '/', fetch: page() },
        { id: 2, path: '/old', state: 'alias', aliasOf: 3, fetch: { status: 404, finalUrl: `${H}/gone`, redirects: [{ from: `${H}/old`, to: `${H}/gone`, status: 301 }] } },
        { id: 3, path: '/gone', fetch: { status: 404, durationMs: undefined } },
      ],
      [
        { fromUrlId: 1, rawHref: 'old', metUrlId: 2 },
        { fromUrlId: 1, rawHref: 'gone', metUrlId: 3 },
      ],
    );
    expect((await collect(audit(reader)))).toEqual([
      expect.objectContaining({ code: 'LINK_BROKEN', rawHref: 'old', message: `the target answered 404 after 1 redirect to ${H}/gone`, detail: { status: 404, hops: 1, finalUrl: `${H}/gone` } }),
      expect.objectContaining({ code: 'LINK_BROKEN', rawHref: 'gone', message: 'the target answered 404', detail: { status: 404 } }),
    ]);
  });
});

describe('audit: fragments', () => {
  it('are checked against the page the target stands for: after a redirect to another origin, after Content-Location', async () => {
    const reader = await index(
      [
        { id: 1, path: '/', fetch: page({ anchors: ['here'] }) },
        // A redirect to another origin makes no alias: the anchors are the final URL's.
        { id: 2, path: '/out', fetch: page({ finalUrl: 'http://other/in', redirects: [{ from: `${H}/out`, to: 'http://other/in', status: 302 }], anchors: ['x', 'café'] }) },
        { id: 3, path: 'http://other/in', state: 'skipped' },
        // /neg answered with Content-Location: /neg.en; /neg.en's fetch row is derived (no duration), its anchors are /neg's.
        { id: 4, path: '/neg', state: 'alias', aliasOf: 5, fetch: page({ anchors: ['y'] }) },
        { id: 5, path: '/neg.en', fetch: page({ durationMs: undefined, finalUrl: `${H}/neg`, anchors: [] }) },
      ],
      [
        { fromUrlId: 1, rawHref: 'out#x', fragment: 'x', metUrlId: 2 },
        { fromUrlId: 1, rawHref: 'out#caf%C3%A9', fragment: 'caf%C3%A9', metUrlId: 2 },
        { fromUrlId: 1, rawHref: 'out#nope', fragment: 'nope', metUrlId: 2 },
        { fromUrlId: 1, rawHref: 'neg.en#y', fragment: 'y', metUrlId: 5 },
        { fromUrlId: 1, rawHref: 'neg#y', fragment: 'y', metUrlId: 4 },
        { fromUrlId: 1, rawHref: 'neg#z', fragment: 'z', metUrlId: 4 },
        { fromUrlId: 1, rawHref: '#here', fragment: 'here', metUrlId: 1 },
        { fromUrlId: 1, rawHref: '#top', fragment: 'top', metUrlId: 1 },
        { fromUrlId: 1, rawHref: '#TOP', fragment: 'TOP', metUrlId: 1 },
        { fromUrlId: 1, rawHref: '#', fragment: '', metUrlId: 1 },
        { fromUrlId: 1, rawHref: '#:~:text=hello', fragment: ':~:text=hello', metUrlId: 1 },
      ],
    );
    const missing = (await collect(audit(reader))).filter((f) => f.code === 'LINK_FRAGMENT_MISSING');
    expect(missing.map((f) => [f.rawHref, f.target, f.detail, f.verdict])).toEqual([
      ['out#nope', `${H}/out#nope`, { fragment: 'nope' }, 'broken'],
      ['neg#z', `${H}/neg#z`, { fragment: 'z' }, 'broken'],
    ]);
  });

  it('are checked against a Markdown page too, its heading slugs without regard to case (as GitHub); an HTML id keeps its case', async () => {
    const reader = await index(
      [
        { id: 1, path: '/README.md', fetch: page({ contentType: 'text/markdown', anchors: ['install', 'Raw-Id'] }) },
        { id: 2, path: '/guide.md', fetch: page({ contentType: 'text/x-markdown', anchors: ['usage-1'] }) },
        { id: 3, path: '/page.html', fetch: page({ anchors: ['install'] }) },
      ],
      [
        { fromUrlId: 1, rawHref: '#install', fragment: 'install', metUrlId: 1 },
        { fromUrlId: 1, rawHref: '#Install', fragment: 'Install', metUrlId: 1 },
        { fromUrlId: 1, rawHref: '#Raw-Id', fragment: 'Raw-Id', metUrlId: 1 },
        { fromUrlId: 1, rawHref: '#gone', fragment: 'gone', metUrlId: 1 },
        { fromUrlId: 1, rawHref: 'guide.md#USAGE-1', fragment: 'USAGE-1', metUrlId: 2 },
        { fromUrlId: 1, rawHref: 'guide.md#usage-2', fragment: 'usage-2', metUrlId: 2 },
        { fromUrlId: 1, rawHref: 'page.html#install', fragment: 'install', metUrlId: 3 },
        { fromUrlId: 1, rawHref: 'page.html#Install', fragment: 'Install', metUrlId: 3 },
      ],
    );
    const missing = (await collect(audit(reader))).filter((f) => f.code === 'LINK_FRAGMENT_MISSING');
    expect(missing.map((f) => f.rawHref)).toEqual(['#gone', 'guide.md#usage-2', 'page.html#Install']);
  });

  it('reads which URL each fetch stands for from the index, not from its final URL', async () => {
    // As the crawl records it since migration 003; the final URLs here would say otherwise.
    const elsewhere = 'http://elsewhere/';
    const reader = await index(
      [
        { id: 1, path: '/', fetch: page({ anchors: ['here'], representsUrlId: 1 }) },
        { id: 2, path: '/out', fetch: page({ finalUrl: elsewhere, redirects: [{ from: `${H}/out`, to: 'http://other/in', status: 302 }], anchors: ['x'], representsUrlId: 3 }) },
        { id: 3, path: 'http://other/in', state: 'skipped' },
        { id: 4, path: '/neg', state: 'alias', aliasOf: 5, fetch: page({ finalUrl: elsewhere, anchors: ['y'], representsUrlId: 4 }) },
        { id: 5, path: '/neg.en', fetch: page({ durationMs: undefined, finalUrl: elsewhere, anchors: [], representsUrlId: 5 }) },
        { id: 6, path: elsewhere, fetch: page({ anchors: ['x', 'y', 'nope', 'z'], representsUrlId: 6 }) },
      ],
      [
        { fromUrlId: 1, rawHref: 'out#x', fragment: 'x', metUrlId: 2 },
        { fromUrlId: 1, rawHref: 'out#nope', fragment: 'nope', metUrlId: 2 },
        { fromUrlId: 1, rawHref: 'neg.en#y', fragment: 'y', metUrlId: 5 },
        { fromUrlId: 1, rawHref: 'neg#z', fragment: 'z', metUrlId: 4 },
      ],
    );
    const missing = (await collect(audit(reader))).filter((f) => f.code === 'LINK_FRAGMENT_MISSING');
    expect(missing.map((f) => f.rawHref)).toEqual(['out#nope', 'neg#z']);
  });

  it('are not checked on a target that is not HTML, not 2xx or not fetched', async () => {
    const reader = await index(
      [
        { id: 1, path: '/', fetch: page() },
        { id: 2, path: '/img.svg', fetch: page({ contentType: 'image/svg+xml', anchors: [] }) },
        { id: 3, path: '/e', fetch: page({ status: 500, anchors: [] }) },
        { id: 4, path: '/q' },
      ],
      [
        { fromUrlId: 1, rawHref: 'img.svg#icon', fragment: 'icon', metUrlId: 2 },
        { fromUrlId: 1, rawHref: 'e#x', fragment: 'x', metUrlId: 3 },
        { fromUrlId: 1, rawHref: 'q#x', fragment: 'x', metUrlId: 4 },
      ],
    );
    expect(await codes(audit(reader))).toEqual(['LINK_UNVERIFIED']);
  });

  it('are not checked when no fetched page has an id or name (an index crawled before anchors were recorded), and the audit says so', async () => {
    const reader = await index(
      [
        { id: 1, path: '/', fetch: page({ anchors: [] }) },
        { id: 2, path: '/a', fetch: page({ anchors: [] }) },
        { id: 3, path: '/b', fetch: page({ anchors: [] }) },
      ],
      [
        { fromUrlId: 1, rawHref: 'a#x', fragment: 'x', metUrlId: 2 },
        { fromUrlId: 1, rawHref: 'b#y', fragment: 'y', metUrlId: 3 },
        { fromUrlId: 1, rawHref: '#top', fragment: 'top', metUrlId: 1 },
      ],
    );
    const findings = await collect(audit(reader));
    expect(findings.map((f) => [f.code, f.severity, f.page, f.message, f.detail])).toEqual([
      [
        'LINK_FRAGMENTS_NOT_CHECKED',
        'warning',
        undefined,
        'fragments not checked: no fetched HTML page has an id or <a name> (an index crawled before they were recorded?); 2 links with a fragment, e.g. http://h/a#x',
        { links: 2, example: 'http://h/a#x' },
      ],
    ]);
    // Nothing to say when no link has a fragment to check.
    const plain = await index([{ id: 1, path: '/', fetch: page({ anchors: [] }) }, { id: 2, path: '/a', fetch: page({ anchors: [] }) }], [{ fromUrlId: 1, rawHref: 'a', metUrlId: 2 }]);
    expect(await codes(audit(plain))).toEqual([]);
  });
});

describe('audit: how links are written', () => {
  const site = (links: readonly LinkSpec[], home = '/'): Promise<IndexReader> =>
    index(
      [
        { id: 1, path: home, fetch: page() },
        { id: 2, path: '/a', fetch: page() },
        { id: 3, path: 'https://h/a', state: 'skipped' },
        { id: 4, path: 'http://h:8080/a', state: 'skipped' },
        { id: 5, path: 'http://h/a?q', fetch: page() },
      ],
      links,
    );

  it('LINK_NOT_CANONICAL from the crawl\'s REF_FOLDED_* codes, else (an older index) from the ladder rung', async () => {
    const reader = await site([
      { fromUrlId: 1, rawHref: 'HTTP://h:80/a', metUrlId: 2, findings: ['REF_FOLDED_SCHEME'], ladderRung: 'string', baseLevel: 'base-element' },
      { fromUrlId: 1, rawHref: '%61', metUrlId: 2, ladderRung: 'syntax' },
      { fromUrlId: 1, rawHref: 'a', metUrlId: 2, ladderRung: 'string' },
      { fromUrlId: 1, rawHref: 'x', metUrlId: 2, ladderRung: 'new' },
    ]);
    expect((await collect(audit(reader))).map((f) => [f.code, f.rawHref, f.detail])).toEqual([
      ['LINK_NOT_CANONICAL', 'HTTP://h:80/a', { rung: 'scheme', normalForm: `${H}/a` }],
      ['LINK_NOT_CANONICAL', '%61', { rung: 'syntax', normalForm: `${H}/a` }],
    ]);
  });

  it('LINK_MIXED_SCHEME both ways, on the same host only', async () => {
    const http = await site([
      { fromUrlId: 1, rawHref: 'https://h/a', metUrlId: 3 },
      { fromUrlId: 1, rawHref: 'http://h:8080/a', metUrlId: 4 },
    ]);
    expect((await collect(audit(http))).map((f) => [f.code, f.detail])).toEqual([['LINK_MIXED_SCHEME', { from: 'http', to: 'https' }]]);
    const https = await index(
      [
        { id: 1, path: 'https://h/', fetch: page() },
        { id: 2, path: 'http://h/x', state: 'skipped' },
      ],
      [{ fromUrlId: 1, rawHref: 'http://h/x', metUrlId: 2 }],
    );
    expect((await collect(audit(https)))).toEqual([
      expect.objectContaining({ code: 'LINK_MIXED_SCHEME', message: expect.stringContaining('an https page links to http') as string, detail: { from: 'https', to: 'http' } }),
    ]);
  });

  it('LINK_COULD_BE_RELATIVE: absolute and network-path hrefs to the own origin, where the base is the page', async () => {
    const reader = await site([
      { fromUrlId: 1, rawHref: 'http://h/a?q#f', metUrlId: 5, fragment: 'f' },
      { fromUrlId: 1, rawHref: ' //h/a', metUrlId: 2 },
      { fromUrlId: 1, rawHref: 'http://h/a', metUrlId: 2, baseLevel: 'base-element' },
      { fromUrlId: 1, rawHref: 'http://h/a', metUrlId: 2, element: 'link', attribute: 'href' },
      { fromUrlId: 1, rawHref: 'http://h/a', metUrlId: 2, element: 'http', attribute: 'link' },
      { fromUrlId: 1, rawHref: 'http://h:8080/a', metUrlId: 4 },
      { fromUrlId: 1, rawHref: '/a', metUrlId: 2 },
    ]);
    expect((await collect(audit(reader))).map((f) => [f.code, f.rawHref, f.detail])).toEqual([
      ['LINK_FRAGMENT_MISSING', 'http://h/a?q#f', { fragment: 'f' }],
      ['LINK_COULD_BE_RELATIVE', 'http://h/a?q#f', { relative: '/a?q#f' }],
      ['LINK_COULD_BE_RELATIVE', ' //h/a', { relative: '/a' }],
    ]);
  });

  it('LINK_BASE_MODES_DIFFER, unless the protocol rung proved both targets one resource', async () => {
    const reader = await index(
      [
        { id: 1, path: '/p', state: 'alias', aliasOf: 2, fetch: page() },
        { id: 2, path: '/p.en', fetch: page({ durationMs: undefined, finalUrl: `${H}/p` }) },
        { id: 3, path: '/p.en?x', fetch: page() },
      ],
      [
        { fromUrlId: 1, rawHref: '?x', metUrlId: 3, alternateTarget: `${H}/p?x` },
        { fromUrlId: 1, rawHref: 'p.en', metUrlId: 2, alternateTarget: `${H}/p` },
      ],
    );
    expect((await collect(audit(reader))).map((f) => [f.code, f.rawHref, f.detail])).toEqual([['LINK_BASE_MODES_DIFFER', '?x', { alternateTarget: `${H}/p?x` }]]);
  });

  it('href findings in catalog order, HREF_INVALID with its URI error, and nothing about a target when there is none', async () => {
    const reader = await site([
      { fromUrlId: 1, rawHref: ' a\\b c', metUrlId: 2, findings: ['HREF_UNENCODED_CHARACTER', 'HREF_BACKSLASH', 'HREF_SURROUNDING_WHITESPACE'] },
      { fromUrlId: 1, rawHref: 'http://a b/', findings: ['HREF_INVALID'], error: 'ERR_URI_BAD_HOST', rung: undefined, ladderRung: undefined },
      { fromUrlId: 1, rawHref: '../../a', metUrlId: 2, findings: ['REF_ABOVE_ROOT', 'SOME_FUTURE_CODE'] },
    ]);
    expect((await collect(audit(reader))).map((f) => [f.code, f.target, f.detail])).toEqual([
      ['HREF_SURROUNDING_WHITESPACE', `${H}/a`, {}],
      ['HREF_BACKSLASH', `${H}/a`, {}],
      ['HREF_UNENCODED_CHARACTER', `${H}/a`, {}],
      ['HREF_INVALID', undefined, { error: 'ERR_URI_BAD_HOST' }],
      ['REF_ABOVE_ROOT', `${H}/a`, {}],
    ]);
  });
});

describe('audit: pages, order, options and streaming', () => {
  it('page findings go to the page whose links they are (the final URL of a redirect), in catalog order, before its links', async () => {
    const reader = await index(
      [
        { id: 1, path: '/', fetch: page({ findings: ['BASE_CONTENT_BASE_USED', 'BASE_HREF_RELATIVE', 'BASE_CONTENT_LOCATION_IGNORED'] }) },
        { id: 2, path: '/lonely', fetch: page({ findings: ['HTML_REFRESH_INVALID'] }) },
        { id: 3, path: '/r', state: 'alias', aliasOf: 4, fetch: page({ finalUrl: `${H}/t`, redirects: [{ from: `${H}/r`, to: `${H}/t`, status: 301 }], findings: ['HTML_BASE_IN_BODY'] }) },
        { id: 4, path: '/t', fetch: page({ durationMs: undefined }) },
      ],
      [
        { fromUrlId: 1, rawHref: 'r', metUrlId: 3 },
        { fromUrlId: 4, rawHref: 'http://h/', metUrlId: 1 },
      ],
    );
    expect((await collect(audit(reader))).map((f) => [f.page, f.code])).toEqual([
      [`${H}/`, 'BASE_HREF_RELATIVE'],
      [`${H}/`, 'BASE_CONTENT_BASE_USED'],
      [`${H}/`, 'LINK_REDIRECT'],
      [`${H}/lonely`, 'HTML_REFRESH_INVALID'],
      [`${H}/t`, 'HTML_BASE_IN_BODY'],
      [`${H}/t`, 'LINK_COULD_BE_RELATIVE'],
    ]);
  });

  it('minSeverity leaves out what is below it; a bad option throws at once', async () => {
    const reader = await index(
      [
        { id: 1, path: '/', fetch: page() },
        { id: 2, path: '/x', fetch: page({ status: 404 }) },
      ],
      [
        { fromUrlId: 1, rawHref: 'mailto:a@b', findings: ['HREF_NOT_FETCHABLE'] },
        { fromUrlId: 1, rawHref: ' x', metUrlId: 2, findings: ['HREF_SURROUNDING_WHITESPACE'] },
      ],
    );
    expect(await codes(audit(reader))).toEqual(['HREF_NOT_FETCHABLE', 'HREF_SURROUNDING_WHITESPACE', 'LINK_BROKEN']);
    expect(await codes(audit(reader, { minSeverity: 'warning' }))).toEqual(['HREF_SURROUNDING_WHITESPACE', 'LINK_BROKEN']);
    expect(await codes(audit(reader, { minSeverity: 'error' }))).toEqual(['LINK_BROKEN']);
    expect(() => audit(reader, { minSeverity: 'fatal' as never })).toThrow(OptionError);
    expect(() => audit(reader, { minSeverity: 'fatal' as never })).toThrow('Expected `minSeverity` to be one of error, warning, info, got `fatal` (string)');
  });

  it('never prints a password', async () => {
    const reader = await index(
      [
        { id: 1, path: 'http://u:secret@h/', fetch: page() },
        { id: 2, path: 'http://u:secret@h/x', fetch: page({ status: 404 }) },
      ],
      [{ fromUrlId: 1, rawHref: 'http://u:secret@h/x', metUrlId: 2, findings: ['REF_FOLDED_SYNTAX'] }],
    );
    const text = JSON.stringify((await collect(audit(reader))));
    expect(text).not.toContain('secret');
    expect(text).toContain('http://u:***@h/x');
  });

  it('reads each list once, lazily, and streams the links: the first finding comes before the rest of the links are read', async () => {
    const pages = 1000;
    const urls = Array.from({ length: pages + 1 }, (_, i) => ({ id: i + 1, path: `/p${i}`, fetch: page() }));
    const links = Array.from({ length: pages }, (_, p) => ({ fromUrlId: p + 1, rawHref: ' x', metUrlId: p + 2, findings: ['HREF_SURROUNDING_WHITESPACE'] }));
    const reader = countingReader(await index(urls, links));
    const findings = audit(reader);
    expect(reader.passes).toMatchObject({ urls: 0, links: 0, fetches: 0 });
    expect((await findings.next()).value).toMatchObject({ page: `${H}/p0`, code: 'HREF_SURROUNDING_WHITESPACE' });
    expect(reader.pulled.links).toBeLessThanOrEqual(2);
    expect(await collect(findings)).toHaveLength(pages - 1);
    expect(reader.passes).toMatchObject({ urls: 1, links: 1, fetches: 1, edges: 0, forms: 0, aliases: 0 });
  });
});

describe('audit: the seeds', () => {
  it('SEED_BROKEN (an error) for a seed that answered 4xx or 5xx, or through its redirects; nothing for a seed that answered', async () => {
    const { createServer } = await import('node:http');
    const { crawl } = await import('../../../src/api.js');
    const { createFetcher } = await import('../../../src/fetch/index.js');
    const { MemoryStore } = await import('../../../src/store/index.js');
    const server = createServer((request, response) => {
      const path = request.url ?? '/';
      if (path === '/ok') response.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>');
      else if (path === '/private') response.writeHead(401, { 'content-type': 'text/html', 'www-authenticate': 'Basic' }).end();
      else if (path === '/moved') response.writeHead(301, { location: '/gone' }).end();
      else if (path === '/busy') response.writeHead(503, { 'content-type': 'text/html' }).end();
      else response.writeHead(404, { 'content-type': 'text/html' }).end('<p>no</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const fetcher = createFetcher({ refusePrivate: false });
    try {
      const store = new MemoryStore();
      const options = { store, fetcher, robots: false as const, allowPrivate: true, retries: 0, sitemap: false };
      await crawl([`${origin}/missing`, `${origin}/ok`], options);
      await crawl([`${origin}/private`, `${origin}/moved`], options);
      await crawl([`${origin}/busy`], options);
      const findings = await collect(audit(store.reader()));
      expect(findings.map((f) => [f.code, f.severity, f.verdict, f.page, f.detail])).toEqual([
        ['SEED_BROKEN', 'error', 'broken', `${origin}/missing`, { status: 404 }],
        ['SEED_BROKEN', 'error', 'broken', `${origin}/private`, { status: 401 }],
        ['SEED_BROKEN', 'error', 'broken', `${origin}/moved`, { status: 404, hops: 1, finalUrl: `${origin}/gone` }],
        // Not proved broken: a warning, which `--fail-on error` lets pass.
        ['SEED_UNVERIFIED', 'warning', 'unverified', `${origin}/busy`, { status: 503 }],
      ]);
      expect(findings[0]!.message).toBe('the seed answered 404: the crawl could not start there');
      expect(findings[3]!.message).toBe('the seed answered 503 (a server error: try again later): the crawl could not start there');
    } finally {
      await fetcher.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
