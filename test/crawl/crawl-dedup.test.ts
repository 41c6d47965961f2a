// Every resource of a site fetched exactly once, whatever way its links are
// written: the ladder's rungs, redirects and Content-Location.

import { describe, expect, it } from 'vitest';
import { runCrawler, type CrawlEvent, type CrawlerOptions, type EvidenceEvent } from '../../src/crawl/index.js';
import { MemoryStore, SqliteStore, type IndexWriter } from '../../src/store/index.js';
import { FakeSite, page, type FakeResource } from './fake-site.js';

const stores: [string, () => IndexWriter][] = [
  ['MemoryStore', () => new MemoryStore()],
  ['SqliteStore', () => new SqliteStore({ path: ':memory:' })],
];

const S = 'http://site.test';

function site(resources: Record<string, FakeResource>): Record<string, FakeResource> {
  return Object.fromEntries(Object.entries(resources).map(([path, resource]) => [S + path, resource]));
}

async function run(resources: Record<string, FakeResource>, store: IndexWriter, options: Partial<CrawlerOptions> = {}) {
  const fetcher = new FakeSite(site(resources));
  const events: CrawlEvent[] = [];
  // Requests counted: no sitemap (/sitemap.xml is read by default; test/crawl/sitemap-seeds.test.ts).
  const summary = await runCrawler({ seeds: `${S}/`, store, fetcher, onEvent: (e) => events.push(e), sitemap: false, ...options } as CrawlerOptions);
  return { fetcher, events, summary };
}

/** A site whose links spell the same few resources in every way RFC 3986 allows. */
const SPELLINGS: Record<string, FakeResource> = {
  '/': {
    body: page(
      '/dir', // 301 → /dir/
      'HTTP://SITE.TEST/a.html', // syntax: case of scheme and host
      'http://site.test:80/a.html', // scheme: default port
      './a.html', // resolution: dot segment
      'a.html#top', // fragment
      '/x/../a.html', // resolution: remove_dot_segments
      '%7Euser/', // syntax: %7E is "~"
      '~user/',
      '/doc/page.html', // Content-Location: page.html.en
      '#frag', // same document
      '', // same document
      '/old', // 301 → /a.html, already fetched by then
      '/dir/', // the end of the /dir redirect
    ),
  },
  '/dir': { redirect: '/dir/' },
  '/dir/': { body: page('../a.html', './', '../dir', 'index#x') },
  '/dir/index': { body: page('/') },
  '/a.html': { body: page('/', 'dir/', '/doc/page.html.en', 'http://site.test/%7euser/') },
  '/~user/': { body: page('../a.html', '/a.html#x') },
  '/doc/page.html': {
    headers: { 'Content-Location': 'page.html.en' },
    body: page('#x', 'page.html.en', 'page.html.en#y', 'other.html', ''),
  },
  '/doc/page.html.en': {
    headers: { 'Content-Location': 'page.html.en' },
    body: page('#x', 'page.html.en', 'page.html.en#y', 'other.html', ''),
  },
  '/doc/other.html': { body: page('page.html.en', 'page.html', './page.html#y', '../doc/page.html.en#z') },
  '/old': { redirect: '/a.html' },
};

describe.each(stores)('every resource fetched exactly once (%s)', (_name, open) => {
  it('whatever way its links are written: case, %7E, :80, dot segments, fragments, redirects, Content-Location', async () => {
    const store = open();
    const { fetcher, summary } = await run(SPELLINGS, store);
    // The crawler asked for each resource once …
    const counts = fetcher.callCounts();
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect([...counts.keys()].sort()).toEqual(
      ['/', '/a.html', '/dir', '/dir/index', '/doc/other.html', '/doc/page.html', '/old', '/~user/'].map((p) => S + p).sort(),
    );
    // … and the server saw each once: the redirect of /old to /a.html, fetched
    // before, ends at the hop (the fetcher's redirect hook), not with a second request.
    for (const path of ['/', '/dir', '/dir/', '/dir/index', '/~user/', '/doc/page.html', '/doc/other.html', '/old', '/a.html']) {
      expect(fetcher.requestCount(S + path), path).toBe(1);
    }
    // The negotiated variant was never requested: its representation came with /doc/page.html.
    expect(fetcher.requestCount(`${S}/doc/page.html.en`)).toBe(0);
    expect(summary.stoppedBy).toBe('frontier-empty');
    expect(summary.representationsReused).toBe(2); // /dir/ and /doc/page.html.en
    expect(summary.aliasesLearned).toEqual({ redirect: 2, 'content-location': 1, canonical: 0, digest: 0, rule: 0 });
    expect(summary.index.urlsByState.queued).toBe(0);
    expect(summary.index.urlsByState.fetching).toBe(0);
    await store.close();
  });

  it('records what the protocol rung learned: hops and negotiated URLs are aliases, their targets fetched', async () => {
    const store = open();
    await run(SPELLINGS, store);
    const variant = (await store.findUrl(`${S}/doc/page.html.en`))!;
    expect(variant.state).toBe('done');
    expect(await store.findUrl(`${S}/doc/page.html`)).toMatchObject({ state: 'alias', aliasOf: variant.id });
    const dirSlash = (await store.findUrl(`${S}/dir/`))!;
    expect(dirSlash.state).toBe('done');
    expect(await store.findUrl(`${S}/dir`)).toMatchObject({ state: 'alias', aliasOf: dirSlash.id });
    expect(await store.findUrl(`${S}/old`)).toMatchObject({ state: 'alias', aliasOf: (await store.findUrl(`${S}/a.html`))!.id });
    // Links met known URLs at every rung, protocol included.
    const stats = await store.stats();
    expect(stats.linksByRung.syntax).toBeGreaterThan(0);
    expect(stats.linksByRung.scheme).toBeGreaterThan(0);
    expect(stats.linksByRung.protocol).toBeGreaterThan(0);
    await store.close();
  });

  it('a redirect to a URL fetched before: the crawler asks for neither again', async () => {
    const store = open();
    const { fetcher } = await run(
      {
        '/': { body: page('/target', '/moved') },
        '/target': { body: page('/moved', '/target') },
        '/moved': { status: 308, redirect: 'target' },
      },
      store,
    );
    expect(fetcher.calls.map((c) => c.slice(S.length))).toEqual(['/', '/target', '/moved']);
    // The server is not asked for /target a second time: the fetcher stops at the hop.
    expect(fetcher.requests.map((c) => c.slice(S.length))).toEqual(['/', '/target', '/moved']);
    expect(await store.findUrl(`${S}/moved`)).toMatchObject({ state: 'alias', aliasOf: (await store.findUrl(`${S}/target`))!.id });
    await store.close();
  });

  it('a redirect to a URL claimed but not yet fetched: that URL is settled, and skipped when its turn comes', async () => {
    const store = open();
    const { fetcher, summary } = await run({ '/': { body: page('/r', '/t') }, '/r': { redirect: '/t' }, '/t': { body: page('/') } }, store);
    expect(fetcher.calls.map((c) => c.slice(S.length))).toEqual(['/', '/r']);
    expect((await store.findUrl(`${S}/t`))?.state).toBe('done');
    expect(summary.representationsReused).toBe(1);
    expect(summary.index.urlsByState.fetching).toBe(0);
    await store.close();
  });

  it('a redirect chain A → B → C makes A and B aliases of C, and C is not fetched again', async () => {
    const store = open();
    const { fetcher, summary } = await run(
      {
        '/': { body: page('/a', '/b', '/c') },
        '/a': { redirect: '/b' },
        '/b': { redirect: '/c' },
        '/c': { body: page('/a', '/b') },
      },
      store,
    );
    expect(fetcher.calls.map((c) => c.slice(S.length))).toEqual(['/', '/a']);
    expect(summary.aliasesLearned.redirect).toBe(2);
    const c = (await store.findUrl(`${S}/c`))!;
    expect((await store.findUrl(`${S}/a`))?.aliasOf).toBe(c.id);
    expect((await store.findUrl(`${S}/b`))?.aliasOf).toBe(c.id);
    await store.close();
  });

  it('each fetch row says which URL it stands for: the end of its redirects, its own URL, or the URL requested', async () => {
    const store = open();
    await run(
      {
        '/': { body: page('/a', '/gone', '/neg') },
        '/a': { redirect: '/c' },
        '/c': { body: page() },
        '/neg': { headers: { 'Content-Location': 'neg.en' }, body: page() },
      },
      store,
    );
    const id = async (path: string): Promise<number> => (await store.findUrl(S + path))!.id;
    const represents = async (path: string) => (await store.history(await id(path)))?.fetches.map((f) => f.representsUrlId);
    expect(await represents('/')).toEqual([await id('/')]);
    // A's request ended at C: it stands for C's representation, and C's row (from that response) for C.
    expect(await represents('/a')).toEqual([await id('/c')]);
    expect(await represents('/c')).toEqual([await id('/c')]);
    // A 404 is a response of its own URL; Content-Location makes an alias, not another representation.
    expect(await represents('/gone')).toEqual([await id('/gone')]);
    expect(await represents('/neg')).toEqual([await id('/neg')]);
    expect(await represents('/neg.en')).toEqual([await id('/neg.en')]);
    await store.close();
  });
});

describe('RFC 3986 base chain against browser mode', () => {
  // Apache content negotiation: every page answers with the
  // Content-Location of its variant, and pages link to variants and to negotiated URLs.
  const MULTIVIEWS: Record<string, FakeResource> = {
    '/': { body: page('/manual/') },
    '/manual/': {
      headers: { 'Content-Location': 'index.html.en' },
      body: page('mod/core.html', '#top', 'index.html.en', '', 'mod/'),
    },
    '/manual/mod/': { headers: { 'Content-Location': 'index.html.en' }, body: page('core.html', '../', 'index.html.en#x') },
    '/manual/mod/core.html': {
      headers: { 'Content-Location': 'core.html.en' },
      body: page('#x', 'core.html.en#y', '../', '../index.html.en', 'directives.html', '?', 'core.html'),
    },
    '/manual/mod/core.html.en': { headers: { 'Content-Location': 'core.html.en' }, body: page('#x') },
    '/manual/mod/directives.html': {
      headers: { 'Content-Location': 'directives.html.en' },
      body: page('core.html.en', 'core.html#x', 'directives.html.en#top'),
    },
  };

  it('rfc3986 makes no more requests than browser mode, and never requests a variant', async () => {
    const rfc = await run(MULTIVIEWS, new MemoryStore(), { baseMode: 'rfc3986' });
    const browser = await run(MULTIVIEWS, new MemoryStore(), { baseMode: 'browser' });
    expect(rfc.fetcher.requests.length).toBeLessThanOrEqual(browser.fetcher.requests.length);
    expect(rfc.fetcher.requests.filter((r) => r.endsWith('.en'))).toEqual([]);
    // "?" names another resource (the query), in both modes: core.html? in browser mode, core.html.en? in rfc3986.
    expect(rfc.fetcher.calls.map((c) => c.slice(S.length)).sort()).toEqual(
      ['/', '/manual/', '/manual/mod/', '/manual/mod/core.html', '/manual/mod/core.html.en?', '/manual/mod/directives.html'].sort(),
    );
    const pages = rfc.events.filter((e) => e.type === 'page');
    expect(pages.find((e) => e.url === `${S}/manual/mod/core.html`)).toMatchObject({ baseLevel: 'content-location', baseLevelsDiffer: true });
  });
});

describe('same-document references (RFC 3986 §4.4)', () => {
  it('are never fetched: their edge points at the page itself', async () => {
    const store = new MemoryStore();
    const { fetcher, summary } = await run(
      {
        '/': { body: page('/p/index.html') },
        '/p/index.html': { body: page('#a', '', 'index.html#b', '/p/index.html', 'http://SITE.test:80/p/index.html#c', './index.html') },
      },
      store,
    );
    expect(fetcher.calls.map((c) => c.slice(S.length))).toEqual(['/', '/p/index.html']);
    expect(summary.links).toBe(7);
    expect(summary.linksByRung.new).toBe(1); // only the link from / to /p/index.html
  });

  it('a reference that resolves to the <base href> is the same document (RFC 3986 §4.4): no fetch of the base', async () => {
    const store = new MemoryStore();
    const { fetcher } = await run(
      {
        '/': { body: '<base href="/other/"><a href="">self</a><a href="#x">frag</a><a href="x.html">x</a>' },
        '/other/x.html': { body: page() },
        '/other/': { body: page() },
      },
      store,
    );
    expect(fetcher.calls.map((c) => c.slice(S.length))).toEqual(['/', '/other/x.html']);
  });
});

describe('lying evidence', () => {
  const everyPageSaysSlash: Record<string, FakeResource> = {
    '/': { headers: { 'Content-Location': '/' }, body: page('/a', '/b', '/dir/c') },
    '/a': { headers: { 'Content-Location': '/' }, body: '<p>a</p>' },
    '/b': { headers: { 'Content-Location': '/' }, body: '<p>b</p>' },
    '/dir/c': { headers: { 'Content-Location': '/' }, body: '<p>c</p>' },
  };

  it.each(['negotiated', 'same-origin'] as const)(
    'Content-Location: / on every page does not make the whole site one resource (%s)',
    async (policy) => {
      const store = new MemoryStore();
      const { fetcher, summary, events } = await run(everyPageSaysSlash, store, { contentLocationAlias: policy });
      expect(fetcher.calls.map((c) => c.slice(S.length)).sort()).toEqual(['/', '/a', '/b', '/dir/c']);
      expect(summary.aliasesLearned['content-location']).toBe(0);
      expect(summary.evidenceRejected).toBe(3);
      expect(events.filter((e): e is EvidenceEvent => e.type === 'evidence').every((e) => e.action === 'rejected')).toBe(true);
      for (const path of ['/a', '/b', '/dir/c']) expect((await store.findUrl(S + path))?.state).toBe('done');
    },
  );

  it('two responses that claim one URL with different bodies revoke the alias and queue that URL', async () => {
    const store = new MemoryStore();
    const { fetcher, summary, events } = await run(
      {
        '/': { body: page('/a', '/b') },
        '/a': { headers: { 'Content-Location': '/shared' }, body: '<p>a</p>' },
        '/b': { headers: { 'Content-Location': '/shared' }, body: '<p>b</p>' },
        '/shared': { body: '<p>shared</p>' },
      },
      store,
      { contentLocationAlias: 'same-origin' },
    );
    // /shared was first taken for /a's representation, then contradicted by /b's: fetched on its own.
    expect(fetcher.calls.map((c) => c.slice(S.length))).toEqual(['/', '/a', '/b', '/shared']);
    expect(summary.evidenceRevoked).toBe(1);
    expect(events.filter((e) => e.type === 'evidence').map((e) => (e as EvidenceEvent).action)).toEqual(['learned', 'revoked', 'rejected']);
    for (const path of ['/a', '/b', '/shared']) expect(await store.findUrl(S + path)).toMatchObject({ state: 'done', aliasOf: undefined });
    expect((await store.stats()).aliasesByEvidence['content-location']).toBe(0);
  });

  it('two responses that claim one URL with the same body both become its aliases', async () => {
    const store = new MemoryStore();
    const { fetcher, summary } = await run(
      {
        '/': { body: page('/doc/', '/doc/index') },
        '/doc/': { headers: { 'Content-Location': 'index.html.en' }, body: '<p>same</p>' },
        '/doc/index': { headers: { 'Content-Location': 'index.html.en' }, body: '<p>same</p>' },
      },
      store,
    );
    expect(fetcher.calls.map((c) => c.slice(S.length))).toEqual(['/', '/doc/', '/doc/index']);
    expect(summary.aliasesLearned['content-location']).toBe(2);
    expect(summary.representationsReused).toBe(1);
  });

  it('Content-Location and redirects to another origin are recorded, never aliases', async () => {
    const store = new MemoryStore();
    const fetcher = new FakeSite({
      [`${S}/`]: { body: page('/cl', '/go') },
      [`${S}/cl`]: { headers: { 'Content-Location': 'http://mirror.test/cl' }, body: '<p>cl</p>' },
      [`${S}/go`]: { redirect: 'https://site.test/go' },
      'https://site.test/go': { body: page('/x') },
    });
    const summary = await runCrawler({ seeds: `${S}/`, store, fetcher, scope: 'host' });
    expect(summary.aliasesLearned).toEqual({ redirect: 0, 'content-location': 0, canonical: 0, digest: 0, rule: 0 });
    expect(summary.evidenceRejected).toBe(2);
    // https://site.test/go is in scope (host): its representation came with /go, so it is not fetched again,
    // and its links were read.
    expect((await store.findUrl('https://site.test/go'))?.state).toBe('done');
    expect((await store.findUrl(`${S}/go`))?.state).toBe('done');
    expect(fetcher.callCounts().get('https://site.test/go')).toBeUndefined();
    expect(fetcher.callCounts().get('https://site.test/x')).toBe(1);
  });
});

describe('canonical links and the Link header', () => {
  it('<link rel=canonical> is recorded as evidence, never obeyed', async () => {
    const store = new MemoryStore();
    const { fetcher, summary } = await run(
      {
        '/': { body: '<link rel=canonical href="/canon"><a href="/canon">c</a><a href="/page?utm=1">p</a>' },
        '/canon': { body: page() },
        '/page?utm=1': { body: '<link rel="canonical" href="/canon">' },
      },
      store,
    );
    expect(summary.aliasesLearned.canonical).toBe(2);
    expect(fetcher.calls.map((c) => c.slice(S.length))).toEqual(['/', '/canon', '/page?utm=1']);
    expect((await store.findUrl(`${S}/page?utm=1`))?.state).toBe('done');
  });

  it('Link header references are recorded (resolved against the header base), followed when `link` is followed', async () => {
    const resources: Record<string, FakeResource> = {
      '/': { headers: { Link: '</next>; rel="next", <style.css>; rel=stylesheet' }, body: '<base href="/elsewhere/">' },
      '/next': { body: page() },
      '/style.css': { contentType: 'text/css' },
    };
    const recorded = await run(resources, new MemoryStore(), { checkResources: false });
    expect(recorded.summary.links).toBe(2);
    expect(recorded.fetcher.calls).toEqual([`${S}/`]);
    // rel=stylesheet: a resource the page uses; rel=next: another document. Each checked once, neither read.
    const checked = await run(resources, new MemoryStore());
    expect(checked.fetcher.calls.map((c) => c.slice(S.length)).sort()).toEqual(['/', '/next', '/style.css']);
    const followed = await run(resources, new MemoryStore(), { follow: ['navigation', 'link'] });
    expect(followed.fetcher.calls.map((c) => c.slice(S.length))).toEqual(['/', '/next', '/style.css']);
  });
});

describe('hrefs written for browsers', () => {
  it('are cleaned as browsers do, reported, and met at their key', async () => {
    const store = new MemoryStore();
    const { fetcher, summary, events } = await run(
      {
        '/': { body: page('  /a b\t', '/a%20b', '/a%20\nb', '\\a%20b', 'http://[bad/', 'javascript:void(0)') },
        '/a%20b': { body: page() },
      },
      store,
    );
    expect(fetcher.calls.map((c) => c.slice(S.length))).toEqual(['/', '/a%20b']);
    expect(summary.hrefFindings).toMatchObject({ HREF_SURROUNDING_WHITESPACE: 1, HREF_TAB_OR_NEWLINE: 1, HREF_UNENCODED_CHARACTER: 1, HREF_BACKSLASH: 1, HREF_INVALID: 1, HREF_NOT_FETCHABLE: 1 });
    const first = events.find((e) => e.type === 'page');
    expect(first?.type === 'page' && first.hrefFindings.map((f) => f.rawHref)).toEqual(['  /a b\t', '/a%20\nb', '\\a%20b', 'http://[bad/', 'javascript:void(0)']);
    expect((await store.stats()).linksWithoutTarget).toBe(1);
  });
});
