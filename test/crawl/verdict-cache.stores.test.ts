// readVerdictCache over each store (memory, SQLite, PostgreSQL): what one crawl
// recorded of its external links, read back as a cache, answers a second crawl into
// a fresh index of the same kind, which asks the external host nothing. The
// PostgreSQL index is a shared frontier: its claims answered from the cache take no
// host slot. PostgreSQL runs as a throwaway cluster (test/support), skipped when it
// cannot start.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { readVerdictCache } from '../../src/crawl/index.js';
import { MemoryStore, SqliteStore, type IndexReader, type IndexWriter } from '../../src/store/index.js';
import { PgStore } from '../../src/store/pg/pg-store.js';
import { startPostgres, type PostgresCluster } from '../support/postgres-cluster.js';
import { INSTALL_TIMEOUT_MS, skipNotice } from '../support/system-tools.js';
import { closeHosts, host, siteLinkingTo } from './logged-host.js';

afterEach(closeHosts);

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

let cluster: PostgresCluster | string = 'not started';
beforeAll(async () => {
  cluster = await startPostgres();
  if (typeof cluster === 'string') skipNotice('verdict cache on PostgreSQL', cluster);
}, INSTALL_TIMEOUT_MS + 60_000);
afterAll(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
});

interface Kind {
  readonly name: string;
  /** A fresh index, and its reader; or why there is none. */
  open(): Promise<{ store: IndexWriter; reader: () => IndexReader } | string>;
}

const KINDS: readonly Kind[] = [
  {
    name: 'memory',
    open: async () => {
      const store = new MemoryStore();
      return { store, reader: () => store.reader() };
    },
  },
  {
    name: 'SQLite',
    open: async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-vcache-'));
      folders.push(dir);
      const store = new SqliteStore({ path: path.join(dir, 'index.db') });
      return { store, reader: () => store.reader() };
    },
  },
  {
    name: 'PostgreSQL',
    open: async () => {
      if (typeof cluster === 'string') return cluster;
      const store = await PgStore.open({ url: await cluster.createDatabase() });
      return { store, reader: () => store.reader() };
    },
  },
];

describe.each(KINDS)('readVerdictCache on the $name store', (kind) => {
  it('serves the answers of one crawl to the next: 0 requests to the external host, the first times kept', async (context) => {
    const other = await host('127.0.0.2', (origin) => ({ '/ok': [200], '/gone': [404], '/moved': [308, { location: `${origin}/ok` }], '/busy': [503] }));
    const site = await siteLinkingTo(other, ['/ok', '/gone', '/moved', '/busy']);
    const first = await kind.open();
    if (typeof first === 'string') return context.skip(first);
    const second = await kind.open();
    if (typeof second === 'string') return context.skip(second);
    try {
      const options = { allowPrivate: true, retries: 0, sitemap: false, robots: false } as const;
      await crawl(`${site.origin}/`, { ...options, store: first.store });
      await first.store.flush();
      const cache = await readVerdictCache(first.reader(), { now: Date.now(), maxAgeMs: 86_400_000 });
      expect(cache.size).toBe(3);
      expect(cache.get(`${other.origin}/busy`)).toBeUndefined();
      expect(cache.get(`${other.origin}/moved`)).toMatchObject({ status: 200, finalUrl: `${other.origin}/ok`, redirects: [{ status: 308, to: `${other.origin}/ok` }] });
      const asked = other.log.length;

      const summary = await crawl(`${site.origin}/`, { ...options, store: second.store, verdictCache: cache });
      await second.store.flush();
      // Only the unverified link was asked again.
      expect(other.log.slice(asked)).toEqual(['HEAD /busy', 'GET /busy']);
      expect(summary).toMatchObject({ externalFromCache: 3, externalChecked: 1 });
      const again = await readVerdictCache(second.reader(), { now: Date.now(), maxAgeMs: 86_400_000 });
      for (const path of ['/ok', '/gone', '/moved']) {
        expect(again.get(`${other.origin}${path}`)?.startedAt, path).toBe(cache.get(`${other.origin}${path}`)?.startedAt);
      }
    } finally {
      await first.store.close();
      await second.store.close();
    }
  }, 60_000);
});
