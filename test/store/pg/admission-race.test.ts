// Two workers admitting the same new URLs at the same moment: one row
// each, and between them exactly one link says `new` for each target, as one
// SQLite writer would say. A worker remembers what it met (known-urls.ts): what
// another worker changed since (an alias, a raised role) still counts, and nothing of
// a transaction that rolled back is remembered.

import { afterAll, describe, expect, it } from 'vitest';
import { PgStore, type AdmitEntry, type AdmitResult } from '../../../src/store/index.js';
import { startPostgres } from '../../support/postgres-cluster.js';
import { skipNotice } from '../../support/system-tools.js';

const cluster = await startPostgres();
if (typeof cluster === 'string') skipNotice('PostgreSQL admission races', cluster);
afterAll(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
});

/**
 * Pages for the links of each worker's round: in a crawl a page's links are one worker's,
 * written by one unit (`ROUNDS` rounds of worker a, then of worker b).
 */
const ROUNDS = 30;
const PAGES: AdmitEntry[] = Array.from({ length: 2 * ROUNDS }, (_, i) => ({ rawHref: `http://h/from/${i}`, target: `http://h/from/${i}`, depth: 0 }));

describe.skipIf(typeof cluster === 'string')('PgStore admission across workers', () => {
  it('makes one row for a URL two workers admit at once, and one `new` link for it', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const [a, b] = [await PgStore.open({ url }), await PgStore.open({ url })];
    try {
      // Each worker's links come from a page of its own, as a crawl's do (a page's links are one worker's).
      const pages = (await a.admit(PAGES)).map((r) => r.urlId!);
      const targets = Array.from({ length: 400 }, (_, i) => `http://h/p${i}`);
      // Spelled differently by the two workers: the second meets the first's rows at the syntax rung.
      const batch = (page: number, spell: (t: string) => string): AdmitEntry[] => targets.map((t) => ({ fromUrlId: page, rawHref: t, target: spell(t), depth: 1 }));
      const rounds: Promise<AdmitResult[]>[] = [];
      for (let i = 0; i < 10; i++) {
        const slice = (entries: AdmitEntry[]): AdmitEntry[] => entries.slice(i * 40, i * 40 + 40);
        rounds.push(a.admit(slice(batch(pages[i]!, (t) => t))), b.admit(slice(batch(pages[ROUNDS + i]!, (t) => t.replace('http://h/', 'HTTP://h/')))));
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
      expect(stats.urlsByState.queued).toBe(400 + PAGES.length);
      expect(stats.links).toBe(800);
      expect(stats.linksByRung.new).toBe(400);
      const [rows] = await a.sql`SELECT count(*)::integer AS n, count(DISTINCT key)::integer AS keys FROM url`;
      expect(rows).toEqual({ n: 400 + PAGES.length, keys: 400 + PAGES.length });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('gives a spelling two workers meet at once for the first time the rung one writer would: one link meets it new to the index, the other as written', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const [a, b] = [await PgStore.open({ url }), await PgStore.open({ url })];
    try {
      const targets = Array.from({ length: 300 }, (_, i) => `http://h/p${i}`);
      const pages = (await a.admit([...PAGES, ...targets.map((t) => ({ rawHref: t, target: t, depth: 1 }))])).map((r) => r.urlId!);
      // Spellings new to the index, each met by both workers at once: at the syntax rung
      // (case), at the syntax rung again once its syntax form is stored by another
      // (HTTP:// and :80), and at the scheme rung (default port).
      const spellings = (t: string): string[] => [t.replace('http://h/', 'HTTP://H/'), t.replace('http://h/', 'http://h:80/'), t.replace('http://h/', 'HTTP://h:80/')];
      const link = (target: string, page = pages[0]!): AdmitEntry => ({ fromUrlId: page, rawHref: target, target, depth: 1 });
      const rounds: Promise<AdmitResult[]>[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const slice = targets.slice(i * 10, i * 10 + 10).flatMap(spellings);
        rounds.push(a.admit(slice.map((t) => link(t, pages[i]))), b.admit([...slice].reverse().map((t) => link(t, pages[ROUNDS + i]))));
      }
      await Promise.all(rounds);
      const stats = await a.stats();
      expect(stats.links).toBe(1800);
      // One writer: the first link of each of the 900 spellings climbs (syntax or scheme), the second meets it as written.
      expect(stats.linksByRung.string).toBe(900);
      expect((stats.linksByRung.syntax ?? 0) + (stats.linksByRung.scheme ?? 0)).toBe(900);
      expect(stats.linksByRung.new ?? 0).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('gives a stored syntax form two workers meet at once as written the rung one writer would: `syntax` once, then `string`', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const [a, b] = [await PgStore.open({ url }), await PgStore.open({ url })];
    try {
      const targets = Array.from({ length: 300 }, (_, i) => `http://h/p${i}`);
      const pages = (await a.admit([...PAGES, ...targets.map((t) => ({ rawHref: t, target: t, depth: 1 }))])).map((r) => r.urlId!);
      const link = (target: string, page = pages[0]!): AdmitEntry => ({ fromUrlId: page, rawHref: target, target, depth: 1 });
      // `HTTP://h:80/p` stores `http://h:80/p` as its syntax form (never seen as written)…
      await a.admit(targets.map((t) => link(t.replace('http://h/', 'HTTP://h:80/'))));
      // … which both workers now meet as written, at once: the first at `syntax`, the second at `string`.
      const rounds: Promise<AdmitResult[]>[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const slice = targets.slice(i * 10, i * 10 + 10).map((t) => t.replace('http://h/', 'http://h:80/'));
        // b admits in a transaction, as a crawl's page unit does: the lost race rolls back to a savepoint.
        rounds.push(a.admit(slice.map((t) => link(t, pages[i]))), b.transact((tx) => tx.admit([...slice].reverse().map((t) => link(t, pages[ROUNDS + i])))));
      }
      await Promise.all(rounds);
      const stats = await a.stats();
      expect(stats.links).toBe(900);
      expect(stats.linksByRung.scheme).toBe(300);
      expect(stats.linksByRung.syntax).toBe(300);
      expect(stats.linksByRung.string).toBe(300);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('admits a page of 2,000 new links while another batch of the same worker takes ids from its pool, and another worker admits the same links', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const [a, b] = [await PgStore.open({ url }), await PgStore.open({ url })];
    try {
      // The seed leaves the pool part of a block; the big batch needs more than that and waits
      // for the sequence, while the small one (started in the same tick) takes from what is left.
      const [seed] = await a.admit([{ rawHref: 'http://h/', target: 'http://h/', depth: 0 }]);
      await b.admit([{ rawHref: 'http://h/', target: 'http://h/', depth: 0 }]);
      const links = (from: number, name: string): AdmitEntry[] =>
        Array.from({ length: 2000 }, (_, i) => ({ fromUrlId: from, rawHref: `${name}${i}`, target: `http://h/${name}${i}`, depth: 1 }));
      const small = Array.from({ length: 100 }, (_, i) => ({ fromUrlId: seed!.urlId!, rawHref: `s${i}`, target: `http://h/s${i}`, depth: 1 }));
      const results = await Promise.all([a.admit(links(seed!.urlId!, 'p')), a.admit(small), b.admit(links(seed!.urlId!, 'p')), b.admit(links(seed!.urlId!, 'q'))]);
      expect(results.map((r) => r.length)).toEqual([2000, 100, 2000, 2000]);
      const [rows] = await a.sql`SELECT count(*)::integer AS n, count(DISTINCT key)::integer AS keys FROM url`;
      expect(rows).toEqual({ n: 4101, keys: 4101 });
      expect((await a.stats()).linksByRung.new).toBe(4100);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('meets a URL it remembers at the protocol rung once another worker made it an alias, and at its own rung once that is revoked', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const [a, b] = [await PgStore.open({ url }), await PgStore.open({ url })];
    try {
      const [page, from, to] = await a.admit(['http://h/', 'http://h/old', 'http://h/new'].map((t) => ({ rawHref: t, target: t, depth: 0 })));
      const link = (target: string): AdmitEntry => ({ fromUrlId: page!.urlId!, rawHref: target, target, depth: 1 });
      expect(await a.admit([link('http://h/old'), link('HTTP://h/old')])).toMatchObject([{ urlId: from!.urlId, rung: 'string' }, { urlId: from!.urlId, rung: 'syntax' }]);
      await b.addAlias({ fromId: from!.urlId!, toId: to!.urlId!, evidence: 'redirect' });
      expect(await a.admit([link('http://h/old'), link('HTTP://h/old')])).toMatchObject([
        { urlId: to!.urlId, rung: 'protocol', ladderRung: 'string' },
        { urlId: to!.urlId, rung: 'protocol', ladderRung: 'string' },
      ]);
      await b.revokeAlias(from!.urlId!);
      expect(await a.admit([link('http://h/old')])).toMatchObject([{ urlId: from!.urlId, rung: 'string' }]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('never lowers a role another worker raised since it last read the URL', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const [a, b] = [await PgStore.open({ url }), await PgStore.open({ url })];
    try {
      const [page] = await a.admit([{ rawHref: 'http://h/', target: 'http://h/', depth: 0 }]);
      const link = (role: 'page' | 'resource' | 'external'): AdmitEntry => ({ fromUrlId: page!.urlId!, rawHref: 'http://h/x', target: 'http://h/x', depth: 1, role });
      const [made] = await a.admit([link('external')]);
      await b.admit([link('page')]);
      await a.admit([link('resource')]);
      expect((await a.getUrl(made!.urlId!))?.role).toBe('page');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('remembers nothing of a transaction that rolled back', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const store = await PgStore.open({ url });
    try {
      const [page] = await store.admit([{ rawHref: 'http://h/', target: 'http://h/', depth: 0 }]);
      const link: AdmitEntry = { fromUrlId: page!.urlId!, rawHref: 'http://h/y', target: 'http://h/y', depth: 1 };
      await expect(
        store.transact(async (tx) => {
          expect(await tx.admit([link])).toMatchObject([{ rung: 'new' }]);
          expect(await tx.admit([link])).toMatchObject([{ rung: 'string' }]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      const [again] = await store.admit([link]);
      expect(again).toMatchObject({ rung: 'new', isQueued: true });
      expect(await store.getUrl(again!.urlId!)).toMatchObject({ state: 'queued' });
    } finally {
      await store.close();
    }
  });

  it('meets what another worker made at the rung a fresh read gives, though it took those targets to be new', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const [a, b] = [await PgStore.open({ url }), await PgStore.open({ url })];
    try {
      const [page] = await a.admit([{ rawHref: 'http://h/', target: 'http://h/', depth: 0 }]);
      const links = (spell: (t: string) => string): AdmitEntry[] =>
        ['http://h/a', 'http://h/b'].map((t) => ({ fromUrlId: page!.urlId!, rawHref: spell(t), target: spell(t), depth: 1 }));
      const made = await a.admit(links((t) => t));
      // b remembers the page (it met it), not the targets: its first guess is wrong, and it reads them.
      expect(await b.admit([{ rawHref: 'http://h/', target: 'http://h/', depth: 0 }])).toMatchObject([{ urlId: page!.urlId, rung: 'string' }]);
      expect(await b.admit(links((t) => t.replace('http://h/', 'HTTP://h/')))).toMatchObject(made.map((r) => ({ urlId: r.urlId, rung: 'syntax', isQueued: false })));
      expect(await b.admit(links((t) => t))).toMatchObject(made.map((r) => ({ urlId: r.urlId, rung: 'string', isQueued: false })));
      const [rows] = await a.sql`SELECT count(*)::integer AS n FROM url`;
      expect(rows).toEqual({ n: 3 });
      expect((await a.stats()).links).toBe(6);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
