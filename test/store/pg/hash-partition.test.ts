// The partition of a site, computed in the client (hash-partition.ts), against the
// server's own routing: satisfies_hash_partition for random sites and partition counts,
// and where rows inserted through the partitioned table land.

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../../src/store/pg/pg-database.js';
import { partitionOfSite } from '../../../src/store/pg/hash-partition.js';
import { startPostgres } from '../../support/postgres-cluster.js';
import { skipNotice } from '../../support/system-tools.js';

const cluster = await startPostgres();
if (typeof cluster === 'string') skipNotice('hash partitions of sites', cluster);
afterAll(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
});

describe.skipIf(typeof cluster === 'string')('partitionOfSite', () => {
  it("is the partition PostgreSQL routes a site to, for any site and partition count", async () => {
    if (typeof cluster === 'string') return;
    const sql = connect(await cluster.createDatabase(), { max: 1 });
    try {
      await sql`CREATE TABLE t (site integer NOT NULL) PARTITION BY HASH (site)`;
      const cases = fc.sample(fc.tuple(fc.integer(), fc.constantFrom(2, 3, 8, 16, 64, 100, 1024)), 2000);
      cases.push([0, 64], [-1, 64], [2147483647, 8], [-2147483648, 8]);
      const rows = await sql`
        SELECT bool_and(satisfies_hash_partition('t'::regclass, m, r, s)) AS ok
        FROM unnest(${cases.map(([s]) => s)}::integer[], ${cases.map(([, m]) => m)}::integer[], ${cases.map(([s, m]) => partitionOfSite(s, m))}::integer[]) AS x (s, m, r)`;
      expect(rows[0]!.ok).toBe(true);
      // And a row inserted through the table lands in that partition.
      for (let r = 0; r < 8; r++) await sql.unsafe(`CREATE TABLE t_p${r} PARTITION OF t FOR VALUES WITH (MODULUS 8, REMAINDER ${r})`);
      const sites = fc.sample(fc.integer(), 200);
      await sql`INSERT INTO t SELECT * FROM unnest(${sites}::integer[])`;
      const landed = await sql`SELECT site, tableoid::regclass::text AS part FROM t`;
      for (const row of landed) expect(row.part).toBe(`t_p${partitionOfSite(row.site as number, 8)}`);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});
