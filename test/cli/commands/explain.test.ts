// `linkladder explain`, in-process, on an index of the demo site.

import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Explanation } from '../../../src/crawl/index.js';
import { SqliteStore, type ArchivedRecord } from '../../../src/store/index.js';
import { crawledDemoIndex } from '../../support/demo-index.js';
import { run } from '../cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-explain-'));
const db = path.join(dir, 'demo.db');
let origin: string;

beforeAll(async () => {
  const crawled = await crawledDemoIndex(db);
  origin = crawled.origin;
  if (crawled.code !== 0) throw new Error(`the crawl failed: ${crawled.stderr}`);
}, 30_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('linkladder explain', () => {
  it('a URL merged by Content-Location: the verdict, the alias chain with its evidence, where it was found, its fetch', async () => {
    // /manual/core.html answered with Content-Location: core.html.en — it is an alias of its variant.
    const result = await run(['explain', `${origin}/manual/core.html`, '--db', db]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.out.slice(0, 5)).toEqual([
      `url       ${origin}/manual/core.html`,
      `key       ${origin}/manual/core.html  (written as its key)`,
      `verdict   merged: merged into ${origin}/manual/core.html.en: requested once, and the server answered with Content-Location: core.html.en; links to it name ${origin}/manual/core.html.en and fetch nothing`,
      `chain     ${origin}/manual/core.html  [alias, depth 1]`,
      `          → ${origin}/manual/core.html.en  [done, depth 1]  (content-location core.html.en)`,
    ]);
    expect(result.out[5]).toMatch(/^found {5}on http:\/\/127\.0\.0\.1:\d+\/ as href "/);
    expect(result.out[6]).toMatch(/^fetch {5}\d{4}-\d\d-\d\dT[\d:.]+Z {2}status 200, \d+ ms, HTTP\/1\.1$/);
    expect(result.out).toHaveLength(7);
  });

  it('its variant, core.html.en: fetched with the response of core.html, never requested itself', async () => {
    const result = await run(['explain', `${origin}/manual/core.html.en`, '--db', db]);
    expect(result.code).toBe(0);
    expect(result.out[2]).toMatch(/^verdict {3}fetched: /);
    expect(result.out[3]).toBe(`chain     ${origin}/manual/core.html.en  [done, depth 1]`);
    expect(result.out[4]).toBe('          no alias: it stands for itself');
  });

  it('any spelling finds the key: the rung at which it meets it is shown', async () => {
    const result = await run(['explain', `HTTP://${origin.slice('http://'.length)}/manual/%63ore.html#section`, '--db', db]);
    expect(result.code).toBe(0);
    expect(result.out[1]).toBe(`key       ${origin}/manual/core.html  (meets it at rung syntax)`);
    expect(result.out[2]).toMatch(/^verdict {3}merged: /);
  });

  it('a redirect: /docs is merged into /docs/', async () => {
    const result = await run(['explain', `${origin}/docs`, '--db', db, '--json']);
    expect(result.code).toBe(0);
    const why = JSON.parse(result.stdout) as Explanation;
    // The scope is the crawl run's, as the index recorded it.
    expect(why).toMatchObject({ verdict: 'merged', error: null, spelling: 'string', key: `${origin}/docs`, scope: { isInScope: true, reason: null } });
    expect(why.aliasChain.map((url) => [url.key, url.state])).toEqual([
      [`${origin}/docs`, 'alias'],
      [`${origin}/docs/`, 'done'],
    ]);
    expect(why.evidence).toEqual([expect.objectContaining({ evidence: 'redirect', fromKey: `${origin}/docs`, toKey: `${origin}/docs/` })]);
    expect(why.fetches[0]?.redirects).toEqual([{ from: `${origin}/docs`, to: `${origin}/docs/`, status: 301 }]);
    expect(why.reason).toBe(
      `merged into ${origin}/docs/: requested once, and the server answered with a redirect (301); links to it name ${origin}/docs/ and fetch nothing`,
    );
  });

  it('a skipped URL and a failed one: the reason, from the crawl run the index recorded', async () => {
    const skipped = await run(['explain', 'mailto:webmaster@example.com', '--db', db]);
    expect(skipped.code).toBe(0);
    expect(skipped.out[2]).toBe('verdict   skipped: recorded, not fetched: the scheme mailto: is not crawled (only http and https)');
    // Out of scope: checked, never crawled.
    const external = await run(['explain', `${origin.replace('127.0.0.1', 'localhost')}/gone.html`, '--db', db]);
    expect(external.out[2]).toBe('verdict   fetched: checked once as an external link (GET) (status 404): out of scope, never crawled');
    const failed = await run(['explain', `${origin}/private/secret.html`, '--db', db]);
    expect(failed.code).toBe(0);
    expect(failed.out[2]).toBe(`verdict   failed: refused, not requested: robots.txt of ${origin} disallows /private/`);
    // Its fetch row is a refusal, not "another URL's response".
    expect(failed.out.at(-1)).toMatch(/^fetch {5}\S+Z {2}not requested: ERR_CRAWL_ROBOTS_DISALLOWED$/);
  });

  it("a redirect's fetch line reads in the order it happened: each hop's status and target, then the last answer", async () => {
    const result = await run(['explain', `${origin}/docs`, '--db', db]);
    expect(result.out.at(-1)).toMatch(new RegExp(`^fetch {5}\\S+Z {2}301 → ${origin}/docs/, status 200, \\d+ ms, HTTP/1\\.1$`));
  });

  it('a URL the index does not hold: exit 1', async () => {
    const result = await run(['explain', `${origin}/never-linked.html`, '--db', db]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.out).toEqual([
      `url       ${origin}/never-linked.html`,
      `key       ${origin}/never-linked.html  (written as its key)`,
      'verdict   unknown: not in the index: no seed or link has named it (at any rung)',
    ]);
    const json = await run(['explain', `${origin}/never-linked.html`, '--db', db, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'unknown', url: null, aliasChain: [] });
  });

  it('not an absolute URI: exit 1, with the reason', async () => {
    const result = await run(['explain', '/manual/core.html', '--db', db]);
    expect(result.code).toBe(1);
    expect(result.out).toEqual([
      'url       /manual/core.html',
      'error     ERR_URI_NOT_ABSOLUTE: a base URI must be absolute: it needs a scheme (RFC 3986 §5.1, §4.3)',
      'verdict   unknown: not an absolute URI: it names no resource',
    ]);
  });

  it('no database: one line, exit 3, and no file created', async () => {
    const missing = path.join(dir, 'missing.db');
    const result = await run(['explain', `${origin}/`, '--db', missing]);
    expect(result).toMatchObject({ code: 3, stdout: '', err: [`linkladder: error: no index database at ${missing}`] });
    expect(existsSync(missing)).toBe(false);
  });
});

describe('linkladder explain: the WARC records that stand for a URL', () => {
  const archived = path.join(dir, 'archived.db');
  const at = (iso: string) => new Date(iso);

  // Records as a crawl with --warc writes them, through the store's writer, on a copy of the demo index.
  beforeAll(async () => {
    copyFileSync(db, archived);
    const store = new SqliteStore({ path: archived });
    const record = (extra: Partial<ArchivedRecord> & Pick<ArchivedRecord, 'uri' | 'offset' | 'length'>): ArchivedRecord => ({
      file: 'crawl.warc.gz',
      type: 'response',
      payloadDigest: undefined,
      date: at('2026-11-27T23:59:00Z'),
      status: 200,
      ...extra,
    });
    try {
      await store.recordArchived([
        record({ uri: `${origin}/docs`, offset: 100, length: 500, status: 301, payloadDigest: 'sha256:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ' }),
        record({ uri: `${origin}/docs`, offset: 600, length: 200, type: 'request', status: undefined }),
        record({ uri: `${origin}/docs/`, offset: 12345, length: 678, date: at('2026-11-27T23:59:01Z'), payloadDigest: 'sha256:DOCSDOCS' }),
      ]);
      // A re-check's revisit of the same payload, in the series' next file.
      await store.recordArchived([
        record({ uri: `${origin}/docs/`, file: 'crawl-00001.warc.gz', offset: 2048, length: 321, type: 'revisit', date: at('2026-11-28T00:00:02.500Z'), payloadDigest: 'sha256:DOCSDOCS' }),
      ]);
    } finally {
      await store.close();
    }
  });

  it('names each response and revisit record: file @ offset (+length), type, WARC-Date, status; a revisit the response it refers to', async () => {
    const result = await run(['explain', `${origin}/docs`, '--db', archived]);
    expect(result.code).toBe(0);
    expect(result.out.filter((line) => line.startsWith('archived'))).toEqual([
      'archived  crawl.warc.gz @ 100 (+500 bytes) response 2026-11-27T23:59:00Z, status 301',
      `archived  crawl-00001.warc.gz @ 2048 (+321 bytes) revisit 2026-11-28T00:00:02.500Z, status 200, for ${origin}/docs/, of ${origin}/docs/ 2026-11-27T23:59:01Z (crawl.warc.gz @ 12345)`,
      `archived  crawl.warc.gz @ 12345 (+678 bytes) response 2026-11-27T23:59:01Z, status 200, for ${origin}/docs/`,
    ]);
    // They come last, after the fetches.
    expect(result.out.at(-4)).toMatch(/^fetch /);
  });

  it('any spelling of the URL finds its records', async () => {
    const result = await run(['explain', `HTTP://${origin.slice('http://'.length)}/%64ocs/#top`, '--db', archived]);
    expect(result.code).toBe(0);
    expect(result.out.filter((line) => line.startsWith('archived'))).toEqual([
      `archived  crawl-00001.warc.gz @ 2048 (+321 bytes) revisit 2026-11-28T00:00:02.500Z, status 200, of ${origin}/docs/ 2026-11-27T23:59:01Z (crawl.warc.gz @ 12345)`,
      'archived  crawl.warc.gz @ 12345 (+678 bytes) response 2026-11-27T23:59:01Z, status 200',
    ]);
    // A URL with no record: no line.
    const none = await run(['explain', `${origin}/manual/core.html`, '--db', archived]);
    expect(none.out.filter((line) => line.startsWith('archived'))).toEqual([]);
  });

  it('--json: the records in "archived", a revisit with "refersTo"', async () => {
    const result = await run(['explain', `${origin}/docs/`, '--db', archived, '--json']);
    expect(result.code).toBe(0);
    const why = JSON.parse(result.stdout) as { archived: unknown };
    expect(why.archived).toEqual([
      {
        uri: `${origin}/docs/`,
        file: 'crawl-00001.warc.gz',
        offset: 2048,
        length: 321,
        type: 'revisit',
        payloadDigest: 'sha256:DOCSDOCS',
        date: '2026-11-28T00:00:02.500Z',
        status: 200,
        runId: null,
        refersTo: { uri: `${origin}/docs/`, date: '2026-11-27T23:59:01.000Z', file: 'crawl.warc.gz', offset: 12345 },
      },
      { uri: `${origin}/docs/`, file: 'crawl.warc.gz', offset: 12345, length: 678, type: 'response', payloadDigest: 'sha256:DOCSDOCS', date: '2026-11-27T23:59:01.000Z', status: 200, runId: null },
    ]);
    const plain = await run(['explain', `${origin}/`, '--db', archived, '--json']);
    expect((JSON.parse(plain.stdout) as { archived: unknown }).archived).toEqual([]);
  });
});
