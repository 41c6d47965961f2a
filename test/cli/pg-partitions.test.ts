// `db migrate --partitions N` on a throwaway PostgreSQL cluster: the large tables
// hash-partitioned by site, `db status` saying so, a second run a no-op, refusals
// (crawl data, another N: exit 3; a bad N: exit 2); and the demo site crawled into a
// partitioned and an unpartitioned index (one request at a time, so both give the
// URLs the same ids) prints the same reports.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/cli/demo/index.js';
import { loadMigrations } from '../../src/store/index.js';
import { defaultPgMigrationsDir } from '../../src/store/pg/pg-database.js';
import { startPostgres, type PostgresCluster } from '../support/postgres-cluster.js';
import { INSTALL_TIMEOUT_MS, skipNotice } from '../support/system-tools.js';
import { run } from './cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-pg-partitions-'));
let cluster: PostgresCluster | string;
let server: DemoServer;
const indexes = { plain: '', partitioned: '' };

beforeAll(async () => {
  cluster = await startPostgres();
  if (typeof cluster === 'string') return;
  server = await startDemoServer();
  indexes.plain = await cluster.createDatabase();
  indexes.partitioned = await cluster.createDatabase();
  const migrated = await run(['db', 'migrate', '--db', indexes.partitioned, '--partitions', '8']);
  if (migrated.code !== 0) throw new Error(`db migrate --partitions failed: ${migrated.stderr}`);
  for (const db of [indexes.plain, indexes.partitioned]) {
    for (let round = 0; round < 2; round++) {
      const crawled = await run(['crawl', `${server.origin}/`, '--db', db, '--allow-private', '--concurrency', '1']);
      if (crawled.code !== 0) throw new Error(`the crawl into ${db} failed: ${crawled.stderr}`);
    }
  }
}, INSTALL_TIMEOUT_MS + 120_000);
afterAll(async () => {
  await server?.close();
  if (typeof cluster !== 'string') await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const migrations = loadMigrations(defaultPgMigrationsDir());

function normalized(text: string, index: string): string {
  return text
    .replaceAll(index, '<index>')
    .replace(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?( UTC|Z)?/g, '<time>')
    .replace(/\b\d+(\.\d+)? (s|ms)\b/g, '<duration>')
    .replace(/"(durationMs|startedAt|endedAt|fetchedAt|createdAt)":\d+/g, '"$1":0');
}

async function onBoth(args: readonly string[]): Promise<{ plain: string; partitioned: string }> {
  const result = { plain: '', partitioned: '' };
  for (const name of ['plain', 'partitioned'] as const) {
    const ran = await run([...args, '--db', indexes[name]]);
    result[name] = normalized(`${ran.code}\n${ran.stdout}\n${ran.stderr}`, indexes[name]);
  }
  return result;
}

describe('linkladder db migrate --partitions', () => {
  it('partitions an empty database after its migrations; status says so; a second run is a no-op', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('db migrate --partitions', cluster));
    const db = await cluster.createDatabase();
    expect(await run(['db', 'migrate', '--db', db, '--partitions', '4'])).toMatchObject({
      code: 0,
      stdout:
        migrations.map((m) => `${db}: applied ${m.file}\n`).join('') +
        `${db}: partitioned url, form, page_link, fetch, redirect, alias in 4 partitions each (hash of site)\n`,
      stderr: '',
    });
    const name = new URL(db).pathname.slice(1);
    const parts = await cluster.psql(
      `SELECT c.relname || ' ' || count(i.inhrelid) FROM pg_class AS c JOIN pg_partitioned_table AS p ON p.partrelid = c.oid
       LEFT JOIN pg_inherits AS i ON i.inhparent = c.oid GROUP BY c.relname ORDER BY c.relname`,
      name,
    );
    expect(parts.trim().split('\n')).toEqual(['alias 4', 'fetch 4', 'form 4', 'page_link 4', 'redirect 4', 'url 4']);
    expect(await run(['db', 'migrate', '--db', db, '--partitions', '4'])).toMatchObject({ code: 0, stdout: `${db}: up to date (4 partitions)\n` });
    expect(await run(['db', 'migrate', '--db', db])).toMatchObject({ code: 0, stdout: `${db}: up to date\n` });
    const status = await run(['db', 'status', '--db', db]);
    expect(status.out.at(-1)).toBe('partitions  4 (hash of site)');
    const json = await run(['db', 'status', '--db', db, '--json']);
    expect(JSON.parse(json.out.at(-1)!)).toEqual({ partitions: 4 });
    // Another number: refused, nothing changed.
    const other = await run(['db', 'migrate', '--db', db, '--partitions', '8']);
    expect(other).toMatchObject({ code: 3, err: [`linkladder: error: the index at ${db} is partitioned in 4 already, not 8: the number of partitions is chosen once, on an empty index`] });
  });

  it('partitions a migrated database with no crawl data; refuses one with a crawl (exit 3) and a bad number (exit 2)', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('db migrate --partitions', cluster));
    const db = await cluster.createDatabase();
    expect((await run(['db', 'migrate', '--db', db])).code).toBe(0);
    expect((await run(['db', 'status', '--db', db])).out.some((line) => line.startsWith('partitions'))).toBe(false);
    expect(await run(['db', 'migrate', '--db', db, '--partitions', '2'])).toMatchObject({ code: 0, stdout: `${db}: partitioned url, form, page_link, fetch, redirect, alias in 2 partitions each (hash of site)\n` });
    for (const bad of ['1', '1025', 'x', '2.5']) {
      const result = await run(['db', 'migrate', '--db', db, '--partitions', bad]);
      expect({ bad, code: result.code }).toEqual({ bad, code: 2 });
      expect(result.err).toHaveLength(1);
    }
    const file = path.join(dir, 'file.db');
    expect((await run(['db', 'migrate', '--db', file, '--partitions', '4'])).code).toBe(2);
    // The plain index of the crawls above holds a crawl.
    const refused = await run(['db', 'migrate', '--db', indexes.plain, '--partitions', '4']);
    expect(refused).toMatchObject({ code: 3, err: [expect.stringContaining(`the index at ${indexes.plain} holds crawl data: only an empty index is partitioned`)] });
    expect((await run(['db', 'status', '--db', indexes.plain])).out.some((line) => line.startsWith('partitions'))).toBe(false);
  });

  it('the crawl on a partitioned index filled its partitions', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('db migrate --partitions', cluster));
    const counts = await cluster.psql(`SELECT (SELECT count(*) FROM url) || ' ' || (SELECT count(*) FROM "fetch") || ' ' || (SELECT count(*) FROM page_link)`, new URL(indexes.partitioned).pathname.slice(1));
    const [urls, fetches, pages] = counts.trim().split(' ').map(Number);
    expect(urls).toBeGreaterThan(10);
    expect(fetches).toBeGreaterThan(10);
    expect(pages).toBeGreaterThan(2);
  });

  for (const args of [
    ['audit', '--format', 'json'],
    ['audit', '--format', 'text'],
    ['audit', '--since', '1'],
    ['graph', '--format', 'json'],
    ['graph', '--format', 'ndjson', '--collapse-aliases'],
    ['stats', '--json'],
    ['db', 'stats', '--json'],
  ]) {
    it(`${args.join(' ')}: the same on a partitioned index as on an unpartitioned one`, async (context) => {
      if (typeof cluster === 'string') return context.skip(skipNotice('db migrate --partitions', cluster));
      const { plain, partitioned } = await onBoth(args);
      expect(partitioned).toBe(plain);
      expect(plain.length).toBeGreaterThan(20);
    });
  }

  it('explain says the same on both', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('db migrate --partitions', cluster));
    for (const url of ['/', '/manual/core.html', '/chain/start', '/loop-a', '/private/secret.html', '/never-linked']) {
      const { plain, partitioned } = await onBoth(['explain', `${server.origin}${url}`, '--json']);
      expect(partitioned).toBe(plain);
    }
  });
});
