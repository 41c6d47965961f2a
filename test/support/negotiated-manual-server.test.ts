// The generated negotiated manual (test/support/negotiated-manual-server.ts) behaves
// as Apache serving its manual does: language fallback with Content-Location inside
// the requested directory, declared alternates, broken links, and a request log that
// names the file each request resolved to; and its `unique` mode has no duplicates.

import { afterEach, describe, expect, it } from 'vitest';
import { startNegotiatedManual, type NegotiatedManual } from './negotiated-manual-server.js';

let manual: NegotiatedManual | undefined;

afterEach(async () => {
  await manual?.close();
  manual = undefined;
});

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: string }> {
  const response = await fetch(url, { headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** The hrefs of a page's `<a>` elements. */
function anchors(html: string): string[] {
  return [...html.matchAll(/<a href="([^"]*)"/g)].map((match) => match[1]!);
}

function alternates(html: string): { anchors: string[]; links: string[] } {
  return {
    anchors: [...html.matchAll(/<a href="([^"]*)" hreflang="([^"]*)" rel="alternate"/g)].map((match) => `${match[2]} ${match[1]}`),
    links: [...html.matchAll(/<link rel="alternate" hreflang="([^"]*)" href="([^"]*)">/g)].map((match) => `${match[1]} ${match[2]}`),
  };
}

/**
 * A breadth-first crawl that follows `<a href>` within /manual/, fragments dropped,
 * each URL requested once: what the server's duplicates cost a crawler that knows
 * nothing but URLs.
 */
async function crawlAnchors(seed: string): Promise<{ urls: Set<string>; broken: Set<string>; bodies: Map<string, string> }> {
  const seen = new Set([seed]);
  const queue = [seed];
  const broken = new Set<string>();
  const bodies = new Map<string, string>();
  while (queue.length > 0) {
    const url = queue.shift()!;
    const response = await get(url);
    if (response.status >= 400) {
      broken.add(url);
      continue;
    }
    bodies.set(url, response.body);
    for (const href of anchors(response.body)) {
      const target = new URL(href, url);
      target.hash = '';
      if (target.origin !== new URL(seed).origin || !target.pathname.startsWith('/manual/') || seen.has(target.href)) continue;
      seen.add(target.href);
      queue.push(target.href);
    }
  }
  return { urls: seen, broken, bodies };
}

describe('startNegotiatedManual: fallback mode', () => {
  it('serves 30 pages in en, de, fr by default, the index in every language, some pages translated', async () => {
    manual = await startNegotiatedManual();
    expect(manual.pages).toHaveLength(30);
    expect(manual.pages.slice(0, 4)).toEqual(['index.html', 'mod/p1.html', 'howto/p2.html', 'p3.html']);
    expect(manual.seed).toBe(`${manual.origin}/manual/en/index.html`);
    expect(manual.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const variants = [...manual.treeFiles].filter((file) => file !== 'style/manual.css');
    expect(variants.filter((file) => file.endsWith('.en'))).toHaveLength(30);
    // The index (0) and pages 3, 6 … 27 in German; the index and 4, 8 … 28 in French.
    expect(variants.filter((file) => file.endsWith('.de'))).toHaveLength(1 + 9);
    expect(variants.filter((file) => file.endsWith('.fr'))).toHaveLength(1 + 7);
  });

  it('answers a missing translation 200 with the English bytes and Content-Location naming the English variant in the requested directory', async () => {
    manual = await startNegotiatedManual();
    const german = await get(`${manual.origin}/manual/de/mod/p1.html`);
    const english = await get(`${manual.origin}/manual/en/mod/p1.html`);
    expect(german.status).toBe(200);
    expect(german.headers.get('content-location')).toBe('p1.html.en');
    expect(german.headers.get('content-language')).toBe('en');
    expect(german.headers.get('vary')).toBe('negotiate,accept-language');
    expect(german.body).toBe(english.body);
    expect(german.body).toBe(manual.body('mod/p1.html.en'));
    expect(english.headers.get('content-location')).toBe('p1.html.en');
  });

  it('answers a translation with its own body and Content-Location naming its variant', async () => {
    manual = await startNegotiatedManual();
    const german = await get(`${manual.origin}/manual/de/p3.html`);
    const english = await get(`${manual.origin}/manual/en/p3.html`);
    expect(german.status).toBe(200);
    expect(german.headers.get('content-location')).toBe('p3.html.de');
    expect(german.headers.get('content-language')).toBe('de');
    expect(german.body).not.toBe(english.body);
    expect(german.body).toContain('<html lang="de">');
    expect(german.body).toBe(manual.body('p3.html.de'));
  });

  it('negotiates /manual/ without a prefix: English, or the Accept-Language one that exists', async () => {
    manual = await startNegotiatedManual();
    const root = await get(`${manual.origin}/manual/`);
    expect(root.status).toBe(200);
    expect(root.headers.get('content-location')).toBe('index.html.en');
    expect(root.body).toBe(manual.body('index.html.en'));
    const french = await get(`${manual.origin}/manual/mod/p4.html`, { 'accept-language': 'fr;q=0.9, de;q=0.5' });
    expect(french.headers.get('content-location')).toBe('p4.html.fr');
    const none = await get(`${manual.origin}/manual/mod/p4.html`, { 'accept-language': 'de' });
    expect(none.headers.get('content-location')).toBe('p4.html.en');
    expect((await get(`${manual.origin}/manual`)).headers.get('location')).toBe('/manual/');
    expect((await get(`${manual.origin}/manual/de`)).headers.get('location')).toBe('/manual/de/');
  });

  it('serves a variant named in full as a plain file, under any prefix', async () => {
    manual = await startNegotiatedManual();
    const named = await get(`${manual.origin}/manual/fr/mod/p1.html.en`);
    expect(named.status).toBe(200);
    expect(named.headers.get('content-location')).toBeNull();
    expect(named.body).toBe(manual.body('mod/p1.html.en'));
  });

  it('declares the variants that exist with <a hreflang> and <link rel=alternate hreflang>', async () => {
    manual = await startNegotiatedManual();
    // p12: German (12 % 3 = 0) and French (12 % 4 = 0); p1: English only.
    const both = alternates((await get(`${manual.origin}/manual/en/p12.html`)).body);
    expect(both.links).toEqual(['en /manual/en/p12.html', 'de /manual/de/p12.html', 'fr /manual/fr/p12.html']);
    expect(both.anchors).toEqual(['de /manual/de/p12.html', 'fr /manual/fr/p12.html']);
    const only = alternates((await get(`${manual.origin}/manual/de/mod/p1.html`)).body);
    expect(only.links).toEqual(['en /manual/en/mod/p1.html']);
    expect(only.anchors).toEqual([]);
  });

  it('answers 404 for the broken links, a doubled prefix with a redirect, and anything outside /manual/', async () => {
    manual = await startNegotiatedManual();
    expect(manual.brokenPaths).toHaveLength(3);
    for (const language of ['en', 'de', 'fr']) {
      for (const path of manual.brokenPaths) expect((await get(`${manual.origin}/manual/${language}/${path}`)).status).toBe(404);
    }
    const doubled = await get(`${manual.origin}/manual/de/fr/p4.html`);
    expect(doubled.status).toBe(301);
    expect(doubled.headers.get('location')).toBe('/manual/fr/p4.html');
    expect((await get(`${manual.origin}/robots.txt`)).status).toBe(404);
    expect((await get(`${manual.origin}/manual/en/p999.html`)).status).toBe(404);
  });

  it('records every request with the file it resolved to; files() are the distinct 2xx ones', async () => {
    manual = await startNegotiatedManual();
    await get(`${manual.origin}/manual/en/mod/p1.html`);
    await get(`${manual.origin}/manual/de/mod/p1.html`);
    await get(`${manual.origin}/manual/fr/mod/p1.html`);
    await get(`${manual.origin}/manual/de/p3.html`);
    await get(`${manual.origin}/manual/de/${manual.brokenPaths[0]}`);
    await fetch(`${manual.origin}/manual/en/p3.html`, { method: 'HEAD' });
    expect(manual.requests).toEqual([
      { method: 'GET', path: '/manual/en/mod/p1.html', status: 200, file: 'mod/p1.html.en' },
      { method: 'GET', path: '/manual/de/mod/p1.html', status: 200, file: 'mod/p1.html.en' },
      { method: 'GET', path: '/manual/fr/mod/p1.html', status: 200, file: 'mod/p1.html.en' },
      { method: 'GET', path: '/manual/de/p3.html', status: 200, file: 'p3.html.de' },
      { method: 'GET', path: `/manual/de/${manual.brokenPaths[0]}`, status: 404, file: undefined },
      { method: 'HEAD', path: '/manual/en/p3.html', status: 200, file: 'p3.html.en' },
    ]);
    expect(manual.files()).toEqual(new Set(['mod/p1.html.en', 'p3.html.de', 'p3.html.en']));
    for (const request of manual.requests) expect(manual.fileFor(request.path)).toBe(request.file);
    expect(manual.fileFor('/manual/fr/mod/p1.html')).toBe('mod/p1.html.en');
    expect(manual.fileFor('/manual/de')).toBeUndefined();
    expect(manual.requests).toHaveLength(6);
  });

  it('costs a URL-only crawl from the seed one request per page per language: about three requests per file', async () => {
    manual = await startNegotiatedManual();
    const { urls, broken, bodies } = await crawlAnchors(manual.seed);
    // Every page in every language tree, and each broken link once per tree.
    expect(urls.size).toBe(30 * 3 + 3 * 3);
    expect(broken.size).toBe(3 * 3);
    const pageFiles = [...manual.treeFiles].filter((file) => file.endsWith('.html.en') || file.endsWith('.html.de') || file.endsWith('.html.fr'));
    expect(manual.files()).toEqual(new Set(pageFiles));
    expect(manual.requests).toHaveLength(urls.size);
    // 99 requests for 48 files and 9 broken targets.
    expect(pageFiles).toHaveLength(30 + 10 + 8);
    // The duplicates are byte-identical: one body per file, whatever the URL.
    const bodiesByFile = new Map<string, Set<string>>();
    for (const request of manual.requests) {
      if (request.file === undefined) continue;
      const body = bodies.get(`${manual.origin}${request.path}`)!;
      bodiesByFile.set(request.file, (bodiesByFile.get(request.file) ?? new Set()).add(body));
    }
    for (const [file, seen] of bodiesByFile) expect([file, seen.size]).toEqual([file, 1]);
  });

  it('takes pages, languages and translated as options', async () => {
    manual = await startNegotiatedManual({
      pages: 5,
      languages: ['en', 'ja'],
      translated: (page, language) => language === 'ja' && page % 2 === 0,
      brokenLinks: 0,
    });
    expect([...manual.treeFiles].sort()).toEqual([
      'howto/p2.html.en',
      'howto/p2.html.ja',
      'index.html.en',
      'index.html.ja',
      'mod/p1.html.en',
      'mod/p4.html.en',
      'mod/p4.html.ja',
      'p3.html.en',
      'style/manual.css',
    ]);
    expect(manual.brokenPaths).toEqual([]);
    const { broken } = await crawlAnchors(manual.seed);
    expect(broken.size).toBe(0);
    expect((await get(`${manual.origin}/manual/ja/p3.html`)).headers.get('content-location')).toBe('p3.html.en');
  });

  it('rejects bad options with a message naming the option', async () => {
    await expect(startNegotiatedManual({ pages: 0 })).rejects.toThrow('Expected `pages` to be an integer >= 1, got `0`');
    await expect(startNegotiatedManual({ languages: [] })).rejects.toThrow('`languages`');
    await expect(startNegotiatedManual({ pages: 3, brokenLinks: 3 })).rejects.toThrow('`brokenLinks`');
  });
});

describe('startNegotiatedManual: unique mode (no duplicates)', () => {
  it('serves every page in every language, each body different, one URL per file: a URL-only crawl fetches each file once', async () => {
    manual = await startNegotiatedManual({ mode: 'unique' });
    const { urls, broken, bodies } = await crawlAnchors(manual.seed);
    const pageFiles = [...manual.treeFiles].filter((file) => file !== 'style/manual.css');
    expect(pageFiles).toHaveLength(30 * 3);
    expect(broken.size).toBe(3 * 3);
    expect(urls.size).toBe(30 * 3 + 3 * 3);
    expect(manual.requests).toHaveLength(urls.size);
    expect(manual.files()).toEqual(new Set(pageFiles));
    expect(new Set(bodies.values()).size).toBe(bodies.size);
  });

  it('has no negotiation, no Content-Location and no tree without a prefix', async () => {
    manual = await startNegotiatedManual({ mode: 'unique' });
    const page = await get(`${manual.origin}/manual/fr/mod/p1.html`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-location')).toBeNull();
    expect(page.body).toContain('<html lang="fr">');
    expect((await get(`${manual.origin}/manual/mod/p1.html`)).status).toBe(404);
    expect((await get(`${manual.origin}/manual/fr/mod/p1.html.fr`)).status).toBe(404);
    expect((await get(`${manual.origin}/manual/style/manual.css`)).status).toBe(200);
  });
});
