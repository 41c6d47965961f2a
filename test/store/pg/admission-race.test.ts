// Two workers admitting the same new URLs at the same moment (issue 12): one row
// each, and between them exactly one link says `new` for each target, as one
// SQLite writer would say.

import { afterAll, describe, expect, it } from 'vitest';
import { PgStore, type AdmitEntry, type AdmitResult } from '../../../src/store/index.js';
import { startPostgres } from '../../support/postgres-cluster.js';
import { skipNotice } from '../../support/system-tools.js';

const cluster = await startPostgres();
if (typeof cluster === 'string') skipNotice('PostgreSQL admission races', cluster);
afterAll(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
});

describe.skipIf(typeof cluster === 'string')('PgStore admission across workers', () => {
  it('makes one row for a URL two workers admit at once, and one `new` link for it', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const [a, b] = [await PgStore.open({ url }), await PgStore.open({ url })];
    try {
      const [seed] = await a.admit([{ rawHref: 'http://h/', target: 'http://h/', depth: 0 }]);
      const page = seed!.urlId!;
      const targets = Array.from({ length: 400 }, (_, i) => `http://h/p${i}`);
      // Spelled differently by the two workers: the second meets the first's rows at the syntax rung.
      const batch = (spell: (t: string) => string): AdmitEntry[] => targets.map((t) => ({ fromUrlId: page, rawHref: t, target: spell(t), depth: 1 }));
      const rounds: Promise<AdmitResult[]>[] = [];
      for (let i = 0; i < 10; i++) {
        const slice = (entries: AdmitEntry[]): AdmitEntry[] => entries.slice(i * 40, i * 40 + 40);
        rounds.push(a.admit(slice(batch((t) => t))), b.admit(slice(batch((t) => t.replace('http://h/', 'HTTP://h/')))));
      }
      const results = await Promise.all(rounds);
      const byTarget = new Map<number, AdmitResult[]>();
      for (const r of results.flat()) byTarget.set(r.urlId!, [...(byTarget.get(r.urlId!) ?? []), r]);
      expect(byTarget.size).toBe(400);
      for (const pair of byTarget.values()) {
        expect(pair).toHaveLength(2);
        expect(pair.filter((r) => r.rung === 'new')).toHaveLength(1);
        expect(pair.filter((r) => r.isQueued)).toHaveLength(1);
      }
      const stats = await a.stats();
      expect(stats.urlsByState.queued).toBe(401);
      expect(stats.links).toBe(800);
      expect(stats.linksByRung.new).toBe(400);
      const [rows] = await a.sql`SELECT count(*)::integer AS n, count(DISTINCT key)::integer AS keys FROM url`;
      expect(rows).toEqual({ n: 401, keys: 401 });
    } finally {
      await a.close();
      await b.close();
    }
  });
});
