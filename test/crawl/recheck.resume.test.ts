// A re-check killed and started again on a SQLite index: the crawl started again with
// --recheck joins the re-check in progress (a generation of the index) rather than
// queueing everything once more, so it requests only what the killed run had not
// re-checked (and what it had in flight). A worker process (test/support/crawl-worker.mjs)
// runs the library's crawl() into the index file, on a generated site over 8 loopback
// hosts whose servers count every request.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../cli/built-cli.js';
import { killAll, startWorker, type WorkerExit } from '../support/crawl-workers.js';
import { serveMultiHostSite, type MultiHostSite } from '../support/multi-host-site.js';

const running = new Set<ChildProcess>();
const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-recheck-resume-'));
let site: MultiHostSite | undefined;

beforeAll(async () => {
  await ensureBuilt();
}, 300_000);

afterEach(async () => {
  killAll(running);
  await site?.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const isSiteFile = (url: string): boolean => url.endsWith('/robots.txt') || url.endsWith('/sitemap.xml');

function expectClean(exit: WorkerExit): void {
  expect(exit.stderr.replace(/^\(node:\d+\) .*\n|^\(Use `node --trace-warnings.*\n/gm, '')).toBe('');
  expect(exit.code).toBe(0);
  expect(exit.lines.at(-1)).toMatchObject({ type: 'summary', stoppedBy: 'frontier-empty' });
}

describe('a re-check killed and started again (SQLite)', () => {
  it('does not request again what the killed re-check re-checked: only what it had in flight', async () => {
    site = await serveMultiHostSite({ pagesPerHost: 30, latencyMs: 40 });
    const db = path.join(dir, 'index.db');
    const concurrency = 2;
    const options = { allowPrivate: true, sitemap: false, concurrency, perHostConcurrency: 1 };
    const start = (workerId: string, extra: Record<string, unknown> = {}) => startWorker({ db, seeds: site!.seeds, workerId, options: { ...options, ...extra } }, running);
    expectClean(await start('crawl').exit);

    const first = site.requests.length;
    const rechecked = (): string[] => site!.requests.slice(first).filter((r) => !isSiteFile(r.url)).map((r) => r.url);
    const victim = start('killed', { recheck: true });
    while (rechecked().length < 80) await new Promise((resolve) => setTimeout(resolve, 10));
    victim.child.kill('SIGKILL');
    expect((await victim.exit).signal).toBe('SIGKILL');
    const byVictim = new Set(rechecked());
    expect(byVictim.size).toBeLessThan(site.resources.length);

    expectClean(await start('resumed', { recheck: true }).exit);
    const counts = new Map<string, number>();
    for (const url of rechecked()) counts.set(url, (counts.get(url) ?? 0) + 1);
    for (const url of site.resources) expect.soft(counts.get(url) ?? 0, url).toBeGreaterThanOrEqual(1);
    // Asked twice: only what the killed run had in flight, or answered in the group of
    // units not yet committed (a few).
    const twice = site.resources.filter((url) => counts.get(url)! > 1);
    for (const url of twice) expect(byVictim.has(url), url).toBe(true);
    expect(twice.length).toBeLessThanOrEqual(2 * concurrency);
  }, 120_000);
});
