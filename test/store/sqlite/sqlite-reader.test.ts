// The SQLite store beyond the contracts: reading a database file, keys kept in
// memory, other writers. What every reader reads back is test/store/reader-contract.test.ts.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore, openIndexReader } from '../../../src/store/index.js';
import { collect } from '../../support/collect.js';
import { collapsedEdges } from '../collapsed-edges.js';
import { link, smallCrawl } from '../small-crawl.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function scratchDb(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-reader-'));
  folders.push(dir);
  return path.join(dir, 'index.db');
}

describe('SqliteStore reader', () => {
  it('opens a database file to read it, and the `link` view gives one row per link for SQL users', async () => {
    const file = scratchDb();
    const store = new SqliteStore({ path: file });
    await smallCrawl(store);
    await store.close();
    const reader = openIndexReader(file);
    expect(await collect(reader.links())).toHaveLength(6);
    expect(await collapsedEdges(reader)).toHaveLength(4);
    await reader.close();
    expect(() => openIndexReader(path.join(path.dirname(file), 'absent.db'))).toThrow(expect.objectContaining({ code: 'ERR_STORE_OPEN' }));
  });
});

describe('SqliteStore keys in memory', () => {
  it('finds every key and spelling again after the database is reopened', async () => {
    const file = scratchDb();
    const store = new SqliteStore({ path: file });
    const [home] = await store.admit([{ rawHref: 'http://site/', target: 'http://site/' }]);
    const first = await store.admit([link(home!.urlId!, 'x', 'http://SITE:80/x'), link(home!.urlId!, 'y', 'http://site/y', { follow: false })]);
    await store.close();
    const reopened = new SqliteStore({ path: file });
    const again = await reopened.admit([
      link(home!.urlId!, 'x', 'http://SITE:80/x'),
      link(home!.urlId!, 'x', 'http://site:80/x'),
      link(home!.urlId!, 'x', 'http://site/x'),
      link(home!.urlId!, 'y', 'http://site/y'),
    ]);
    expect(again.map((r) => [r.urlId, r.rung, r.isQueued])).toEqual([
      [first[0]!.urlId, 'string', false],
      [first[0]!.urlId, 'syntax', false], // its syntax form was kept: it meets that
      [first[0]!.urlId, 'string', false],
      [first[1]!.urlId, 'string', true], // skipped until a followed link named it
    ]);
    await reopened.close();
  });
});

describe('SqliteStore with other writers', () => {
  it('DEVIATION(STYLE url.key UNIQUE): integrityCheck finds a key stored twice, which no index forbids', async () => {
    const file = scratchDb();
    const store = new SqliteStore({ path: file });
    await store.admit([{ rawHref: 'http://site/', target: 'http://site/' }]);
    await store.close();
    const raw = new Database(file);
    raw.prepare(`INSERT INTO url (key, scheme, host, state, depth, first_seen) VALUES ('http://site/', 'http', 'site', 'queued', 0, 0)`).run();
    raw.close();
    const reopened = new SqliteStore({ path: file });
    expect(reopened.integrityCheck()).toBe('url.key stored twice: http://site/');
    await reopened.close();
  });

  it('sees what another connection admitted since its last transaction, so nothing is admitted twice', async () => {
    const file = scratchDb();
    const first = new SqliteStore({ path: file });
    // One writer per index: the second goes without the lock, as a writer its caller keeps in step.
    const second = new SqliteStore({ path: file, writerLock: false });
    const [home] = await first.admit([{ rawHref: 'http://site/', target: 'http://site/' }]);
    await first.flush(); // a group holds the write lock until it commits
    // The second store built its key table before the first admitted: it must catch up.
    expect((await second.findUrl('http://site/'))?.id).toBe(home?.urlId);
    const [again] = await second.admit([{ rawHref: 'http://SITE/', target: 'http://SITE/' }]);
    expect(again).toMatchObject({ urlId: home?.urlId, rung: 'syntax' });
    await second.flush();
    const [fromFirst] = await first.admit([{ rawHref: 'http://SITE/', target: 'http://SITE/' }]);
    expect(fromFirst).toMatchObject({ urlId: home?.urlId, rung: 'string' }); // the form the second wrote
    expect(first.integrityCheck()).toBe('ok');
    await first.close();
    await second.close();
  });
});
