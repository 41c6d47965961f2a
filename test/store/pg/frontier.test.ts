// PgFrontier on a real PostgreSQL: claims shallowest first with leases, a dead
// worker's claims taken once their lease runs out, SKIP LOCKED (parallel claims
// never share a URL), per-host slots and delays held across workers, whenIdle.
// URL rows are written as SQL fixtures; the clock is the test's.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connect, migratePg, type Sql } from '../../../src/store/pg/pg-database.js';
import { PgFrontier } from '../../../src/store/pg/pg-frontier.js';
import { siteOf } from '../../../src/store/pg/site-hash.js';
import { startPostgres } from '../../support/postgres-cluster.js';
import { skipNotice } from '../../support/system-tools.js';

const cluster = await startPostgres();
if (typeof cluster === 'string') skipNotice('PostgreSQL frontier', cluster);
let sql: Sql;
let dbUrl: string;
const pools: Sql[] = [];
let clock = 1_000_000;
const now = (): number => clock;

beforeAll(async () => {
  if (typeof cluster === 'string') return;
  dbUrl = await cluster.createDatabase();
  sql = connect(dbUrl);
  await migratePg(sql, now);
});

afterAll(async () => {
  for (const pool of pools) await pool.end();
  await sql?.end();
  if (typeof cluster !== 'string') await cluster.stop();
});

beforeEach(async () => {
  if (typeof cluster === 'string') return;
  await sql`TRUNCATE url, "fetch", crawl_host, crawl_worker`;
  clock = 1_000_000;
});

/** Queue `count` URLs on each host (paths first, first + 1, …; depths as given, else 0); returns their ids by host. */
async function queue(hosts: readonly string[], count: number, depthOf: (i: number) => number = () => 0, first = 0): Promise<Map<string, number[]>> {
  const ids = new Map<string, number[]>();
  for (const host of hosts) {
    const rows = await sql`
      INSERT INTO url (site, id, key, scheme, host, state, role, depth, first_seen)
      SELECT ${siteOf(host)}, nextval('url_id_seq'), 'http://' || ${host} || '/' || i, 'http', ${host}, 'queued', 'page', d, 0
      FROM unnest(${sql.array(Array.from({ length: count }, (_, i) => first + i))}::integer[], ${sql.array(Array.from({ length: count }, (_, i) => depthOf(i)))}::integer[]) AS t (i, d)
      RETURNING id`;
    ids.set(host, rows.map((r) => r.id as number));
  }
  return ids;
}

function frontier(workerId: string, options: { leaseMs?: number; perHostConcurrency?: number; perHostDelayMs?: number; pool?: Sql } = {}): PgFrontier {
  const f = new PgFrontier(options.pool ?? sql, { workerId, leaseMs: options.leaseMs ?? 10_000, now, leaseClock: now });
  f.setPoliteness({ perHostConcurrency: options.perHostConcurrency ?? 100, perHostDelayMs: options.perHostDelayMs ?? 0 });
  return f;
}

/** Record the fetch of each URL (its request started at `startedAt`) and settle it, as PgStore.recordFetch does. */
async function settle(ids: readonly number[], startedAt = clock): Promise<void> {
  await sql`
    WITH f AS (
      INSERT INTO "fetch" (site, id, url_id, started_at)
      SELECT site, nextval('fetch_id_seq'), id, ${startedAt}::bigint FROM url WHERE id = ANY(${sql.array([...ids])}::bigint[])
    )
    UPDATE url SET state = 'done', claimed_by = NULL, lease_until = NULL WHERE id = ANY(${sql.array([...ids])}::bigint[])`;
}


describe.skipIf(typeof cluster === 'string')('PgFrontier: claims', () => {
  it('takes the shallowest first, each leased to this worker', async () => {
    await queue(['a.test'], 3, (i) => 2 - i);
    await queue(['b.test'], 2, () => 1);
    const claimed = await frontier('w1').claim(3);
    expect(claimed.map((c) => [c.host, c.depth])).toEqual([['a.test', 0], ['a.test', 1], ['b.test', 1]]);
    const rows = await sql`SELECT claimed_by, lease_until FROM url WHERE state = 'fetching'`;
    expect(rows.map((r) => [r.claimed_by, r.lease_until])).toEqual([['w1', clock + 10_000], ['w1', clock + 10_000], ['w1', clock + 10_000]]);
    expect((await frontier('w1').claim(10)).map((c) => c.key).sort()).toEqual(['http://a.test/0', 'http://b.test/1']);
    expect(await frontier('w1').claim(10)).toEqual([]);
  });

  it('keeps perHostConcurrency across workers: live claims hold their host slot until settled', async () => {
    await queue(['a.test', 'b.test'], 5);
    const w1 = frontier('w1', { perHostConcurrency: 2 });
    const w2 = frontier('w2', { perHostConcurrency: 2 });
    const first = await w1.claim(10);
    expect(first.map((c) => c.host).sort()).toEqual(['a.test', 'a.test', 'b.test', 'b.test']);
    expect(await w2.claim(10)).toEqual([]);
    await settle(first.filter((c) => c.host === 'a.test').slice(0, 1).map((c) => c.id));
    expect((await w2.claim(10)).map((c) => c.host)).toEqual(['a.test']);
  });

  it('keeps the delay on a host: one request at a time, the next claimed once the last one started the delay ago', async () => {
    await queue(['a.test', 'b.test'], 3);
    const w1 = frontier('w1', { perHostDelayMs: 1000, perHostConcurrency: 4 });
    const w2 = frontier('w2', { perHostDelayMs: 1000, perHostConcurrency: 4 });
    const first = await w1.claim(10);
    expect(first.map((c) => c.host).sort()).toEqual(['a.test', 'b.test']);
    const hosts = await sql`SELECT host, next_at, delay_ms FROM crawl_host ORDER BY host`;
    expect(hosts.map((h) => [h.host, h.next_at - clock, h.delay_ms])).toEqual([['a.test', 1000, 1000], ['b.test', 1000, 1000]]);
    // In flight: no second request on its host, whatever the time.
    clock += 5000;
    expect(await w2.claim(10)).toEqual([]);
    // The requests started late (300 ms after their claim): the delay counts from their start.
    await settle(first.map((c) => c.id), clock - 5000 + 300);
    clock = 1_000_000 + 1299;
    expect(await w2.claim(10)).toEqual([]);
    clock += 1;
    expect((await w2.claim(10)).map((c) => c.host).sort()).toEqual(['a.test', 'b.test']);
  });

  it('without a delay, a host takes perHostConcurrency claims at once, next_at untouched', async () => {
    await queue(['a.test'], 5);
    const w1 = frontier('w1', { perHostConcurrency: 3 });
    expect(await w1.claim(10)).toHaveLength(3);
    const [host] = await sql`SELECT next_at - ${clock}::bigint AS ahead FROM crawl_host`;
    expect(host!.ahead).toBe(0);
  });

  it('setHostDelay raises one host delay for every worker (robots.txt Crawl-delay), never lowers it', async () => {
    await queue(['a.test', 'b.test'], 3);
    const w1 = frontier('w1');
    await w1.setHostDelay('a.test', 5000);
    await w1.setHostDelay('a.test', 10);
    // a.test: one URL (it has a delay); b.test: all three.
    const claimed = await w1.claim(10);
    expect(claimed.map((c) => c.host).sort()).toEqual(['a.test', 'b.test', 'b.test', 'b.test']);
    await settle(claimed.map((c) => c.id));
    clock += 4999;
    expect(await frontier('w2').claim(10)).toEqual([]);
    clock += 1;
    expect((await frontier('w2').claim(10)).map((c) => c.host)).toEqual(['a.test']);
  });

  it("takes a dead worker's claims once their lease ran out, not before; a renewed lease holds", async () => {
    await queue(['a.test'], 4);
    const dead = frontier('dead', { leaseMs: 2000 });
    const alive = frontier('alive', { leaseMs: 2000 });
    const lost = await dead.claim(2);
    const kept = await alive.claim(2);
    expect(lost).toHaveLength(2);
    expect(kept).toHaveLength(2);
    clock += 1500;
    await alive.renew();
    const other = frontier('other', { leaseMs: 2000 });
    expect(await other.claim(10)).toEqual([]);
    // The lease ran out, and the worker's next round of tidy() (every leaseMs / 3) came: queued again, and taken.
    clock += 501 + 666;
    const retaken = await other.claim(10);
    expect(retaken.map((c) => c.id).sort()).toEqual(lost.map((c) => c.id).sort());
    const rows = await sql`SELECT claimed_by, count(*)::integer AS n FROM url WHERE state = 'fetching' GROUP BY 1 ORDER BY 1`;
    expect(rows.map((r) => [r.claimed_by, r.n])).toEqual([['alive', 2], ['other', 2]]);
  });

  it('renews only the claims it knows it holds: one whose answer was lost lapses and is claimed again', async () => {
    await queue(['a.test'], 2);
    const w = frontier('w', { leaseMs: 2000 });
    const known = await w.claim(1);
    expect(known).toHaveLength(1);
    // A claim the server made for `w` whose answer never reached it (a connection cut after the statement ran).
    const lostAnswer = frontier('w', { leaseMs: 2000 });
    const [lost] = await lostAnswer.claim(1);
    expect(lost).toBeDefined();
    clock += 1500;
    await w.renew();
    clock += 501;
    const other = frontier('other', { leaseMs: 2000 });
    expect((await other.claim(10)).map((c) => c.id)).toEqual([lost!.id]);
    const [row] = await sql`SELECT claimed_by FROM url WHERE id = ${known[0]!.id}`;
    expect(row!.claimed_by).toBe('w');
  });

  it('a lapsed claim does not hold its host slot', async () => {
    await queue(['a.test'], 3);
    await frontier('dead', { leaseMs: 1000, perHostConcurrency: 1 }).claim(1);
    const w = frontier('w', { leaseMs: 1000, perHostConcurrency: 1 });
    expect(await w.claim(1)).toEqual([]);
    clock += 1001;
    // The lapsed claim is the shallowest (depth 0, lowest id): taken again first.
    expect((await w.claim(5)).map((c) => c.key)).toEqual(['http://a.test/0']);
  });
});

describe.skipIf(typeof cluster === 'string')('PgFrontier: live claims counted as far as a host limit', () => {
  it('a host with more live claims than its limit (the limit lowered since) stays full; other hosts open', async () => {
    await queue(['a.test'], 6);
    await queue(['b.test'], 6, () => 1);
    const wide = await frontier('w1', { perHostConcurrency: 4 }).claim(4);
    expect(wide.map((c) => c.host)).toEqual(['a.test', 'a.test', 'a.test', 'a.test']);
    const narrow = frontier('w2', { perHostConcurrency: 2 });
    expect((await narrow.claim(10)).map((c) => c.host)).toEqual(['b.test', 'b.test']);
    await settle(wide.slice(0, 2).map((c) => c.id));
    expect(await narrow.claim(10)).toEqual([]);
    await settle(wide.slice(2, 3).map((c) => c.id));
    expect((await narrow.claim(10)).map((c) => c.host)).toEqual(['a.test']);
  });

  it("keeps each host's shallowest queued depth in its row: lowered as URLs are queued, set again by the claim that takes them", async () => {
    await queue(['a.test'], 2, () => 2);
    const depthOf = async (): Promise<unknown> => (await sql`SELECT queued_depth FROM crawl_host WHERE host = 'a.test'`)[0]!.queued_depth;
    expect(await depthOf()).toBe(2);
    await queue(['a.test'], 1, () => 1, 2);
    expect(await depthOf()).toBe(1);
    const w = frontier('w');
    expect((await w.claim(1)).map((c) => c.depth)).toEqual([1]);
    expect(await depthOf()).toBe(2);
    expect(await w.claim(5)).toHaveLength(2);
    expect(await depthOf()).toBe(null);
    // Queued again (a worker that stops gives its claims back): the host is claimable again.
    await sql`UPDATE url SET state = 'queued', claimed_by = NULL, lease_until = NULL WHERE state = 'fetching'`;
    expect(await depthOf()).toBe(1);
    expect(await frontier('w2').claim(5)).toHaveLength(3);
  });

  it("a host whose queued depth was lost (a URL queued while a claim set it again) gets it back in the worker's next tidy round", async () => {
    const ids = await queue(['a.test', 'b.test'], 1);
    await queue(['b.test'], 1, () => 1, 1);
    await sql`UPDATE crawl_host SET queued_depth = NULL WHERE host = 'a.test'`;
    const w = frontier('w');
    const claimed = await w.claim(5);
    expect(claimed.filter((c) => c.host === 'a.test').map((c) => c.id)).toEqual(ids.get('a.test'));
    expect(claimed).toHaveLength(3);
  });

  it('a host emptied by a claim while a URL was queued on it unseen gets its depth back from the hosts emptied lately', async () => {
    const ids = await queue(['a.test'], 1);
    const w = frontier('w');
    expect((await w.claim(5)).map((c) => c.id)).toEqual(ids.get('a.test'));
    const [row] = await sql`SELECT queued_depth, emptied_at FROM crawl_host WHERE host = 'a.test'`;
    expect([row!.queued_depth, Number(row!.emptied_at)]).toEqual([null, clock]);
    // As if a page's transaction had queued a deep URL before the claim committed (it saw the old depth, wrote nothing).
    const [deep] = (await queue(['a.test'], 1, () => 3, 1)).get('a.test')!;
    await sql`UPDATE crawl_host SET queued_depth = NULL WHERE host = 'a.test'`;
    // Many shallower URLs elsewhere: the host is not among the crawl's shallowest.
    await queue(['b.test'], 80);
    clock += 1000;
    const next = await w.claim(1);
    expect(next).toHaveLength(1);
    const [after] = await sql`SELECT queued_depth FROM crawl_host WHERE host = 'a.test'`;
    expect(after!.queued_depth).toBe(3);
    expect(deep).toBeDefined();
  });

  it("takes hosts in the order of their first queued URL, every host's first before any host's second, and touches only the hosts it takes from", async () => {
    await queue(['a.test', 'b.test', 'c.test'], 2);
    const w = frontier('w', { perHostConcurrency: 1 });
    const before = await sql`SELECT host, xmin::text AS version FROM crawl_host ORDER BY host`;
    const [first] = await w.claim(1);
    const after = await sql`SELECT host, xmin::text AS version FROM crawl_host ORDER BY host`;
    expect(after.filter((row, i) => row.version !== before[i]!.version).map((row) => row.host)).toEqual([first!.host]);
    // Every host's first URL before any host's second.
    const order = [first!.host];
    for (let i = 0; i < 2; i++) order.push(...(await w.claim(1)).map((c) => c.host));
    expect([...order].sort()).toEqual(['a.test', 'b.test', 'c.test']);
    await settle((await sql`SELECT id FROM url WHERE state = 'fetching'`).map((r) => r.id as number));
    for (let i = 0; i < 3; i++) order.push(...(await w.claim(1)).map((c) => c.host));
    expect(order.slice(3)).toEqual(order.slice(0, 3));
  });

  it('the host limit holds with many lapsed and live claims on it: only the live ones hold a slot', async () => {
    const [ids] = [...(await queue(['a.test'], 60)).values()];
    await sql`UPDATE url SET state = 'fetching', claimed_by = 'dead', lease_until = ${clock - 1} WHERE id = ANY(${sql.array(ids!.slice(0, 50))}::bigint[])`;
    await sql`UPDATE url SET state = 'fetching', claimed_by = 'other', lease_until = ${clock + 5000} WHERE id = ANY(${sql.array(ids!.slice(50, 52))}::bigint[])`;
    const w = frontier('w', { perHostConcurrency: 3 });
    await w.claim(100); // creates the host's row
    const [row] = await sql`SELECT count(*)::integer AS n FROM url WHERE state = 'fetching' AND claimed_by = 'w'`;
    expect(row!.n).toBe(1);
    expect(await frontier('w2', { perHostConcurrency: 3 }).claim(100)).toEqual([]);
  });

  it('a claim left without a lease (a copied index) is taken as a lapsed one', async () => {
    const [ids] = [...(await queue(['a.test'], 2)).values()];
    await sql`UPDATE url SET state = 'fetching', claimed_by = 'gone', lease_until = NULL WHERE id = ${ids![0]!}`;
    const w = frontier('w', { perHostConcurrency: 1 });
    expect((await w.claim(5)).map((c) => c.id)).toEqual([ids![0]]);
  });
});

describe.skipIf(typeof cluster === 'string')('PgFrontier: SKIP LOCKED', () => {
  it('claims in parallel from many workers never return one URL twice, and take every URL', async () => {
    const hosts = Array.from({ length: 12 }, (_, i) => `h${i}.test`);
    const ids = await queue(hosts, 40, (i) => i % 3);
    const workers = Array.from({ length: 6 }, (_, i) => {
      const pool = connect(dbUrl, { max: 2 });
      pools.push(pool);
      return frontier(`w${i}`, { pool, perHostConcurrency: 1000 });
    });
    const taken: number[] = [];
    await Promise.all(
      workers.map(async (w) => {
        for (let empty = 0; empty < 3; ) {
          const got = await w.claim(7);
          taken.push(...got.map((c) => c.id));
          empty = got.length === 0 ? empty + 1 : 0;
        }
      }),
    );
    const all = [...ids.values()].flat();
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.sort((a, b) => a - b)).toEqual(all.sort((a, b) => a - b));
  });

  it('parallel claims from many workers never take more than a host slots', async () => {
    const hosts = Array.from({ length: 4 }, (_, i) => `h${i}.test`);
    await queue(hosts, 30);
    for (let round = 0; round < 5; round++) {
      const workers = Array.from({ length: 6 }, (_, i) => {
        const pool = connect(dbUrl, { max: 1 });
        pools.push(pool);
        return frontier(`w${i}`, { pool, perHostConcurrency: 3 });
      });
      await Promise.all(workers.map(async (w) => { for (let i = 0; i < 4; i++) await w.claim(2); }));
      // Claims that met another's on a host leave it to the next claim.
      await workers[0]!.claim(12);
      const busy = await sql`SELECT host, count(*)::integer AS n FROM url WHERE state = 'fetching' GROUP BY 1`;
      for (const row of busy) expect(row.n).toBeLessThanOrEqual(3);
      expect(busy.reduce((sum, row) => sum + (row.n as number), 0)).toBe(12);
      await sql`UPDATE url SET state = 'done', claimed_by = NULL, lease_until = NULL WHERE state = 'fetching'`;
    }
  });
});

describe.skipIf(typeof cluster === 'string')('PgFrontier: whenIdle', () => {
  it('over when nothing is queued and no other worker holds a live claim', async () => {
    const me = frontier('me', { leaseMs: 1000 });
    const other = frontier('other', { leaseMs: 1000 });
    expect(await me.whenIdle()).toEqual({ isOver: true, retryInMs: 0 });
    await queue(['a.test'], 2);
    expect((await me.whenIdle()).isOver).toBe(false);
    await me.claim(1);
    expect((await me.whenIdle()).isOver).toBe(false);
    const [theirs] = await other.claim(1);
    // Nothing queued; only my own live claim and another worker's: its fetch may queue more.
    expect((await me.whenIdle()).isOver).toBe(false);
    expect((await other.whenIdle()).isOver).toBe(false);
    await settle([theirs!.id]);
    expect(await me.whenIdle()).toEqual({ isOver: true, retryInMs: 0 });
    // My claim, seen from another worker, is not over until its lease runs out; then it is claimable.
    expect((await other.whenIdle()).isOver).toBe(false);
    clock += 1001;
    expect((await me.whenIdle()).isOver).toBe(false);
  });

  it('retry when the next host slot opens, within 25..500 ms', async () => {
    await queue(['a.test', 'b.test'], 3);
    const w = frontier('w', { perHostDelayMs: 300 });
    await settle((await w.claim(10)).map((c) => c.id));
    expect(await w.whenIdle()).toEqual({ isOver: false, retryInMs: 300 });
    clock += 290;
    expect(await w.whenIdle()).toEqual({ isOver: false, retryInMs: 25 });
    await w.setHostDelay('a.test', 60_000);
    clock += 10;
    await settle((await w.claim(10)).map((c) => c.id));
    expect(await w.whenIdle()).toEqual({ isOver: false, retryInMs: 300 });
    clock += 300;
    // No slot ahead in next_at (a.test waits on its last start plus a minute): asked again in 50 ms.
    expect((await w.whenIdle()).retryInMs).toBe(50);
    await sql`UPDATE crawl_host SET next_at = ${clock + 60_000}::bigint WHERE host = 'a.test'`;
    // The next slot a minute away: asked again in 500 ms at most.
    expect((await w.whenIdle()).retryInMs).toBe(500);
  });
});

describe.skipIf(typeof cluster === 'string')('PgFrontier: the worker', () => {
  it('start records it, reportProgress its counts, stop releases its claims and ends it', async () => {
    await queue(['a.test'], 3);
    const w = frontier('w1', { leaseMs: 3000 });
    const other = frontier('w2', { leaseMs: 3000 });
    await w.start();
    await other.start();
    const mine = await w.claim(2);
    await other.claim(1);
    await w.reportProgress({ requests: 2, pages: 1 });
    let [row] = await sql`SELECT * FROM crawl_worker WHERE id = 'w1'`;
    expect(row).toMatchObject({ pid: process.pid, started_at: clock, heartbeat_at: clock, ended_at: null });
    expect(JSON.parse(row!.counts as string)).toEqual({ requests: 2, pages: 1 });
    clock += 500;
    await w.stop();
    await other.stop();
    [row] = await sql`SELECT * FROM crawl_worker WHERE id = 'w1'`;
    expect(row!.ended_at).toBe(clock);
    const queued = await sql`SELECT id FROM url WHERE state = 'queued' ORDER BY id`;
    expect(queued.map((r) => r.id)).toEqual([...mine.map((c) => c.id), (await sql`SELECT max(id) AS id FROM url`)[0]!.id].sort((a, b) => a - b));
  });

  it('renews its leases every leaseMs / 3 while it runs, by the database clock', async () => {
    await queue(['a.test'], 1);
    // The worker's own clock an hour ahead: the leases are the server's.
    const w = new PgFrontier(sql, { workerId: 'w1', leaseMs: 300, now: () => Date.now() + 3_600_000 });
    await w.start();
    const [claimed] = await w.claim(1);
    const lease = async (): Promise<{ until: number; server: number }> => {
      const [row] = await sql`SELECT lease_until AS until, (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS server FROM url WHERE id = ${claimed!.id}`;
      return row as unknown as { until: number; server: number };
    };
    const first = await lease();
    expect(first.until - first.server).toBeLessThanOrEqual(300);
    expect(first.until - first.server).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 350));
    const later = await lease();
    await w.stop();
    expect(later.until).toBeGreaterThan(first.until);
    expect(later.until).toBeGreaterThanOrEqual(later.server);
  });

  it('renews at most a second apart, however long the lease', async () => {
    await queue(['a.test'], 1);
    const w = new PgFrontier(sql, { workerId: 'w1', leaseMs: 60_000, now: Date.now });
    await w.start();
    const [claimed] = await w.claim(1);
    const leaseOf = async (): Promise<number> => (await sql`SELECT lease_until FROM url WHERE id = ${claimed!.id}`)[0]!.lease_until as number;
    const first = await leaseOf();
    await new Promise((resolve) => setTimeout(resolve, 1400));
    const later = await leaseOf();
    await w.stop();
    expect(later).toBeGreaterThan(first);
  });

  it('renews its other claims without waiting for a unit that holds one of them locked', async () => {
    await queue(['a.test'], 3);
    const w = frontier('w1', { leaseMs: 1000 });
    const [held, ...others] = await w.claim(3);
    clock += 500;
    const outcome = await sql.begin(async (tx) => {
      await tx`SELECT 1 FROM url WHERE id = ${held!.id} FOR UPDATE`;
      return Promise.race([w.renew().then(() => 'renewed'), new Promise((resolve) => setTimeout(() => resolve('waited'), 3000))]);
    });
    expect(outcome).toBe('renewed');
    const rows = await sql`SELECT id, lease_until - ${clock}::bigint AS ahead FROM url WHERE state = 'fetching' ORDER BY id`;
    expect(rows.map((r) => [r.id, r.ahead])).toEqual([[held!.id, 500], ...others.map((c) => [c.id, 1000])]);
  });

  it('does not renew a claim it let lapse: that one is claimable by another worker', async () => {
    await queue(['a.test'], 2);
    const w = frontier('w1', { leaseMs: 1000 });
    const [lapsed, live] = await w.claim(2);
    clock += 600;
    await w.renew();
    await sql`UPDATE url SET lease_until = ${clock - 1}::bigint WHERE id = ${lapsed!.id}`;
    await w.renew();
    const rows = await sql`SELECT id, lease_until - ${clock}::bigint AS ahead FROM url WHERE state = 'fetching' ORDER BY id`;
    expect(rows.map((r) => [r.id, r.ahead])).toEqual([[lapsed!.id, -1], [live!.id, 1000]]);
    expect((await frontier('w2').claim(10)).map((c) => c.id)).toEqual([lapsed!.id]);
  });
});
