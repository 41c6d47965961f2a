// `--db postgres://…`, in-process on a throwaway PostgreSQL cluster: `db
// migrate` on an empty and on an existing database (idempotent, checksums checked),
// `db status`, `db stats`; the URL from LINKLADDER_DB and from the config file; a
// database that refuses the connection, or is no index, is one stderr line and exit
// 3 in every command; no output shows the password, and no file is made for a URL.

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations } from '../../src/store/index.js';
import { defaultPgMigrationsDir } from '../../src/store/pg/pg-database.js';
import { startPostgres, type PostgresCluster } from '../support/postgres-cluster.js';
import { INSTALL_TIMEOUT_MS, skipNotice } from '../support/system-tools.js';
import { run } from './cli-harness.js';

const SECRET = 's3cretPassw0rd';
const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-pg-'));
let cluster: PostgresCluster | string;
beforeAll(async () => {
  cluster = await startPostgres();
}, INSTALL_TIMEOUT_MS + 60_000);
afterAll(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh database, its URL with a password (the test cluster trusts loopback: any password is taken). */
async function database(): Promise<string> {
  return (await (cluster as PostgresCluster).createDatabase()).replace('postgres://postgres@', `postgres://postgres:${SECRET}@`);
}

/** The URL as every message names it. */
const shown = (url: string): string => url.replace(SECRET, '***');

const migrations = loadMigrations(defaultPgMigrationsDir());

describe('linkladder db on PostgreSQL', () => {
  it('status lists pending migrations; migrate applies migrations/postgresql/; a second migrate is a no-op', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('linkladder db on PostgreSQL', cluster));
    const db = await database();
    expect(migrations.map((m) => m.file)).toContain('001_initial.sql');
    expect(await run(['db', 'status', '--db', db])).toMatchObject({
      code: 0,
      stdout: migrations.map((m) => `${m.file.slice(0, -'.sql'.length)}  pending\n`).join(''),
      stderr: '',
    });
    expect(await run(['db', 'migrate', '--db', db])).toMatchObject({
      code: 0,
      stdout: migrations.map((m) => `${shown(db)}: applied ${m.file}\n`).join(''),
      stderr: '',
    });
    expect(await run(['db', 'migrate', '--db', db])).toMatchObject({ code: 0, stdout: `${shown(db)}: up to date\n`, stderr: '' });
    const status = await run(['db', 'status', '--db', db, '--json']);
    expect(status.out.map((line) => JSON.parse(line) as unknown)).toEqual(
      migrations.map((m) => ({ version: m.version, name: m.name, appliedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })),
    );
    // An index with no crawl: its raw counts are zeros.
    const stats = await run(['db', 'stats', '--db', db, '--json']);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ links: 0, fetches: 0, urlsByState: { queued: 0, done: 0 } });
  });

  it('refuses a database whose applied migration was altered, or that has one it does not know', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('linkladder db on PostgreSQL', cluster));
    const db = await database();
    expect((await run(['db', 'migrate', '--db', db])).code).toBe(0);
    const name = new URL(db).pathname.slice(1);
    await cluster.psql(`UPDATE schema_migrations SET sha256 = repeat('0', 64) WHERE version = 1`, name);
    for (const command of ['migrate', 'status']) {
      const refused = await run(['db', command, '--db', db]);
      expect(refused.code).toBe(3);
      expect(refused.err).toEqual([expect.stringMatching(/^linkladder: error: migrations\/postgresql\/001_initial\.sql was changed after it was applied/)]);
    }
    // Read commands refuse it too.
    expect(await run(['stats', '--db', db])).toMatchObject({ code: 3, err: [expect.stringContaining('001_initial.sql was changed after it was applied')] });
    await cluster.psql(`UPDATE schema_migrations SET sha256 = '${migrations[0]!.sha256}' WHERE version = 1`, name);
    await cluster.psql(`INSERT INTO schema_migrations VALUES (${migrations.length + 1}, 'from_the_future', 'x', 0)`, name);
    const unknown = await run(['db', 'migrate', '--db', db]);
    expect(unknown).toMatchObject({ code: 3, err: [expect.stringMatching(/_from_the_future, which migrations\/postgresql\/ does not have$/)] });
  });

  it('takes the URL from LINKLADDER_DB and from the config file, as a path would be', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('linkladder db on PostgreSQL', cluster));
    const db = await database();
    expect(await run(['db', 'migrate'], { env: { LINKLADDER_DB: db } })).toMatchObject({
      code: 0,
      stdout: migrations.map((m) => `${shown(db)}: applied ${m.file}\n`).join(''),
    });
    const folder = mkdtempSync(path.join(dir, 'config-'));
    writeFileSync(path.join(folder, 'linkladder.config.json'), JSON.stringify({ db }));
    expect(await run(['db', 'migrate'], { cwd: folder })).toMatchObject({ code: 0, stdout: `${shown(db)}: up to date\n` });
    expect(await run(['stats'], { cwd: folder })).toMatchObject({
      code: 4,
      err: [`linkladder: error: ${shown(db)} holds no crawl: run \`linkladder crawl <seed> --db ${shown(db)}\` first`],
    });
  });

  it('says in one line, without the password, that a database refused the connection: exit 3, no file made', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('linkladder db on PostgreSQL', cluster));
    // A port nothing listens on: the cluster's own, once it is stopped, would do; 1 needs no waiting.
    const db = `postgres://me:${SECRET}@127.0.0.1:1/nowhere`;
    const commands = [
      ['db', 'migrate'],
      ['db', 'status'],
      ['db', 'stats'],
      ['stats'],
      ['audit'],
      ['graph', '--format', 'json'],
      ['report', '--out', path.join(dir, 'report.html')],
      ['explain', 'http://127.0.0.1/'],
      ['crawl', 'http://127.0.0.1:1/', '--allow-private'],
    ];
    for (const command of commands) {
      const result = await run([...command, '--db', db]);
      expect({ command, code: result.code }).toEqual({ command, code: 3 });
      expect(result.err).toEqual([`linkladder: error: cannot open the index at postgres://me:***@127.0.0.1:1/nowhere: connect ECONNREFUSED 127.0.0.1:1`]);
      expect(result.stdout + result.stderr).not.toContain(SECRET);
    }
    expect(existsSync(path.join(process.cwd(), 'postgres:'))).toBe(false);
    expect(existsSync(path.join(dir, 'report.html'))).toBe(false);
    // A URL that does not parse is one line too.
    expect(await run(['db', 'migrate', '--db', `postgres://x:${SECRET}@:bad/`])).toMatchObject({ code: 3, err: [expect.stringMatching(/^linkladder: error: cannot open the index at postgres:\/\/x:\*\*\*@:bad\/: /)] });
  });

  it('refuses to read a database that is not an index, and tells how to make it one', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('linkladder db on PostgreSQL', cluster));
    const db = await database();
    for (const command of [['stats'], ['audit'], ['graph', '--format', 'csv'], ['report', '--out', path.join(dir, 'r.html')], ['explain', 'http://h/'], ['db', 'stats']]) {
      const result = await run([...command, '--db', db]);
      expect(result.code).toBe(3);
      expect(result.err).toEqual([
        `linkladder: error: ${shown(db)} is not a linkladder index (no schema_migrations table): run linkladder db migrate --db ${shown(db)}`,
      ]);
    }
    // Nothing was written: it is still empty.
    expect(await (cluster as PostgresCluster).psql(`SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`, new URL(db).pathname.slice(1))).toBe('0\n');
  });
});
