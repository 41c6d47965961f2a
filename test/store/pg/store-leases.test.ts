// PgStore's claims on a real PostgreSQL: short leases by default (a worker that died
// holds its claims and their host slots seconds, not half a minute), and holdClaim,
// with which a unit of a claimed URL opens: held while the claim is this worker's and
// live by the database's clock, refused once it lapsed or another worker took it.

import { afterAll, describe, expect, it } from 'vitest';
import { connectPg, partitionPg, PgStore } from '../../../src/store/index.js';
import { startPostgres } from '../../support/postgres-cluster.js';
import { skipNotice } from '../../support/system-tools.js';

const cluster = await startPostgres();
if (typeof cluster === 'string') skipNotice('PostgreSQL claim leases', cluster);
afterAll(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
});

/** A new index; partitioned by site in `partitions` (a claim then takes each URL through claim_url). */
async function freshIndex(partitions: number): Promise<string> {
  if (typeof cluster === 'string') throw new Error(cluster);
  const url = await cluster.createDatabase();
  if (partitions > 0) {
    const sql = connectPg(url, { max: 1 });
    await partitionPg(sql, partitions, { now: Date.now, url });
    await sql.end({ timeout: 1 });
  }
  return url;
}

describe.skipIf(typeof cluster === 'string')('PgStore claims', () => {
  it('leases a claim for 5 s by default, by the database clock', async () => {
    if (typeof cluster === 'string') return;
    const a = await PgStore.open({ url: await cluster.createDatabase(), now: () => Date.now() - 3_600_000 });
    try {
      await a.admit([{ rawHref: 'http://h/', target: 'http://h/', depth: 0 }]);
      const [claimed] = await a.claim(1);
      const [row] = await a.sql`SELECT lease_until - (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ahead FROM url WHERE id = ${claimed!.id}`;
      expect(row!.ahead).toBeGreaterThan(3000);
      expect(row!.ahead).toBeLessThanOrEqual(5000);
    } finally {
      await a.close();
    }
  });

});

describe.skipIf(typeof cluster === 'string').each([
  ['unpartitioned', 0],
  ['partitioned', 16],
])('PgStore claims on an index %s', (_, partitions) => {
  it('holds a live claim of its own; not one that lapsed, nor one another worker took over', async () => {
    const url = await freshIndex(partitions);
    const [a, b] = [await PgStore.open({ url, workerId: 'a' }), await PgStore.open({ url, workerId: 'b' })];
    try {
      await a.admit(['http://h/1', 'http://h/2'].map((t) => ({ rawHref: t, target: t, depth: 0 })));
      const [one, two] = await a.claim(2);
      expect(await a.holdClaim(one!.id)).toBe(true);
      expect(await b.holdClaim(one!.id)).toBe(false);
      await a.sql`UPDATE url SET lease_until = (extract(epoch FROM statement_timestamp()) * 1000)::bigint - 1 WHERE id IN (${one!.id}, ${two!.id})`;
      expect(await a.holdClaim(two!.id)).toBe(false);
      expect((await b.claim(5)).map((c) => c.id).sort()).toEqual([one!.id, two!.id].sort());
      expect(await a.holdClaim(one!.id)).toBe(false);
      expect(await b.holdClaim(one!.id)).toBe(true);
      // Refused in a unit, which holds it without waiting for the answer: the unit is
      // rolled back, and records nothing. b's fetch row is the only one.
      await expect(
        a.transact(async (tx) => {
          if (await tx.holdClaim!(one!.id)) await tx.recordFetch({ urlId: one!.id, outcome: 'done', startedAt: Date.now(), status: 200 });
        }),
      ).rejects.toMatchObject({ code: 'ERR_STORE_CLAIM_LOST' });
      await b.transact(async (tx) => {
        if (await tx.holdClaim!(one!.id)) await tx.recordFetch({ urlId: one!.id, outcome: 'done', startedAt: Date.now(), status: 200 });
      });
      const fetches = await a.sql`SELECT worker FROM "fetch" WHERE url_id = ${one!.id}`;
      expect(fetches.map((f) => f.worker)).toEqual(['b']);
      expect(await b.holdClaim(one!.id)).toBe(false);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("holds the claimed row until the unit commits: another worker's claim skips it though its lease lapses meanwhile", async () => {
    const url = await freshIndex(partitions);
    const [a, b] = [await PgStore.open({ url, workerId: 'a', leaseMs: 300 }), await PgStore.open({ url, workerId: 'b' })];
    try {
      await a.admit([{ rawHref: 'http://h/1', target: 'http://h/1', depth: 0 }]);
      const [one] = await a.claim(1);
      await a.transact(async (tx) => {
        expect(await tx.holdClaim!(one!.id)).toBe(true);
        // The claim held rides with the unit's first statement (here a read), which locks the row.
        await tx.getUrl(one!.id);
        // The 300 ms lease lapses while the unit runs (the renewals skip the locked row).
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect(await b.claim(5)).toEqual([]);
        await tx.recordFetch({ urlId: one!.id, outcome: 'done', startedAt: Date.now(), status: 200 });
      });
      const fetches = await a.sql`SELECT worker FROM "fetch" WHERE url_id = ${one!.id}`;
      expect(fetches.map((f) => f.worker)).toEqual(['a']);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
