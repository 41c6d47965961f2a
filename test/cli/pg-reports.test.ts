// The reports on a PostgreSQL index equal those on a SQLite index of the same crawl:
// the demo site crawled twice with `linkladder crawl`, once into a file and
// once into `--db postgres://…` (one request at a time, so that both crawls meet the
// URLs in one order and give them the same ids), then a second run of each (the first
// run's findings kept); audit, graph, stats, explain, report and db stats print the
// same bytes, but for the times of day and durations the two crawls took.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/cli/demo/index.js';
import { startPostgres, type PostgresCluster } from '../support/postgres-cluster.js';
import { INSTALL_TIMEOUT_MS, skipNotice } from '../support/system-tools.js';
import { PgStore, SqliteStore, type ArchivedRecord } from '../../src/store/index.js';
import { run } from './cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-pg-reports-'));
let cluster: PostgresCluster | string;
let server: DemoServer;
const indexes: Record<'sqlite' | 'pg', string> = { sqlite: path.join(dir, 'index.db'), pg: '' };
/** What each crawl printed (its summary, then the second run's). */
const crawls: Record<'sqlite' | 'pg', string[]> = { sqlite: [], pg: [] };

beforeAll(async () => {
  cluster = await startPostgres();
  if (typeof cluster === 'string') return;
  indexes.pg = await cluster.createDatabase();
  server = await startDemoServer();
  for (const name of ['sqlite', 'pg'] as const) {
    for (let round = 0; round < 2; round++) {
      const crawled = await run(['crawl', `${server.origin}/`, '--db', indexes[name], '--allow-private', '--concurrency', '1']);
      if (crawled.code !== 0) throw new Error(`the crawl into ${name} failed: ${crawled.stderr}`);
      crawls[name].push(crawled.stdout + crawled.stderr);
    }
  }
}, INSTALL_TIMEOUT_MS + 120_000);
afterAll(async () => {
  await server?.close();
  if (typeof cluster !== 'string') await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Output with what two crawls of one site cannot share made equal: times of day
 * (ISO, and as the report writes them), durations, and the index's own name.
 */
function normalized(text: string, index: string): string {
  return text
    .replaceAll(index, '<index>')
    .replace(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?( UTC|Z)?/g, '<time>')
    .replace(/\b\d+(\.\d+)? (s|ms)\b/g, '<duration>')
    .replace(/"(durationMs|startedAt|endedAt|fetchedAt|createdAt)":\d+/g, '"$1":0');
}

/** The output of `args` on each index, normalized; `out` is a file the command writes, read back. */
async function onBoth(args: readonly string[], out?: string): Promise<{ sqlite: string; pg: string; code: number }> {
  const result = { sqlite: '', pg: '', code: -1 };
  for (const name of ['sqlite', 'pg'] as const) {
    const file = out === undefined ? undefined : path.join(dir, `${name}-${out}`);
    const ran = await run([...args, '--db', indexes[name], ...(file === undefined ? [] : ['--out', file])]);
    const text = `${ran.code}\n${ran.stdout}\n${ran.stderr}\n${file === undefined ? '' : readFileSync(file, 'utf8')}`;
    result[name] = normalized(text.replaceAll(file ?? '\0', '<file>'), indexes[name]);
    result.code = ran.code;
  }
  return result;
}

describe('reports on PostgreSQL and on SQLite, of the same crawl', () => {
  it('the crawls said the same', (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the reports on PostgreSQL', cluster));
    expect(normalized(crawls.pg.join('\n'), indexes.pg)).toBe(normalized(crawls.sqlite.join('\n'), indexes.sqlite));
    expect(crawls.pg[0]).toContain('crawl       finished: the frontier is empty');
  });

  for (const args of [
    ['audit', '--format', 'json'],
    ['audit', '--format', 'text'],
    ['audit', '--format', 'csv', '--group-by', 'target'],
    ['audit', '--format', 'sarif'],
    ['audit', '--since', '1'],
    ['graph', '--format', 'json'],
    ['graph', '--format', 'ndjson', '--collapse-aliases'],
    ['graph', '--format', 'graphml'],
    ['graph', '--format', 'dot'],
    ['stats', '--json'],
    ['stats'],
    ['db', 'stats', '--json'],
  ]) {
    it(args.join(' '), async (context) => {
      if (typeof cluster === 'string') return context.skip(skipNotice('the reports on PostgreSQL', cluster));
      const { sqlite, pg } = await onBoth(args);
      expect(pg).toBe(sqlite);
      expect(sqlite.length).toBeGreaterThan(20);
    });
  }

  it('explain says the same of a URL fetched, an alias, a redirect chain, a failure and a refusal', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the reports on PostgreSQL', cluster));
    for (const url of ['/', '/manual/core.html', '/chain/start', '/loop-a', '/private/secret.html', '/MANUAL/../manual/core.html', '/never-linked']) {
      for (const format of [[], ['--json']]) {
        const { sqlite, pg } = await onBoth(['explain', `${server.origin}${url}`, ...format]);
        expect(pg).toBe(sqlite);
      }
    }
  });

  it('report writes the same page', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the reports on PostgreSQL', cluster));
    const { sqlite, pg, code } = await onBoth(['report'], 'report.html');
    expect(code).toBe(0);
    expect(pg).toBe(sqlite);
    expect(sqlite).toContain('<!DOCTYPE html>');
  });

  it('explain names the same WARC records, written through each store (last: it adds to both indexes)', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the reports on PostgreSQL', cluster));
    const records: ArchivedRecord[] = [
      { uri: `${server.origin}/chain/start`, file: 'crawl.warc.gz', offset: 300, length: 400, type: 'response', payloadDigest: 'sha256:EMPTY', date: new Date('2026-11-27T23:59:00Z'), status: 302 },
      { uri: `${server.origin}/`, file: 'crawl.warc.gz', offset: 700, length: 678, type: 'response', payloadDigest: 'sha256:HOME', date: new Date('2026-11-27T23:59:01Z'), status: 200 },
      { uri: `${server.origin}/index.html`, file: 'crawl-00001.warc.gz', offset: 12345, length: 90, type: 'revisit', payloadDigest: 'sha256:HOME', date: new Date('2026-11-27T23:59:02Z'), status: 200 },
    ];
    const sqlite = new SqliteStore({ path: indexes.sqlite });
    await sqlite.recordArchived(records);
    await sqlite.close();
    const pg = await PgStore.open({ url: indexes.pg });
    await pg.recordArchived(records);
    await pg.close();
    for (const url of ['/', '/index.html', '/chain/start']) {
      for (const format of [[], ['--json']]) {
        const both = await onBoth(['explain', `${server.origin}${url}`, ...format]);
        expect(both.pg).toBe(both.sqlite);
        expect(both.pg).toMatch(/archived|"archived":\[\{/);
      }
    }
  });
});
