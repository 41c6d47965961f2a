import { describe, expect, it } from 'vitest';
import { runCrawler, explain } from '../../src/crawl/index.js';
import { MemoryStore, SqliteStore } from '../../src/store/index.js';
import { FakeSite, page } from './fake-site.js';

const S = 'http://site.test';

async function crawled() {
  const store = new SqliteStore({ path: ':memory:' });
  const fetcher = new FakeSite({
    [`${S}/`]: { body: page('/doc/page.html', '/old', 'http://other.test/', '/pic.png', '/missing') + '<img src="/img.png">' },
    [`${S}/doc/page.html`]: { headers: { 'Content-Location': 'page.html.en' }, body: page('#x') },
    [`${S}/old`]: { redirect: '/new' },
    [`${S}/new`]: { body: page() },
  });
  // Resources and external links not checked: this index holds skipped URLs to explain.
  await runCrawler({ seeds: `${S}/`, store, fetcher, checkResources: false, checkExternal: false });
  return store;
}

describe('explain', () => {
  it('a negotiated URL: merged into its variant, which was fetched with it', async () => {
    const store = await crawled();
    const why = await explain(store, 'HTTP://site.test:80/doc/page.html#top');
    expect(why).toMatchObject({ key: `${S}/doc/page.html`, spelling: 'scheme', verdict: 'merged', error: undefined });
    expect(why.aliasChain.map((u) => u.key)).toEqual([`${S}/doc/page.html`, `${S}/doc/page.html.en`]);
    expect(why.resource).toMatchObject({ key: `${S}/doc/page.html.en`, state: 'done' });
    expect(why.reason).toBe(
      `merged into ${S}/doc/page.html.en: requested once, and the server answered with Content-Location: page.html.en; links to it name ${S}/doc/page.html.en and fetch nothing`,
    );
    expect(why.evidence).toEqual([expect.objectContaining({ evidence: 'content-location', detail: 'page.html.en' })]);
    expect(why.firstLink).toEqual({ fromUrlId: 1, fromKey: `${S}/`, rawHref: '/doc/page.html', element: 'a', attribute: 'href' });
    expect(why.fetches.map((f) => f.status)).toEqual([200]);
    expect(await explain(store, `${S}/doc/page.html.en`)).toMatchObject({ verdict: 'fetched', spelling: 'string' });
    expect(await explain(store, `${S}/doc/page%2Ehtml.en`)).toMatchObject({ verdict: 'fetched', spelling: 'syntax' });
    await store.close();
  });

  it('a redirect, a 404, an unknown URL, an invalid one', async () => {
    const store = await crawled();
    const old = await explain(store, `${S}/old`);
    expect(old.verdict).toBe('merged');
    expect(old.reason).toMatch(/^merged into http:\/\/site\.test\/new: requested once, and the server answered with a redirect \(30\d\)/);
    expect(old.fetches[0]?.redirects).toEqual([{ from: `${S}/old`, to: `${S}/new`, status: expect.any(Number) }]);
    expect((await explain(store, `${S}/new`)).reason).toMatch(/^fetched once, with another URL’s response \(status 200\)/);
    expect(await explain(store, `${S}/missing`)).toMatchObject({ verdict: 'fetched', reason: expect.stringMatching(/by a request of its own \(status 404\)/) });
    expect(await explain(store, `${S}/never`)).toMatchObject({ verdict: 'unknown', url: undefined, aliasChain: [] });
    expect(await explain(store, 'http://exa mple/')).toMatchObject({ verdict: 'unknown', error: 'ERR_URI_BAD_HOST' });
    expect(await explain(store, '/relative')).toMatchObject({ verdict: 'unknown', error: 'ERR_URI_NOT_ABSOLUTE' });
    await store.close();
  });

  it('a skipped URL, with the scope when given', async () => {
    const store = await crawled();
    expect((await explain(store, 'http://other.test/')).verdict).toBe('skipped');
    const scoped = await explain(store, 'http://other.test/', { seeds: [`${S}/`] });
    expect(scoped.scope).toEqual({ isInScope: false, reason: `out of scope (origin ${S})` });
    expect(scoped.reason).toBe(`recorded, not fetched: out of scope (origin ${S})`);
    const img = await explain(store, `${S}/img.png`, { seeds: [`${S}/`] });
    expect(img).toMatchObject({ verdict: 'skipped', scope: { isInScope: true, reason: undefined } });
    expect(img.firstLink).toEqual({ fromUrlId: 1, fromKey: `${S}/`, rawHref: '/img.png', element: 'img', attribute: 'src' });
    expect(img.reason).toBe('recorded, not fetched: not followed: <img src>');
    expect(img.fetches).toEqual([]);
    await store.close();
  });

  it("a crawl given scope roots (check's folders) is explained by those roots, as the crawl judged it, not by its seeds", async () => {
    const store = new SqliteStore({ path: ':memory:' });
    const fetcher = new FakeSite({
      [`${S}/docs/a.html`]: { body: page('/blog/c.html', 'http://other.test/') },
      [`${S}/blog/c.html`]: { body: page() },
    });
    // The seed is a page under /docs/; the scope root is the site's folder, as `check` plans a folder given with one of its files.
    await runCrawler({ seeds: `${S}/docs/a.html`, scopeRoots: [`${S}/`], scope: 'prefix', store, fetcher, checkExternal: false });
    expect(await explain(store, `${S}/blog/c.html`)).toMatchObject({ verdict: 'fetched', scope: { isInScope: true } });
    expect(await explain(store, 'http://other.test/')).toMatchObject({ verdict: 'skipped', scope: { isInScope: false, reason: `out of scope (prefix ${S}/)` } });
    await store.close();
  });

  it('a URL fetched by a run that did not verify certificates says so (--insecure)', async () => {
    const store = new SqliteStore({ path: ':memory:' });
    await runCrawler({ seeds: `${S}/`, store, fetcher: new FakeSite({ [`${S}/`]: { body: page() } }), insecure: true });
    expect((await explain(store, `${S}/`)).reason).toMatch(/; TLS certificates were not verified in that run \(run 1, --insecure\)$/);
    await store.close();
  });

  it('a URL not requested because its host was paused: not said to be requested', async () => {
    const store = new MemoryStore();
    const dead = ['http://dead.test/1', 'http://dead.test/2', 'http://dead.test/3', 'http://dead.test/4', 'http://dead.test/5'];
    const fetcher = new FakeSite({
      [`${S}/`]: { body: page(...dead) },
      ...Object.fromEntries(dead.map((url) => [url, { errorCode: 'ERR_FETCH_CONNECTION_REFUSED' }])),
    });
    await runCrawler({ seeds: `${S}/`, store, fetcher, retries: 0, retryDelayMs: 0 });
    expect((await explain(store, 'http://dead.test/1')).reason).toMatch(/requested without a usable response: ERR_FETCH_CONNECTION_REFUSED/);
    expect((await explain(store, 'http://dead.test/5')).reason).toMatch(
      /not requested: its host \(http:\/\/dead\.test\) did not answer the requests before it and was paused for the run \(ERR_CRAWL_HOST_UNREACHABLE\)$/,
    );
    await store.close();
  });

  it('a queued URL', async () => {
    const store = new MemoryStore();
    await store.admit([{ rawHref: `${S}/`, target: `${S}/`, depth: 0 }]);
    expect(await explain(store, `${S}/`)).toMatchObject({ verdict: 'queued', reason: 'on the frontier at depth 0: the next crawl fetches it' });
  });
});
