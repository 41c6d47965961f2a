// Content evidence never loses a reachable page. The site: an English tree and a German
// one whose first pages are byte-identical fallbacks of the English ones (the server
// answers the English bytes) and whose later pages are real German pages, each linking
// to a German-only page no other page names. The English index declares its variants
// (hreflang); the other English pages declare none, and each links its German page with
// a plain link. Three fallback pairs teach the rule /de/ ↔ /en/; what it predicts of a
// later German page is not proved for that URL (the page it maps onto says nothing of
// its variants), so that page is fetched, and the German-only pages behind it are found.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCrawler, explain } from '../../src/crawl/index.js';
import { createFetcher } from '../../src/fetch/index.js';
import { MemoryStore } from '../../src/store/index.js';

/** Pages per language tree, the index included. */
const PAGES = 30;
/** German pages 1..FALLBACKS answer the English bytes. */
const FALLBACKS = 3;
/** German pages FALLBACKS+1 .. FALLBACKS+ONLY link a German-only page each. */
const ONLY = 24;

interface Site {
  readonly origin: string;
  /** Every path that answers 200 → the file it serves (a fallback serves the English file). */
  readonly files: ReadonlyMap<string, string>;
  /** The files served so far. */
  readonly served: Set<string>;
  readonly requests: string[];
  close(): Promise<void>;
}

function html(lang: string, head: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="${lang}"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>\n`;
}

function englishPage(n: number): string {
  if (n === 0) {
    const alternates = '<link rel="alternate" hreflang="en" href="/en/index.html"><link rel="alternate" hreflang="de" href="/de/index.html">';
    return html('en', `<title>index</title>${alternates}`, '<p><a href="p1.html">page 1</a></p>');
  }
  const next = n + 1 < PAGES ? `<a href="p${n + 1}.html">next</a>` : '';
  // Relative links: under /de/ the same bytes lead through the German tree.
  return html('en', `<title>page ${n}</title>`, `<p>English page ${n}. <a href="index.html">index</a> ${next} <a href="/de/p${n}.html">Deutsch</a></p>`);
}

function germanPage(n: number): string {
  if (n === 0) {
    const alternates = '<link rel="alternate" hreflang="en" href="/en/index.html"><link rel="alternate" hreflang="de" href="/de/index.html">';
    return html('de', `<title>Inhalt</title>${alternates}`, '<p><a href="p1.html">Seite 1</a></p>');
  }
  const only = n <= FALLBACKS + ONLY ? ` <a href="nur/q${n}.html">nur auf Deutsch</a>` : '';
  return html('de', `<title>Seite ${n}</title>`, `<p>Deutsche Seite ${n}. <a href="index.html">Inhalt</a>${only}</p>`);
}

async function startSite(): Promise<Site> {
  const bodies = new Map<string, string>();
  const files = new Map<string, string>();
  for (let n = 0; n < PAGES; n++) {
    const name = n === 0 ? 'index.html' : `p${n}.html`;
    bodies.set(`en/${name}`, englishPage(n));
    files.set(`/en/${name}`, `en/${name}`);
    const isFallback = n >= 1 && n <= FALLBACKS;
    if (!isFallback) bodies.set(`de/${name}`, germanPage(n));
    files.set(`/de/${name}`, isFallback ? `en/${name}` : `de/${name}`);
  }
  for (let n = FALLBACKS + 1; n <= FALLBACKS + ONLY; n++) {
    bodies.set(`de/nur/q${n}.html`, html('de', `<title>nur ${n}</title>`, `<p>Nur auf Deutsch ${n}. <a href="../index.html">Inhalt</a></p>`));
    files.set(`/de/nur/q${n}.html`, `de/nur/q${n}.html`);
  }
  const served = new Set<string>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push(path);
    const file = files.get(path);
    if (file === undefined) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!DOCTYPE html><title>Not Found</title>\n');
      return;
    }
    served.add(file);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.method === 'HEAD' ? undefined : bodies.get(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    files,
    served,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const open: Site[] = [];
afterEach(async () => {
  for (const site of open.splice(0)) await site.close();
});

describe('--content-evidence on a site whose German pages are fallbacks at first and real later', () => {
  it('loses no reachable page: a page is joined without a request only when proved for that URL', async () => {
    const site = await startSite();
    open.push(site);
    const store = new MemoryStore();
    const summary = await runCrawler({ seeds: `${site.origin}/en/index.html`, store, fetcher: createFetcher(), sitemap: false, allowPrivate: true, contentEvidence: true });
    const allFiles = new Set(site.files.values());
    expect(allFiles.size).toBe(2 * PAGES - FALLBACKS + ONLY);
    // Every file the site has was served: no page lost, the German-only ones included.
    expect([...allFiles].filter((file) => !site.served.has(file)).sort()).toEqual([]);
    // Nothing was joined by the rule: no page it maps onto declared its variants.
    expect(summary.contentEvidence!.joined).toBe(0);
    expect(summary.aliasesLearned.rule).toBe(0);
    // The fallbacks still became aliases of their English pages, by their bytes.
    expect(summary.aliasesLearned.digest).toBe(FALLBACKS);
    // A real German page: fetched by a request of its own.
    const german = await explain(store, `${site.origin}/de/p${FALLBACKS + 1}.html`);
    expect(german.verdict).toBe('fetched');
    await store.close();
  });
});
