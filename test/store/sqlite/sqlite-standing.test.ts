// The SQLite store reads the standing (state and role) of a followed URL below the
// page role (an image, a stylesheet, an external link) from its table once, not once
// per link that names it: a site's logo linked from every page costs one read. The
// memory it keeps must never hide a role raised since, or a rolled-back write.

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteStore, type AdmitEntry } from '../../../src/store/index.js';

const STANDING_SQL = 'SELECT state, role FROM url WHERE id = :id';
const STATE_SQL = 'SELECT state FROM url WHERE id = :id';

let standingReads = 0;
let stateReads = 0;
const prepare = Database.prototype.prepare;

beforeEach(() => {
  standingReads = 0;
  stateReads = 0;
  // Count the standing reads of every store opened in the test.
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    const statement = prepare.call(this, sql);
    if (sql === STANDING_SQL || sql === STATE_SQL) {
      const get = statement.get.bind(statement) as (...parameters: unknown[]) => unknown;
      statement.get = ((...parameters: unknown[]) => {
        if (sql === STANDING_SQL) standingReads++;
        else stateReads++;
        return get(...parameters);
      }) as typeof statement.get;
    }
    return statement;
  } as typeof prepare;
});

afterEach(() => {
  Database.prototype.prepare = prepare;
});

function link(fromUrlId: number, target: string, extra: Partial<AdmitEntry> = {}): AdmitEntry {
  return { fromUrlId, rawHref: target, target, depth: 1, ...extra };
}

async function openWithPage(): Promise<{ store: SqliteStore; page: number }> {
  const store = new SqliteStore({ path: ':memory:' });
  const [seed] = await store.admit([{ rawHref: 'http://host/', target: 'http://host/', depth: 0 }]);
  return { store, page: seed!.urlId! };
}

describe('SQLite store: the standing of a followed resource', () => {
  it('is read from the table once however many links name it', async () => {
    const { store, page } = await openWithPage();
    const links = Array.from({ length: 50 }, () => link(page, 'http://host/logo.png', { role: 'resource', element: 'img', attribute: 'src' }));
    await store.admit(links.slice(0, 1));
    await store.admit(links.slice(1));
    await store.admit(Array.from({ length: 20 }, () => link(page, 'http://other/x', { role: 'external' })));
    expect(standingReads).toBeLessThanOrEqual(2);
    expect(await store.findUrl('http://host/logo.png')).toMatchObject({ state: 'queued', role: 'resource' });
    await store.close();
  });

  it('a fetch recorded for a URL the store admitted reads no row to check that it exists; an unknown id is still refused', async () => {
    const { store, page } = await openWithPage();
    const [target] = await store.admit([link(page, 'http://host/a')]);
    await store.claim(10);
    await store.recordFetch({ urlId: page, outcome: 'done', startedAt: 1, status: 200 });
    await store.recordFetch({ urlId: target!.urlId!, outcome: 'done', startedAt: 1, status: 404 });
    expect(stateReads).toBe(0);
    await expect(store.recordFetch({ urlId: 999, outcome: 'done', startedAt: 1, status: 200 })).rejects.toThrow(
      expect.objectContaining({ code: 'ERR_STORE_NOT_FOUND' }),
    );
    await expect(store.recordFetch({ urlId: 1.5, outcome: 'done', startedAt: 1, status: 200 })).rejects.toThrow(
      expect.objectContaining({ code: 'ERR_STORE_NOT_FOUND' }),
    );
    expect((await store.history(target!.urlId!))?.fetches.map((f) => f.status)).toEqual([404]);
    await store.close();
  });

  it('follows a role raised after it was remembered', async () => {
    const { store, page } = await openWithPage();
    await store.admit([link(page, 'http://host/pic', { role: 'resource' }), link(page, 'http://host/pic', { role: 'resource' })]);
    // A followed page link raises the queued resource; later links see a page.
    await store.admit([link(page, 'http://host/pic')]);
    await store.admit([link(page, 'http://host/pic', { role: 'resource' }), link(page, 'http://host/pic')]);
    expect(await store.findUrl('http://host/pic')).toMatchObject({ state: 'queued', role: 'page' });
    expect((await store.claim(10)).map((u) => [u.key, u.role])).toEqual([
      ['http://host/', 'page'],
      ['http://host/pic', 'page'],
    ]);
    await store.close();
  });

  it('forgets what a rolled-back unit wrote', async () => {
    const { store, page } = await openWithPage();
    await expect(
      store.transact(async (tx) => {
        await tx.admit([link(page, 'http://host/style.css', { role: 'resource' }), link(page, 'http://host/style.css', { role: 'resource' })]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await store.findUrl('http://host/style.css')).toBeUndefined();
    // Admitted again: a new row, skipped this time, and followed by the next link.
    await store.admit([link(page, 'http://host/style.css', { role: 'resource', follow: false })]);
    expect(await store.findUrl('http://host/style.css')).toMatchObject({ state: 'skipped', role: 'resource' });
    const [followed] = await store.admit([link(page, 'http://host/style.css', { role: 'resource' })]);
    expect(followed).toMatchObject({ rung: 'string', isQueued: true });
    expect(await store.findUrl('http://host/style.css')).toMatchObject({ state: 'queued', role: 'resource' });
    await store.close();
  });
});
