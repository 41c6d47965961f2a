// Exit codes that tell the truth (a CI gate must not pass on nothing checked): a crawl whose seeds could not be
// fetched, and reports on an index that holds no crawl, exit non-zero with one line
// saying why.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../../src/cli/exit-codes.js';
import { SqliteStore } from '../../../src/store/index.js';
import { closeAll, startServer } from '../../fetch/test-server.js';
import { run } from '../cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-exit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(closeAll);

let count = 0;
const newDb = (): string => path.join(dir, `index-${++count}.db`);

/** A port on 127.0.0.1 that nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('crawl: no seed could be fetched', () => {
  it('a refused connection: exit NO_CRAWL, one stderr line naming the seed and the network failure, not robots.txt', async () => {
    const seed = `http://127.0.0.1:${await closedPort()}/`;
    const line = `linkladder: error: no seed could be fetched: ${seed} ERR_FETCH_CONNECTION_REFUSED (connection refused)`;
    // robots.txt is asked first and is unreachable: the failure of that request is the seed's.
    const result = await run(['crawl', seed, '--db', newDb(), '--allow-private', '--retries', '0']);
    expect(result.code).toBe(EXIT_CODES.NO_CRAWL);
    expect(result.err).toEqual([line]);
  });

  it('a 404 seed, and a seed robots.txt disallows', async () => {
    const server = await startServer((request, response) => {
      if (request.url === '/robots.txt') response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
      else response.writeHead(404, { 'content-type': 'text/html' }).end('gone');
    });
    const missing = await run(['crawl', `${server.origin}/nothing`, '--db', newDb(), '--allow-private']);
    expect(missing.code).toBe(EXIT_CODES.NO_CRAWL);
    expect(missing.err).toEqual([`linkladder: error: no seed could be fetched: ${server.origin}/nothing HTTP_404`]);
    const refused = await run(['crawl', `${server.origin}/private/a`, `${server.origin}/private/b`, '--db', newDb(), '--allow-private']);
    expect(refused.code).toBe(EXIT_CODES.NO_CRAWL);
    expect(refused.err).toEqual([
      `linkladder: error: no seed could be fetched: ${server.origin}/private/a ERR_CRAWL_ROBOTS_DISALLOWED, ${server.origin}/private/b ERR_CRAWL_ROBOTS_DISALLOWED`,
    ]);
  });

  it('a seed that asks for credentials (401): the line says how to give them', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="staging"', 'content-type': 'text/html' }).end('who?');
    });
    const result = await run(['crawl', `${server.origin}/`, '--db', newDb(), '--allow-private']);
    expect(result.code).toBe(EXIT_CODES.NO_CRAWL);
    expect(result.err).toEqual([
      `linkladder: error: no seed could be fetched: ${server.origin}/ HTTP_401 (it asks for credentials: a user:password@ in the seed, --header or --cookie-jar)`,
    ]);
  });

  it('one seed fetched is a crawl: exit 0', async () => {
    const server = await startServer((request, response) => {
      if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html' }).end('ok');
      else response.writeHead(404).end();
    });
    const result = await run(['crawl', `${server.origin}/`, `${server.origin}/missing`, '--db', newDb(), '--allow-private']);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(EXIT_CODES.OK);
  });
});

describe('audit, stats, report on an index that holds no crawl', () => {
  it.each([['audit'], ['stats'], ['report', '--html', path.join(dir, 'report.html')]])('%s: exit NO_CRAWL, one line', async (...args) => {
    const db = newDb();
    await new SqliteStore({ path: db }).close();
    const result = await run([...args, '--db', db]);
    expect(result.code).toBe(EXIT_CODES.NO_CRAWL);
    expect(result.out).toEqual([]);
    expect(result.err).toEqual([`linkladder: error: ${db} holds no crawl: run \`linkladder crawl <seed> --db ${db}\` first`]);
  });
});
