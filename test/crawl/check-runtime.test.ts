// Two runtime options that a folder check needs: the scope measured from roots
// instead of the seeds (every file is a seed, the scope is the folder), and the
// external links of some pages left unchecked (only what changed is checked).

import { describe, expect, it } from 'vitest';
import { runCrawler, type CrawlerOptions } from '../../src/crawl/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { FakeSite, type FakeResource } from './fake-site.js';

const S = 'http://site.test';
const X = 'http://other.test';

async function run(resources: Record<string, FakeResource>, options: Partial<CrawlerOptions>) {
  const fetcher = new FakeSite(resources);
  const store = new MemoryStore();
  try {
    const summary = await runCrawler({ store, fetcher, sitemap: false, retries: 0, ...options } as CrawlerOptions);
    return { fetcher, summary };
  } finally {
    await store.close();
  }
}

describe('scopeRoots', () => {
  const resources: Record<string, FakeResource> = {
    [`${S}/docs/a/page.html`]: { body: '<a href="../b/other.html">b</a> <a href="/blog/">blog</a>' },
    [`${S}/docs/b/other.html`]: { body: '<a href="more.html">more</a>' },
    [`${S}/docs/b/more.html`]: { body: 'end' },
    [`${S}/blog/`]: { body: '<a href="/blog/2.html">2</a>' },
    [`${S}/blog/2.html`]: { body: 'no' },
  };

  it('keeps a prefix crawl to the root, not to the seeds\' directories', async () => {
    const { fetcher } = await run(resources, { seeds: [`${S}/docs/a/page.html`], scope: 'prefix', scopeRoots: [`${S}/docs/`], checkExternal: false });
    expect(fetcher.calls.sort()).toEqual([`${S}/docs/a/page.html`, `${S}/docs/b/more.html`, `${S}/docs/b/other.html`]);
  });

  it('without it, the seeds\' directories are the scope', async () => {
    const { fetcher } = await run(resources, { seeds: [`${S}/docs/a/page.html`], scope: 'prefix', checkExternal: false });
    expect(fetcher.calls).toEqual([`${S}/docs/a/page.html`]);
  });

  it('refuses a root that is not an absolute http(s) URL', async () => {
    await expect(run(resources, { seeds: [`${S}/docs/a/page.html`], scopeRoots: ['docs/'] })).rejects.toThrow(/scopeRoots/);
  });
});

describe('isExternalChecked', () => {
  const resources: Record<string, FakeResource> = {
    [`${S}/`]: { body: `<a href="changed.html">c</a> <a href="${X}/from-index">x</a>` },
    [`${S}/changed.html`]: { body: `<a href="${X}/from-changed">x</a> <img src="${X}/img.png">` },
    [`${X}/from-index`]: { body: 'x' },
    [`${X}/from-changed`]: { body: 'x' },
    [`${X}/img.png`]: { body: 'x', contentType: 'image/png' },
  };

  it('checks the external links of the pages it accepts only', async () => {
    const { fetcher } = await run(resources, { seeds: [`${S}/`], isExternalChecked: (page) => page.endsWith('/changed.html') });
    expect(fetcher.calls.sort()).toEqual([`${S}/`, `${S}/changed.html`, `${X}/from-changed`, `${X}/img.png`].sort());
  });

  it('checks every page\'s by default', async () => {
    const { fetcher } = await run(resources, { seeds: [`${S}/`] });
    expect(fetcher.calls).toContain(`${X}/from-index`);
  });
});
