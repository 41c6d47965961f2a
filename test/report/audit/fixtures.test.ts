// End to end: each fixture site (test/fixtures/audit/*.json), crafted for one code
// or a few, is served on 127.0.0.1, crawled by `linkladder crawl` into a SQLite
// index and audited from it. Its audit gives exactly the codes it expects; the
// clean site gives none; every code the audit can emit has a fixture.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIT_CODE_LIST, audit, type AuditFinding } from '../../../src/report/index.js';
import { openIndexReader } from '../../../src/store/index.js';
import { run } from '../../cli/cli-harness.js';
import { loadFixtures, serveFixture, type Fixture } from './fixture-site.js';
import { collect } from '../../support/collect.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-audit-fixtures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fixtures = loadFixtures();
let crawls = 0;

/** Crawl the fixture in one base mode and audit the index. */
export async function crawlAndAudit(fixture: Fixture, baseMode: 'rfc3986' | 'browser'): Promise<{ findings: AuditFinding[]; origin: string }> {
  const server = await serveFixture(fixture);
  try {
    crawls++;
    const db = path.join(dir, `${fixture.name}-${baseMode}-${crawls}.db`);
    const crawl = await run(['crawl', `${server.origin}/`, '--db', db, '--allow-private', '--base-mode', baseMode, '--retries', '0', ...fixture.args.map((arg) => arg.replaceAll('{{origin}}', server.origin))]);
    expect(crawl.err).toEqual([]);
    expect(crawl.code).toBe(0);
    const reader = openIndexReader(db);
    try {
      return { findings: await collect(audit(reader)), origin: server.origin };
    } finally {
      await reader.close();
    }
  } finally {
    await server.close();
  }
}

const cases = fixtures.flatMap((fixture) => fixture.baseModes.map((mode) => [`${fixture.name} (${mode})`, fixture, mode] as const));

describe('audit of the fixture sites', () => {
  it.each(cases)('%s gives exactly its codes', async (_name, fixture, mode) => {
    const { findings } = await crawlAndAudit(fixture, mode);
    const codes = [...new Set(findings.map((f) => f.code))].sort();
    expect(codes, JSON.stringify(findings, null, 2)).toEqual([...fixture.expect].sort());
  });

  it('has a clean site, and a fixture for every code the audit can emit', () => {
    expect(fixtures.find((f) => f.name === 'clean')?.expect).toEqual([]);
    const covered = new Set(fixtures.flatMap((f) => f.expect));
    expect(AUDIT_CODE_LIST.filter((code) => !covered.has(code))).toEqual([]);
    expect([...covered].filter((code) => !(AUDIT_CODE_LIST as readonly string[]).includes(code))).toEqual([]);
  });
});

describe('what the findings say', () => {
  const fixture = (name: string): Fixture => {
    const found = fixtures.find((f) => f.name === name);
    if (found === undefined) throw new Error(`no fixture ${name}`);
    return found;
  };
  const strip = (findings: AuditFinding[], origin: string): unknown[] =>
    JSON.parse(JSON.stringify(findings).replaceAll(origin, 'O')) as unknown[];

  it('LINK_BROKEN: the status of each broken target', async () => {
    const { findings, origin } = await crawlAndAudit(fixture('link-broken'), 'rfc3986');
    expect(strip(findings, origin)).toEqual([
      { code: 'LINK_BROKEN', severity: 'error', page: 'O/', rawHref: 'missing.html', target: 'O/missing.html', message: 'the target answered 404', detail: { status: 404 }, line: 1, column: 66, verdict: 'broken' },
      { code: 'LINK_BROKEN', severity: 'error', page: 'O/', rawHref: 'gone', target: 'O/gone', message: 'the target answered 410', detail: { status: 410 }, line: 2, column: 10, verdict: 'broken' },
    ]);
  });

  it('LINK_REDIRECT and REDIRECT_CHAIN: the final URL and the hops', async () => {
    const { findings, origin } = await crawlAndAudit(fixture('redirect-chain'), 'rfc3986');
    expect(strip(findings, origin)).toEqual([
      expect.objectContaining({ code: 'LINK_REDIRECT', page: 'O/', rawHref: 'first', target: 'O/first', detail: { finalUrl: 'O/third', hops: 2 } }),
      expect.objectContaining({ code: 'REDIRECT_CHAIN', page: 'O/first', target: 'O/third', detail: { hops: 2, finalUrl: 'O/third' } }),
    ]);
  });

  it('REDIRECT_LOOP, and the link to it is broken', async () => {
    const { findings, origin } = await crawlAndAudit(fixture('redirect-loop'), 'rfc3986');
    expect(strip(findings, origin)).toEqual([
      expect.objectContaining({ code: 'LINK_BROKEN', page: 'O/', rawHref: 'loop1', message: 'the target redirects in a loop' }),
      expect.objectContaining({ code: 'REDIRECT_LOOP', page: 'O/loop1', detail: { hops: 2 } }),
    ]);
    expect(findings[0]?.detail).toMatchObject({ errorCode: 'ERR_FETCH_REDIRECT_LOOP', hops: 2 });
  });

  it('LINK_FRAGMENT_MISSING: only the fragments that name nothing, through redirects too', async () => {
    const { findings, origin } = await crawlAndAudit(fixture('fragment-missing'), 'rfc3986');
    const missing = strip(findings, origin).filter((f) => (f as AuditFinding).code === 'LINK_FRAGMENT_MISSING');
    expect(missing).toEqual([
      expect.objectContaining({ rawHref: 'a.html#nope', target: 'O/a.html#nope', detail: { fragment: 'nope' } }),
      expect.objectContaining({ rawHref: '#nowhere', target: 'O/#nowhere', detail: { fragment: 'nowhere' } }),
    ]);
  });

  it('REF_ABOVE_ROOT: the page, the href as written and where it lands', async () => {
    const { findings, origin } = await crawlAndAudit(fixture('ref-above-root'), 'rfc3986');
    expect(strip(findings, origin)).toEqual([
      expect.objectContaining({ code: 'REF_ABOVE_ROOT', page: 'O/dir/page.html', rawHref: '../../a.html', target: 'O/a.html' }),
    ]);
  });

  it('LINK_BASE_MODES_DIFFER: each mode names the other one\'s target', async () => {
    const rfc = await crawlAndAudit(fixture('base-modes-differ'), 'rfc3986');
    expect(strip(rfc.findings, rfc.origin)).toEqual([
      expect.objectContaining({
        page: 'O/doc/page.html',
        rawHref: '?lang=fr',
        target: 'O/doc/page.html.en?lang=fr',
        detail: { alternateTarget: 'O/doc/page.html?lang=fr' },
      }),
    ]);
    const browser = await crawlAndAudit(fixture('base-modes-differ'), 'browser');
    expect(strip(browser.findings, browser.origin)).toEqual([
      expect.objectContaining({ target: 'O/doc/page.html?lang=fr', detail: { alternateTarget: 'O/doc/page.html.en?lang=fr' } }),
    ]);
  });

  it('LINK_NOT_CANONICAL: the rung that folds the spelling, and the normal form', async () => {
    const { findings, origin } = await crawlAndAudit(fixture('link-not-canonical'), 'rfc3986');
    expect(strip(findings, origin)).toEqual([
      expect.objectContaining({ rawHref: '%7Euser/', target: 'O/~user/', detail: { rung: 'syntax', normalForm: 'O/~user/' } }),
      expect.objectContaining({ rawHref: '/x/../a.html', target: 'O/a.html', detail: { rung: 'syntax', normalForm: 'O/a.html' } }),
    ]);
  });

  it('DUPLICATE_REPRESENTATION: the variants of two language prefixes, not a page against its own variant', async () => {
    const { findings, origin } = await crawlAndAudit(fixture('duplicate-representation'), 'rfc3986');
    expect(strip(findings, origin)).toEqual([
      expect.objectContaining({
        code: 'DUPLICATE_REPRESENTATION',
        severity: 'info',
        page: 'O/manual/x.html.en',
        target: 'O/manual/de/x.html.en',
        detail: expect.objectContaining({ from: '/manual/', to: '/manual/de/', suffix: 'x.html.en', urls: 2 }),
      }),
    ]);
  });

  it('LINK_COULD_BE_RELATIVE: the relative reference, and not for the canonical link', async () => {
    const { findings, origin } = await crawlAndAudit(fixture('link-could-be-relative'), 'rfc3986');
    expect(strip(findings, origin)).toEqual([expect.objectContaining({ rawHref: 'O/a.html', detail: { relative: '/a.html' } })]);
  });

  it('HREF_*: the href exactly as written, and its cleaned target', async () => {
    const tab = await crawlAndAudit(fixture('href-tab-or-newline'), 'rfc3986');
    expect(strip(tab.findings, tab.origin)).toEqual([expect.objectContaining({ rawHref: 'a.h\ntml', target: 'O/a.html' })]);
    const invalid = await crawlAndAudit(fixture('href-invalid'), 'rfc3986');
    expect(invalid.findings).toEqual([
      expect.objectContaining({ code: 'HREF_INVALID', severity: 'error', rawHref: 'http://exa mple.com/', target: undefined, detail: { error: 'ERR_URI_BAD_HOST' } }),
    ]);
  });
});
