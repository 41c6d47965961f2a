// The SQL views of migration 008 (`page`, `broken_link`, `external_link`, and `link`
// with positions), and the sample queries of docs/index-format.md, run as written on a crawled site.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../cli/cli-harness.js';
import { serveFixture, type Fixture } from '../../report/audit/fixture-site.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-sql-views-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = path.join(dir, 'site.db');
let origin = '';

const html = (body: string): string => `<!doctype html><html><head><title>t</title></head><body>\n${body}\n</body></html>`;

/** Two pages link to a 404, one to a 500; one links out to another host (recorded, not crawled). */
const site: Fixture = {
  name: 'sql-views',
  about: 'the SQL views',
  baseModes: ['rfc3986'],
  expect: [],
  args: [],
  resources: {
    '/': { body: html('<a href="a.html">a</a>\n  <a href="missing.html">m</a>\n<a href="http://other.example/x">out</a>') },
    '/a.html': { body: html('<a href="missing.html">m</a> <a href="error">e</a>') },
    '/error': { status: 500, body: html('') },
  },
};

beforeAll(async () => {
  const server = await serveFixture(site);
  try {
    origin = server.origin;
    const result = await run(['crawl', `${origin}/`, '--db', file, '--allow-private', '--retries', '0', '--no-check-external']);
    expect(result.code).toBe(0);
  } finally {
    await server.close();
  }
});

/** The ```sql blocks of docs/index-format.md's section on SQL. */
function docQueries(): string[] {
  const readme = readFileSync(fileURLToPath(new URL('../../../docs/index-format.md', import.meta.url)), 'utf8');
  const start = readme.indexOf('## Querying the index with SQL');
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next === -1 ? undefined : next);
  return [...section.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
}

describe('SQL views', () => {
  it('page: each fetched URL with its last fetch', () => {
    const db = new Database(file, { readonly: true });
    const rows = db.prepare('SELECT url, status, content_type, redirects FROM page ORDER BY url').all();
    db.close();
    expect(rows).toEqual([
      { url: `${origin}/`, status: 200, content_type: 'text/html', redirects: 0 },
      { url: `${origin}/a.html`, status: 200, content_type: 'text/html', redirects: 0 },
      { url: `${origin}/error`, status: 500, content_type: 'text/html', redirects: 0 },
      { url: `${origin}/missing.html`, status: 404, content_type: expect.anything(), redirects: 0 },
    ]);
  });

  it('broken_link: every link to a failed target, with where its href is written', () => {
    const db = new Database(file, { readonly: true });
    const rows = db.prepare('SELECT from_url, line, column, raw_href, to_url, status FROM broken_link ORDER BY from_url, position').all();
    db.close();
    expect(rows).toEqual([
      { from_url: `${origin}/`, line: 3, column: 12, raw_href: 'missing.html', to_url: `${origin}/missing.html`, status: 404 },
      { from_url: `${origin}/a.html`, line: 2, column: 10, raw_href: 'missing.html', to_url: `${origin}/missing.html`, status: 404 },
      { from_url: `${origin}/a.html`, line: 2, column: 39, raw_href: 'error', to_url: `${origin}/error`, status: 500 },
    ]);
  });

  it('external_link: links to another host, not checked (status NULL)', () => {
    const db = new Database(file, { readonly: true });
    const rows = db.prepare('SELECT from_url, raw_href, host, state, status FROM external_link').all();
    db.close();
    expect(rows).toEqual([{ from_url: `${origin}/`, raw_href: 'http://other.example/x', host: 'other.example', state: 'skipped', status: null }]);
  });

  it("docs/index-format.md's three sample queries run as written and answer", () => {
    const queries = docQueries();
    expect(queries).toHaveLength(3);
    // "Which pages link to a 404" fits one line.
    expect(queries[0]!.split('\n')).toHaveLength(1);
    const db = new Database(file, { readonly: true });
    const [pagesTo404, brokenTargets, hosts] = queries.map((sql) => db.prepare(sql).all());
    db.close();
    expect(pagesTo404).toEqual([{ from_url: `${origin}/` }, { from_url: `${origin}/a.html` }]);
    expect(brokenTargets).toEqual([
      { to_url: `${origin}/missing.html`, status: 404, error_code: null, pages: 2 },
      { to_url: `${origin}/error`, status: 500, error_code: null, pages: 1 },
    ]);
    expect(hosts).toEqual([{ host: 'other.example', links: 1, urls: 1 }]);
  });
});
