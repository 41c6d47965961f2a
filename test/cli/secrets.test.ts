// Credentials are never printed: nothing the tool prints contains a password — not the --json
// events of a crawl, not explain (text or JSON), not a usage error that echoes a
// seed, and not a password behind a percent-encoded ":" (`user%3As3cret@`).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/cli/demo/index.js';
import { run } from './cli-harness.js';

const SECRET = 's3cretPassw0rd';
const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-secrets-'));
const servers: DemoServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(dir, { recursive: true, force: true });
});

function withPassword(origin: string, separator = ':'): string {
  return origin.replace('http://', `http://user${separator}${SECRET}@`) + '/';
}

describe('no output shows a password', () => {
  it.each([':', '%3A'])('crawl --json, then explain in text and JSON, then the HTML report (separator %s)', async (separator) => {
    const server = await startDemoServer();
    servers.push(server);
    const db = path.join(dir, `crawl-${separator === ':' ? 'colon' : 'encoded'}.db`);
    const seed = withPassword(server.origin, separator);
    const crawled = await run(['crawl', seed, '--db', db, '--allow-private', '--json', '--max-pages', '30']);
    expect(crawled.code).toBe(0);
    // The seed's userinfo is Basic auth for its origin: the seed is crawled and shown without it.
    expect(crawled.stdout).toContain(`"${server.origin}/"`);
    expect(crawled.stdout).not.toContain(`user${separator}`);
    for (const args of [['explain', seed, '--db', db], ['explain', seed, '--db', db, '--json']]) {
      const explained = await run(args);
      expect(explained.stdout + explained.stderr).toContain(`user${separator}***@`);
      expect(explained.stdout + explained.stderr).not.toContain(SECRET);
    }
    expect(crawled.stdout + crawled.stderr).not.toContain(SECRET);
    // The HTML report: its Duplicates tab lists keys (the demo site has byte-identical pages), as do the other tabs.
    const html = path.join(dir, `report-${separator === ':' ? 'colon' : 'encoded'}.html`);
    const reported = await run(['report', '--db', db, '--html', html]);
    expect(reported.code).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('id="duplicates-table"');
    expect(page).not.toContain(SECRET);
  });

  it('a usage error that echoes a seed', async () => {
    const result = await run(['crawl', `ftp://user:${SECRET}@example.test/`, '--db', path.join(dir, 'never.db')]);
    expect(result.code).toBe(2);
    expect(result.err).toHaveLength(1);
    expect(result.stderr).not.toContain(SECRET);
  });

  it.each([
    ['in the userinfo', `postgres://linkladder:${SECRET}@127.0.0.1:1/index`],
    ['in the query', `postgres://linkladder@127.0.0.1:1/index?password=${SECRET}`],
    ['in the query, after another parameter', `postgresql://127.0.0.1:1/index?sslmode=disable&password=${SECRET}&application_name=x`],
    ['with an "@" in it', `postgres://linkladder:${SECRET}@x@127.0.0.1:1/index`],
  ])('a --db that cannot be opened, its password %s', async (_, db) => {
    for (const args of [['stats'], ['audit'], ['explain', 'http://127.0.0.1:1/'], ['db', 'migrate'], ['db', 'status'], ['db', 'stats'], ['crawl', 'http://127.0.0.1:1/', '--allow-private']]) {
      const result = await run([...args, '--db', db]);
      expect(result.code, args.join(' ')).toBe(3);
      expect(result.err, args.join(' ')).toHaveLength(1);
      expect(result.stdout + result.stderr, args.join(' ')).not.toContain(SECRET);
    }
  });
});
