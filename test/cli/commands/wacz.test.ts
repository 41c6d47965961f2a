import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WarcWriter, writeCdxjIndex, type WarcExchange } from '../../../src/archive/index.js';
import { ensureBuilt, MAIN } from '../built-cli.js';
import { run } from '../cli-harness.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'linkladder-cli-wacz-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function page(uri: string, title: string): WarcExchange {
  const body = new TextEncoder().encode(`<html><head><title>${title}</title></head><body>${'x'.repeat(400)}</body></html>`);
  return {
    method: 'GET',
    uri,
    requestHeaderLines: [`Host: ${new URL(uri).host}`],
    httpVersion: '1.1',
    status: 200,
    reason: 'OK',
    responseHeaderLines: ['Content-Type: text/html', `Content-Length: ${body.length}`],
    body,
    date: new Date('2026-11-27T10:00:00Z'),
  };
}

/** A series of three files (rotation at 1200 bytes): crawl.warc.gz, crawl-00001.warc.gz, crawl-00002.warc.gz. */
async function writeSeries(withIndex: boolean): Promise<WarcWriter> {
  const writer = await WarcWriter.open(join(dir, 'crawl.warc.gz'), { version: '9.9.9', maxBytes: 1200 });
  for (const name of ['a', 'b', 'c']) await writer.write(page(`http://127.0.0.1/${name}`, `Page ${name}`));
  await writer.close();
  if (withIndex) await writeCdxjIndex(join(dir, 'crawl.cdxj'), writer.cdxjEntries);
  return writer;
}

function zipNames(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: false }, (error, zip) => {
      if (error !== null || zip === undefined) return reject(error ?? new Error('no zip'));
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => names.push(entry.fileName));
      zip.on('end', () => resolve(names.sort()));
      zip.on('error', reject);
    });
  });
}

describe('linkladder wacz', () => {
  it('packages the whole series and its index, and prints one summary line', async () => {
    const writer = await writeSeries(true);
    expect(writer.files).toHaveLength(3);
    const result = await run(['wacz', join(dir, 'crawl.warc.gz'), '--out', join(dir, 'site.wacz')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toHaveLength(1);
    expect(result.out[0]).toMatch(new RegExp(`^${join(dir, 'site.wacz')}: 3 WARC files, 9 records, 3 captures, 3 pages, \\d+ bytes \\(index ${join(dir, 'crawl.cdxj')}\\)$`));
    expect(await zipNames(join(dir, 'site.wacz'))).toEqual([
      'archive/crawl-00001.warc.gz',
      'archive/crawl-00002.warc.gz',
      'archive/crawl.warc.gz',
      'datapackage-digest.json',
      'datapackage.json',
      'indexes/index.cdxj',
      'pages/pages.jsonl',
    ]);
  });

  it('without --out writes <series>.wacz beside it; without an index builds one', async () => {
    await writeSeries(false);
    const result = await run(['wacz', 'crawl.warc.gz'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.out[0]).toMatch(/crawl\.wacz: 3 WARC files, 9 records, 3 captures, 3 pages, \d+ bytes \(index built from the WARC files\)$/);
    expect((await readdir(dir)).filter((name) => name.endsWith('.wacz'))).toEqual(['crawl.wacz']);
  });

  it('a stale index beside the series (a killed run’s): built instead, one warning line', async () => {
    await writeSeries(false);
    await writeFile(join(dir, 'crawl.cdxj'), '');
    const result = await run(['wacz', join(dir, 'crawl.warc.gz'), '--out', join(dir, 'x.wacz')]);
    expect(result.code).toBe(0);
    expect(result.err).toEqual([`linkladder: warning: ${join(dir, 'crawl.cdxj')} names 0 records, the WARC files hold 3 responses and revisits: the index was built from the WARC files instead`]);
    expect(result.out[0]).toContain('3 captures, 3 pages');
    expect(result.out[0]).toContain('(index built from the WARC files)');
  });

  it('a torn last file: packaged up to its last whole record, one warning line, exit 0', async () => {
    const writer = await writeSeries(false);
    const last = writer.files[writer.files.length - 1]!;
    const bytes = await readFile(last);
    await truncate(last, bytes.length - 30);
    const result = await run(['wacz', join(dir, 'crawl.warc.gz'), '--out', join(dir, 'x.wacz')]);
    expect(result.code).toBe(0);
    expect(result.err).toEqual([expect.stringMatching(new RegExp(`^linkladder: warning: ${last}: its last record is cut \\(a killed writer\\?\\): packaged its first \\d+ bytes \\(whole records\\), left out \\d+$`))]);
    expect(result.out[0]).toContain('3 WARC files, 8 records, 3 captures, 3 pages');
  });

  it.each([
    ['a missing file', 'missing.warc.gz', 'ERR_ARCHIVE_MISSING_FILE'],
    ['a file that is not a WARC', 'notes.warc.gz', 'ERR_ARCHIVE_NOT_WARC'],
  ])('%s: one stderr line, exit 2, nothing written', async (_label, name, code) => {
    await writeFile(join(dir, 'notes.warc.gz'), 'not a warc\n');
    const result = await run(['wacz', join(dir, name), '--out', join(dir, 'x.wacz')]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(new RegExp(`^linkladder: error: ${code}: .*${name}`));
    expect((await readdir(dir)).filter((entry) => entry.includes('.wacz'))).toEqual([]);
  });

  it('refuses an --out that names a file of the series', async () => {
    await writeSeries(false);
    const result = await run(['wacz', join(dir, 'crawl.warc.gz'), '--out', join(dir, 'crawl-00001.warc.gz')]);
    expect(result.code).toBe(2);
    expect(result.err).toEqual([expect.stringContaining('names a WARC file of the series')]);
  });

  it('an --out folder that does not exist: exit 3, one line', async () => {
    await writeSeries(false);
    const result = await run(['wacz', join(dir, 'crawl.warc.gz'), '--out', join(dir, 'no', 'x.wacz')]);
    expect(result.code).toBe(3);
    expect(result.err).toEqual([expect.stringMatching(/^linkladder: error: ERR_ARCHIVE_WACZ_WRITE: cannot write .*ENOENT/)]);
  });

  it('the built bundle runs it (warcio, yazl and htmlparser2 bundled)', async () => {
    await ensureBuilt();
    await writeSeries(true);
    const result = spawnSync(process.execPath, [MAIN, 'wacz', 'crawl.warc.gz', '--out', 'b.wacz'], { cwd: dir, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/b\.wacz: 3 WARC files, 9 records, 3 captures, 3 pages/);
    // The bundle may be built first.
  }, 240_000);
});
