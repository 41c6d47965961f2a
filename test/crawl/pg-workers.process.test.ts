// Cooperating workers on one PostgreSQL index, each a separate process
// running the library's crawl() into a PgStore (test/support/crawl-worker.mjs), on a
// generated site spread over 8 loopback hosts (127.0.0.2–127.0.0.9) whose servers
// count every request and measure what is in flight on each host.

import { describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../src/store/pg/pg-database.js';
import { spawnCli } from '../cli/built-cli.js';
import { startWorker, type WorkerConfig, type WorkerProcess } from '../support/crawl-workers.js';
import { workerTestBed } from '../support/worker-test-bed.js';
import { expectCleanExit, isSiteFile } from '../support/worker-exits.js';
import { serveMultiHostSite, type MultiHostSite } from '../support/multi-host-site.js';

const { cluster, running, cleanups } = await workerTestBed('cooperating crawl workers on PostgreSQL');


async function setUp(site: MultiHostSite): Promise<{ db: string; sql: Sql }> {
  if (typeof cluster === 'string') throw new Error('no cluster');
  const db = await cluster.createDatabase();
  const sql = connect(db, { max: 2 });
  cleanups.push(async () => {
    await sql.end();
    await site.close();
  });
  return { db, sql };
}

function workers(count: number, config: Omit<WorkerConfig, 'workerId'>): WorkerProcess[] {
  return Array.from({ length: count }, (_, i) => startWorker({ ...config, workerId: `w${i}` }, running));
}

/** Gaps between consecutive request starts on each host (ms), robots.txt and sitemaps left out. */
function gapsByHost(site: MultiHostSite): Map<string, number[]> {
  const gaps = new Map<string, number[]>();
  const last = new Map<string, number>();
  for (const request of site.requests) {
    if (isSiteFile(request.url)) continue;
    const previous = last.get(request.host);
    if (previous !== undefined) gaps.set(request.host, [...(gaps.get(request.host) ?? []), request.at - previous]);
    last.set(request.host, request.at);
  }
  return gaps;
}

describe.skipIf(typeof cluster === 'string')('cooperating workers on PostgreSQL', () => {
  it('4 workers: exactly one request per resource, one row per URL, every worker at work', async () => {
    const site = await serveMultiHostSite({ pagesPerHost: 30, latencyMs: 10 });
    const { db, sql } = await setUp(site);
    const options = { allowPrivate: true, concurrency: 4, perHostConcurrency: 2 };
    const exits = await Promise.all(workers(4, { db, seeds: site.seeds, options }).map((w) => w.exit));
    for (const exit of exits) expectCleanExit(exit);

    const counts = site.counts();
    for (const url of site.resources) expect.soft(counts.get(url), url).toBe(1);
    const others = [...counts.keys()].filter((url) => !site.resources.includes(url) && !isSiteFile(url));
    expect(others).toEqual([]);
    // Sitemaps: each origin's read once, by the worker that admitted its seed first.
    for (const origin of site.origins) expect(counts.get(`${origin}/sitemap.xml`)).toBe(1);
    // robots.txt: asked by each worker that met the origin before another had cached its answer.
    for (const origin of site.origins) expect(counts.get(`${origin}/robots.txt`)).toBeLessThanOrEqual(4);

    const [urls] = await sql`SELECT count(*)::integer AS n, count(DISTINCT key)::integer AS keys,
      count(*) FILTER (WHERE state = 'done')::integer AS done FROM url WHERE state <> 'skipped'`;
    expect(urls).toEqual({ n: site.resources.length, keys: site.resources.length, done: site.resources.length });
    const [fetches] = await sql`SELECT count(*)::integer AS n, count(DISTINCT url_id)::integer AS urls FROM "fetch"`;
    expect(fetches).toEqual({ n: site.resources.length, urls: site.resources.length });
    const rows = await sql`SELECT id, ended_at, counts FROM crawl_worker ORDER BY id`;
    expect(rows.map((r) => r.id)).toEqual(['w0', 'w1', 'w2', 'w3']);
    for (const row of rows) expect(row.ended_at).not.toBeNull();
    const fetched = rows.map((r) => (JSON.parse(r.counts as string) as { fetched: number }).fetched);
    expect(fetched.reduce((a, b) => a + b, 0)).toBe(site.resources.length);
    expect(fetched.filter((n) => n > 0).length).toBeGreaterThanOrEqual(3);
    const [byWorker] = await sql`SELECT count(DISTINCT worker)::integer AS n FROM "fetch"`;
    expect(byWorker!.n).toBeGreaterThanOrEqual(3);
    // Every worker admitted the links it read, the same URLs at the same time: one row
    // each, and one link says `new` for each URL a link found (all but the 8 seeds).
    const [tally] = await sql`SELECT sum(links)::integer AS n FROM link_tally WHERE rung = 'new'`;
    expect(tally!.n).toBe(site.resources.length - 8);
  }, 180_000);

  it('SIGKILL of one worker mid-crawl: the others take its claims when the lease runs out, and finish with nothing lost', async () => {
    const site = await serveMultiHostSite({ pagesPerHost: 40, latencyMs: 40 });
    const { db, sql } = await setUp(site);
    const concurrency = 4;
    const options = { allowPrivate: true, concurrency, perHostConcurrency: 2, sitemap: false };
    const started = workers(3, { db, seeds: site.seeds, leaseMs: 2000, options });
    const victim = started[0]!;
    const byVictim = (): string[] => site.requests.filter((r) => r.userAgent.endsWith(`/${victim.workerId}`)).map((r) => r.url);
    while (byVictim().filter((url) => !isSiteFile(url)).length < 15) await new Promise((resolve) => setTimeout(resolve, 10));
    victim.child.kill('SIGKILL');
    const killedAt = performance.now();
    const victimExit = await victim.exit;
    expect(victimExit.signal).toBe('SIGKILL');
    const exits = await Promise.all(started.slice(1).map((w) => w.exit));
    for (const exit of exits) expectCleanExit(exit);
    // The claims it held when it died came back only once their 2 s lease ran out.
    const leased = await sql`SELECT count(*)::integer AS n FROM "fetch" WHERE worker <> ${victim.workerId}`;
    expect(leased[0]!.n).toBeGreaterThan(0);
    const lastStart = Math.max(...site.requests.map((r) => r.at));
    expect(lastStart - killedAt).toBeGreaterThan(1500);

    // Nothing lost: every resource requested and recorded.
    const counts = site.counts();
    for (const url of site.resources) expect.soft(counts.get(url) ?? 0, url).toBeGreaterThanOrEqual(1);
    const [urls] = await sql`SELECT count(*)::integer AS n, count(*) FILTER (WHERE state = 'done')::integer AS done FROM url WHERE state <> 'skipped'`;
    expect(urls).toEqual({ n: site.resources.length, done: site.resources.length });
    // Requested twice: only URLs the killed worker had requested and not yet recorded
    // when it died (in flight, at most its concurrency), taken again once its lease ran out.
    // (What the victim sent before it died, as the servers logged it: some only after the kill.)
    const victimRequests = new Set(byVictim());
    const twice = site.resources.filter((url) => counts.get(url)! > 1);
    for (const url of twice) {
      expect(counts.get(url)).toBe(2);
      expect(victimRequests.has(url)).toBe(true);
    }
    expect(twice.length).toBeLessThanOrEqual(concurrency);
    const recordedByVictim = await sql`SELECT count(*)::integer AS n FROM "fetch" AS f JOIN url AS u ON u.id = f.url_id
      WHERE f.worker = ${victim.workerId} AND u.key = ANY(${twice})`;
    expect(recordedByVictim[0]!.n).toBe(0);
    // Its row says it never ended; the others did. `stats` shows it silent.
    const rows = await sql`SELECT id, ended_at FROM crawl_worker ORDER BY id`;
    expect(rows.map((r) => [r.id, r.ended_at === null])).toEqual([['w0', true], ['w1', false], ['w2', false]]);
    const stats = await spawnCli(['stats', '--db', db], running).exit;
    expect(stats.code).toBe(0);
    const lines = stats.stdout.split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^workers +3: 0 running, 2 ended, 1 silent/));
    expect(lines).toContainEqual(expect.stringMatching(/^ +frontier +0 queued, 0 claimed$/));
    // (Killed within its first second, it had reported nothing.)
    expect(lines).toContainEqual(expect.stringMatching(/^ +worker +w0 \(host \S+, pid \d+\), silent since \S+Z; (requests \d+, fetched \d+, failed 0, links \d+|no progress reported); 0 claims$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ +worker +w1 \(host \S+, pid \d+\), ended \S+Z; requests \d+, fetched \d+, failed 0, links \d+; 0 claims$/));
    const json = JSON.parse((await spawnCli(['stats', '--db', db, '--json'], running).exit).stdout) as { workers: { workers: { id: string; isSilent: boolean; counts: { fetched: number } }[] } };
    expect(json.workers.workers.map((w) => [w.id, w.isSilent])).toEqual([['w0', true], ['w1', false], ['w2', false]]);
    const fetchedByOthers = json.workers.workers.slice(1).reduce((sum, w) => sum + w.counts.fetched, 0);
    expect(fetchedByOthers).toBeGreaterThan(0);
  }, 180_000);

  it("SIGKILL of a worker with the default lease: its hosts wait seconds for its claims, not half a minute", async () => {
    const site = await serveMultiHostSite({ pagesPerHost: 40, latencyMs: 40 });
    const { db, sql } = await setUp(site);
    // One request at a time on a host: a claim the dead worker holds stops its host until it lapses.
    const options = { allowPrivate: true, concurrency: 4, perHostConcurrency: 1, sitemap: false };
    // The victim is the first worker to make 15 requests: with every host slot taken (one
    // request a host), a worker that frees a slot takes it again with its commit, and a
    // worker that opened late on a loaded machine may get few of them before the end.
    const started = workers(3, { db, seeds: site.seeds, options });
    const byWorker = (workerId: string): number => site.requests.filter((r) => r.userAgent.endsWith(`/${workerId}`) && !isSiteFile(r.url)).length;
    let victim: (typeof started)[number] | undefined;
    while ((victim = started.find((w) => byWorker(w.workerId) >= 15)) === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    victim.child.kill('SIGKILL');
    const killedAt = performance.now();
    await victim.exit;
    const exits = await Promise.all(started.filter((w) => w !== victim).map((w) => w.exit));
    for (const exit of exits) expectCleanExit(exit);
    const [urls] = await sql`SELECT count(*)::integer AS n, count(*) FILTER (WHERE state = 'done')::integer AS done FROM url WHERE state <> 'skipped'`;
    expect(urls).toEqual({ n: site.resources.length, done: site.resources.length });
    // The longest a host went without a request once the worker died (its claims lapse 5 s
    // after its last renewal; a loaded machine adds some).
    let longest = 0;
    for (const [host, list] of gapsByHost({ ...site, requests: site.requests.filter((r) => r.at > killedAt - 1000) })) {
      longest = Math.max(longest, ...list);
      expect.soft(Math.max(...list), host).toBeLessThan(9000);
    }
    expect(longest).toBeGreaterThan(0);
  }, 180_000);

  it('per-host concurrency holds across workers: never more than perHostConcurrency in flight on a host', async () => {
    const site = await serveMultiHostSite({ pagesPerHost: 16, latencyMs: 60 });
    const { db } = await setUp(site);
    const options = { allowPrivate: true, concurrency: 8, perHostConcurrency: 2, sitemap: false };
    const exits = await Promise.all(workers(4, { db, seeds: site.seeds, options }).map((w) => w.exit));
    for (const exit of exits) expectCleanExit(exit);
    const max = [...site.maxInFlightByHost.values()];
    expect(max).toHaveLength(8);
    expect(Math.max(...max)).toBe(2);
    for (const url of site.resources) expect.soft(site.counts().get(url), url).toBe(1);
  }, 180_000);

  it('per-host delay and robots.txt Crawl-delay hold across workers: starts on a host are that far apart', async () => {
    const delayed = '127.0.0.5';
    const site = await serveMultiHostSite({ pagesPerHost: 5, imagesPerHost: 2, latencyMs: 5, robots: { [delayed]: 'User-agent: *\nCrawl-delay: 0.5\n' } });
    const { db, sql } = await setUp(site);
    const options = { allowPrivate: true, concurrency: 8, perHostConcurrency: 4, perHostDelayMs: 200, sitemap: false };
    const exits = await Promise.all(workers(4, { db, seeds: site.seeds, options }).map((w) => w.exit));
    for (const exit of exits) expectCleanExit(exit);
    for (const url of site.resources) expect.soft(site.counts().get(url), url).toBe(1);
    // Starts as the workers recorded them (fetch.started_at, taken as each request is
    // sent): every gap on a host at least the delay, robots.txt's Crawl-delay on its host
    // from its first request (the worker that read it passed it on before its request).
    const rows = await sql`SELECT u.host, f.started_at FROM "fetch" AS f JOIN url AS u ON u.id = f.url_id ORDER BY u.host, f.started_at`;
    const recorded = new Map<string, number[]>();
    for (const [i, row] of rows.entries()) {
      const previous = rows[i - 1];
      if (previous?.host !== row.host) continue;
      recorded.set(row.host as string, [...(recorded.get(row.host as string) ?? []), (row.started_at as number) - (previous!.started_at as number)]);
    }
    expect(recorded.size).toBe(8);
    for (const [host, list] of recorded) expect.soft(Math.min(...list), host).toBeGreaterThanOrEqual(200);
    expect(Math.min(...recorded.get(delayed)!)).toBeGreaterThanOrEqual(500);
    // As the servers saw them: less by what passes between a worker's timestamp and its
    // request reaching the server's handler (a loaded worker, a loaded test process whose
    // handler ran one request late and the next on time: up to 103 ms seen in CI). Still
    // well above a gap no delay held (a few ms), and for the delayed host above 200 ms.
    const tolerance = 150;
    const seen = gapsByHost(site);
    for (const [host, list] of seen) expect.soft(Math.min(...list), host).toBeGreaterThanOrEqual(200 - tolerance);
    expect(Math.min(...seen.get(delayed)!)).toBeGreaterThanOrEqual(500 - tolerance);
  }, 180_000);
});

describe.skipIf(typeof cluster === 'string')('workers whose clocks disagree (by the database clock)', () => {
  it('a worker 5 s ahead and one 5 s behind: the work is shared, and a host delay holds at the servers', async () => {
    const site = await serveMultiHostSite({ pagesPerHost: 12, latencyMs: 20 });
    const { db } = await setUp(site);
    const delay = 400;
    const options = { allowPrivate: true, concurrency: 4, perHostConcurrency: 1, perHostDelayMs: delay, sitemap: false };
    const skews = [5000, 0, -5000];
    const exits = await Promise.all(skews.map((clockSkewMs, i) => startWorker({ db, seeds: site.seeds, workerId: `w${i}`, clockSkewMs, options }, running).exit));
    for (const exit of exits) expectCleanExit(exit);
    for (const url of site.resources) expect.soft(site.counts().get(url), url).toBe(1);
    // Starts on a host as its server saw them: the delay apart, less what passes between
    // a claim and its request reaching the handler on a loaded machine (up to 100 ms seen).
    const tolerance = 150;
    for (const [host, list] of gapsByHost(site)) expect.soft(Math.min(...list), host).toBeGreaterThanOrEqual(delay - tolerance);
    // Each worker its share: none kept waiting by another's clock (a fair share is a third).
    const pages = site.requests.filter((r) => !isSiteFile(r.url));
    for (const [i] of skews.entries()) {
      const share = pages.filter((r) => r.userAgent === `linkladder-worker/w${i}`).length / pages.length;
      expect.soft(share, `w${i}'s share of ${pages.length} requests`).toBeGreaterThan(0.15);
    }
  }, 180_000);
});
