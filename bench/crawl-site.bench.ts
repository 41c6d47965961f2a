// Issue "The crawler": crawl a generated 10,000-page site served on 127.0.0.1
// (~100 links a page, mostly repeated navigation, variants at each rung, trailing-
// slash redirects) and report pages/s, CPU ms per page, peak RSS and requests per
// unique resource (must be exactly 1.00). The peer, in the same run, is a naive
// crawler: Node's fetch and a Set of WHATWG `URL` hrefs, the usual baseline.
//
//   npm run bench crawl       LINKLADDER_BENCH_PAGES=2000 for a quick run

import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crawl, createFetcher, createRobotsPolicy, openIndex } from '../src/index.js';
import { expectedPaths, type SiteShape } from './support/generated-site.js';
import { printEnvironment } from './support/measure.js';

interface Site {
  readonly origin: string;
  counts(): Promise<Map<string, number>>;
}

function startSite(shape: SiteShape): Promise<Site> {
  const script = fileURLToPath(new URL('./support/generated-site.js', import.meta.url));
  const child = fork(script, ['--serve', String(shape.pages), String(shape.linksPerPage)], { stdio: 'inherit' });
  return new Promise((resolve) => {
    child.once('message', (message: { origin: string }) =>
      resolve({
        origin: message.origin,
        counts: () =>
          new Promise((done) => {
            child.once('message', (m: { counts: [string, number][] }) => done(new Map(m.counts)));
            child.send('counts');
          }),
      }),
    );
  });
}

function peakRssMb(): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return kb === undefined ? process.memoryUsage().rss / 2 ** 20 : Number(kb) / 1024;
}

interface Outcome {
  readonly name: string;
  readonly pages: number;
  readonly seconds: number;
  readonly cpuMs: number;
  readonly requests: number;
  readonly resources: number;
  readonly missing: number;
  /** The site's pages the crawl got (expected ones, each counted once however often requested). */
  readonly covered: number;
}

async function measure(name: string, site: Site, shape: SiteShape, run: () => Promise<number>): Promise<Outcome> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const pages = await run();
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const counts = await site.counts();
  const expected = expectedPaths(shape);
  let requests = 0;
  for (const n of counts.values()) requests += n;
  const missing = [...expected].filter((p) => !counts.has(p)).length;
  return { name, pages, seconds, cpuMs: (used.user + used.system) / 1000, requests, resources: counts.size, missing, covered: expected.size - missing };
}

async function main(): Promise<void> {
  const shape: SiteShape = { pages: Number(process.env['LINKLADDER_BENCH_PAGES'] ?? 10_000), linksPerPage: 100 };
  const concurrency = 8;
  printEnvironment();
  console.log(`\nsite: ${shape.pages} pages, ~${shape.linksPerPage} links a page; concurrency ${concurrency} (one host)`);
  const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-crawl-bench-'));
  try {
    const mode = process.argv[2];
    if (mode === '--naive') return void console.log(JSON.stringify(await naive(shape, concurrency)));
    const ours = await (async () => {
      const site = await startSite(shape);
      const store = await openIndex(path.join(dir, 'crawl.db'));
      const fetcher = createFetcher({ userAgent: 'linkladder-bench' });
      const robots = createRobotsPolicy({ userAgent: 'linkladder-bench' });
      const outcome = await measure('linkladder crawl', site, shape, async () => {
        const summary = await crawl(`${site.origin}/`, { store, fetcher, robots, allowPrivate: true, concurrency, perHostConcurrency: concurrency });
        return summary.pagesFetched;
      });
      store.close();
      await fetcher.close();
      await robots.close();
      return outcome;
    })();
    const rss = peakRssMb();
    const peer = await runNaiveInChild(shape);
    // A page is one of the site's pages, counted once: the naive peer requests every
    // redirecting spelling and then its target again, so its responses are not pages.
    for (const o of [ours, peer]) {
      console.log(
        `  ${o.name.padEnd(34)} ${String(o.covered).padStart(6)} pages  ${(o.covered / o.seconds).toFixed(0).padStart(5)} pages/s  ` +
          `${(o.cpuMs / o.covered).toFixed(2).padStart(6)} CPU ms/page  ${(o.pages / o.seconds).toFixed(0)} responses/s; requests ${o.requests} for ${o.resources} resources ` +
          `(${(o.requests / o.resources).toFixed(2)} per resource), ${o.missing} expected resources missed`,
      );
    }
    console.log(`  linkladder peak RSS ${rss.toFixed(0)} MB`);
    console.log(`  ratio pages/s linkladder / naive: ${(ours.covered / ours.seconds / (peer.covered / peer.seconds)).toFixed(2)}× (responses/s: ${(ours.pages / ours.seconds / (peer.pages / peer.seconds)).toFixed(2)}×)`);
    console.log(`  requests per unique resource must be exactly 1.00: ${(ours.requests / ours.resources).toFixed(2)} ${ours.requests === ours.resources && ours.missing === 0 ? 'met' : 'NOT MET'}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The naive peer: fetch + a Set of WHATWG hrefs, no redirect or alias knowledge. */
async function naive(shape: SiteShape, concurrency: number): Promise<Outcome> {
  const site = await startSite(shape);
  return measure('naive fetch + Set<URL.href>', site, shape, async () => {
    const seen = new Set<string>([`${site.origin}/`]);
    const queue = [`${site.origin}/`];
    let pages = 0;
    const worker = async (): Promise<void> => {
      for (;;) {
        const url = queue.shift();
        if (url === undefined) return;
        const response = await fetch(url);
        const html = await response.text();
        pages++;
        for (const m of html.matchAll(/href="([^"]*)"/g)) {
          const target = new URL(m[1]!, response.url);
          target.hash = '';
          if (target.origin === site.origin && !seen.has(target.href)) {
            seen.add(target.href);
            queue.push(target.href);
          }
        }
      }
    };
    // Workers that find the queue empty while others still fetch come back for more.
    while (queue.length > 0) await Promise.all(Array.from({ length: concurrency }, worker));
    return pages;
  });
}

function runNaiveInChild(shape: SiteShape): Promise<Outcome> {
  const self = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const child = fork(self, ['--naive'], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], env: { ...process.env, LINKLADDER_BENCH_PAGES: String(shape.pages) } });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', () => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as Outcome);
      } catch (error) {
        reject(new Error(`naive peer failed: ${out}`, { cause: error }));
      }
    });
  });
}

// Exit either way: a failed run must not wait on the site it started.
await main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
