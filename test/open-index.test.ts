// One openIndex(pathOrUrl) for every store: a path or `:memory:` opens the SQLite index,
// a postgres:// or postgresql:// URL the PostgreSQL one; openIndexReader likewise.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openIndex, openIndexReader } from '../src/open-index.js';
import { PgStore, SqliteStore } from '../src/store/index.js';
import { startPostgres } from './support/postgres-cluster.js';
import { skipNotice } from './support/system-tools.js';

const cluster = await startPostgres();
if (typeof cluster === 'string') skipNotice('openIndex on PostgreSQL', cluster);
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  if (typeof cluster !== 'string') await cluster.stop();
});

const SEED = { rawHref: 'http://a/', target: 'http://a/', depth: 0 };

describe('openIndex on SQLite', () => {
  it('opens a file path (created and migrated), then reads it back with openIndexReader', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-open-index-'));
    dirs.push(dir);
    const file = path.join(dir, 'index.db');
    const index = await openIndex(file);
    expect(index).toBeInstanceOf(SqliteStore);
    expect((await index.admit([SEED]))[0]).toMatchObject({ urlId: 1, rung: 'new', isQueued: true });
    await index.close();
    const reader = await openIndexReader(file);
    expect((await reader.stats()).urlsByState.queued).toBe(1);
    await reader.close();
    const readOnly = await openIndex(file, { readOnly: true });
    expect((await readOnly.getUrl(1))?.key).toBe('http://a/');
    await readOnly.close();
  });

  it('opens a private in-memory index for :memory:', async () => {
    const index = await openIndex(':memory:');
    expect(index).toBeInstanceOf(SqliteStore);
    expect((await index.admit([SEED]))[0]).toMatchObject({ rung: 'new' });
    await index.close();
  });

  it('rejects a reader for a file that is not there', async () => {
    await expect(openIndexReader(path.join(tmpdir(), 'linkladder-absent', 'x.db'))).rejects.toThrow(expect.objectContaining({ code: 'ERR_STORE_OPEN' }));
  });
});

describe.skipIf(typeof cluster === 'string')('openIndex on PostgreSQL', () => {
  it.each(['postgres', 'postgresql'])('opens a %s:// URL as the PostgreSQL index crawl() writes, then reads it with openIndexReader', async (scheme) => {
    if (typeof cluster === 'string') return;
    const url = (await cluster.createDatabase()).replace(/^postgres(?:ql)?:/, `${scheme}:`);
    const index = await openIndex(url, { maxConnections: 2 });
    expect(index).toBeInstanceOf(PgStore);
    expect((await index.admit([SEED]))[0]).toMatchObject({ urlId: 1, rung: 'new', isQueued: true });
    await index.close();
    const reader = await openIndexReader(url);
    expect((await reader.stats()).urlsByState.queued).toBe(1);
    await reader.close();
    const readOnly = await openIndex(url, { readOnly: true, maxConnections: 1 });
    expect((await readOnly.getUrl(1))?.key).toBe('http://a/');
    await readOnly.close();
  });
});
