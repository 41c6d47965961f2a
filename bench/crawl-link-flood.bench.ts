// Link floods (a hostile page must not exhaust memory or block the loop): one page of just under 10 MiB (the fetcher's
// body cap) holding ~800,000 distinct links, crawled alone (maxPages 1). Reports the
// process's peak RSS, the longest the event loop was blocked while the crawl ran
// (a 5 ms interval timer's longest gap), the crawl's time, and how many links and
// URLs the index holds after it. The page is served from a child process, so its
// memory and CPU are not the crawler's.
//
//   npm run bench link-flood
//   node --expose-gc dist/bench/crawl-link-flood.bench.js [maxLinksPerPage maxQueuedPerPage]

import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { crawl, createFetcher, openIndex } from '../src/index.js';
import { printEnvironment } from './support/measure.js';

const PAGE_BYTES = 10 * 2 ** 20 - 1024;

/** `<a href=N>` with N in base 36, until the page is PAGE_BYTES long. */
function floodPage(): { html: string; links: number } {
  const parts: string[] = ['<!doctype html><title>flood</title>\n'];
  let size = parts[0]!.length;
  let links = 0;
  for (;;) {
    const tag = `<a href=${links.toString(36)}>`;
    if (size + tag.length > PAGE_BYTES) break;
    parts.push(tag);
    size += tag.length;
    links++;
  }
  return { html: parts.join(''), links };
}

function serve(): void {
  const { html, links } = floodPage();
  const body = Buffer.from(html);
  const server = createServer((request, response) => {
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
      response.end(body);
    } else {
      response.writeHead(404).end();
    }
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    process.send!({ origin: `http://127.0.0.1:${port}`, links, bytes: body.length });
  });
  process.on('disconnect', () => process.exit(0));
}

function peakRssMb(): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return kb === undefined ? process.memoryUsage().rss / 2 ** 20 : Number(kb) / 1024;
}

async function main(): Promise<void> {
  printEnvironment();
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: 'inherit' });
  const site = await new Promise<{ origin: string; links: number; bytes: number }>((resolve) => child.once('message', resolve));
  console.log(`\npage: ${(site.bytes / 2 ** 20).toFixed(2)} MiB, ${site.links} links`);
  const [maxLinks, maxQueued] = process.argv.slice(2).map(Number);
  const caps = {
    ...(maxLinks === undefined ? {} : { maxLinksPerPage: maxLinks }),
    ...(maxQueued === undefined ? {} : { maxQueuedPerPage: maxQueued }),
  };
  const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-flood-bench-'));
  const store = await openIndex(path.join(dir, 'flood.db'));
  const fetcher = createFetcher({ userAgent: 'linkladder-bench' });
  let longestBlockMs = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    longestBlockMs = Math.max(longestBlockMs, now - last);
    last = now;
  }, 5);
  const rssBefore = peakRssMb();
  const start = performance.now();
  try {
    const summary = await crawl(`${site.origin}/`, { store, fetcher, allowPrivate: true, maxPages: 1, ...caps });
    const seconds = (performance.now() - start) / 1000;
    // The crawl may resolve right after its longest block: let the timer see it end.
    await sleep(20);
    clearInterval(ticker);
    console.log(`caps: ${JSON.stringify(caps)}`);
    console.log(`  crawl ${seconds.toFixed(1)} s, links recorded ${summary.index.links}, URLs in the index ${Object.values(summary.index.urlsByState).reduce((a, b) => a + b, 0)}`);
    console.log(`  peak RSS ${peakRssMb().toFixed(0)} MB (${rssBefore.toFixed(0)} MB before the crawl)`);
    console.log(`  longest event-loop block ${longestBlockMs.toFixed(0)} ms`);
  } finally {
    clearInterval(ticker);
    store.close();
    await fetcher.close();
    child.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--serve') serve();
else {
  await main();
  process.exit(0);
}
