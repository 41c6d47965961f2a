import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WARCParser } from 'warcio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WarcWriter, cdxTimestamp, cdxjLine, compareCdxjLines, surtOf, writeCdxjIndex, type CdxjEntry } from '../../src/archive/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'linkladder-cdxj-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (url: string, date = '2026-11-27T10:20:30.456Z'): CdxjEntry => ({
  url,
  date: new Date(date),
  mime: 'text/html',
  status: 200,
  digest: 'sha256:AAAA',
  length: 100,
  offset: 200,
  filename: 'crawl.warc.gz',
});

describe('SURT and timestamps', () => {
  it.each([
    ['https://www.Example.com/Path?b=2&a=1', 'com,example)/path?a=1&b=2'],
    ['http://example.com:8080/', 'com,example:8080)/'],
    ['http://sub.example.co.uk/a/b', 'uk,co,example,sub)/a/b'],
    ['http://www2.example.com/', 'com,example)/'],
  ])('%s → %s (pywb/warcio key)', (url, surt) => {
    expect(surtOf(url)).toBe(surt);
  });

  it('formats the 14-digit UTC timestamp', () => {
    expect(cdxTimestamp(new Date('2026-01-02T03:04:05.999Z'))).toBe('20260102030405');
  });

  it('writes a line as pywb reads it: key, timestamp, JSON', () => {
    expect(cdxjLine(entry('https://example.com/a'))).toBe(
      'com,example)/a 20261127102030 {"url":"https://example.com/a","mime":"text/html","status":"200","digest":"sha256:AAAA","length":"100","offset":"200","filename":"crawl.warc.gz"}',
    );
    const { digest: _none, ...withoutDigest } = entry('https://example.com/a');
    expect(cdxjLine(withoutDigest)).not.toContain('digest');
  });
});

describe('writeCdxjIndex', () => {
  it('sorts by SURT then timestamp, in byte order, and merges an earlier run’s lines', async () => {
    const path = join(dir, 'crawl.cdxj');
    await writeFile(path, `${cdxjLine(entry('https://example.com/m'))}\n`);
    const count = await writeCdxjIndex(path, [
      entry('https://example.org/'),
      entry('https://example.com/b', '2026-11-27T12:00:00Z'),
      entry('https://example.com/b', '2026-11-27T11:00:00Z'),
      entry('https://example.com/B-upper'),
      entry('https://a.example.com/'),
      entry('https://example.com/m'),
    ]);
    expect(count).toBe(6);
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual([
      'com,example)/b 20261127110000',
      'com,example)/b 20261127120000',
      'com,example)/b-upper 20261127102030',
      'com,example)/m 20261127102030',
      'com,example,a)/ 20261127102030',
      'org,example)/ 20261127102030',
    ]);
    expect([...lines].sort(compareCdxjLines)).toEqual(lines);
  });

  it('indexes what a WarcWriter wrote: each line’s offset and length find its record', async () => {
    const warc = join(dir, 'crawl.warc.gz');
    const writer = await WarcWriter.open(warc, { version: '1' });
    const base = {
      method: 'GET',
      requestHeaderLines: ['Host: example.com'],
      httpVersion: '1.1',
      status: 200,
      reason: 'OK',
      responseHeaderLines: ['Content-Type: Text/HTML; charset=utf-8'],
      date: new Date('2026-11-27T10:00:00Z'),
    };
    await writer.write({ ...base, uri: 'https://example.com/z', body: new TextEncoder().encode('same') });
    await writer.write({ ...base, uri: 'https://example.com/a', body: new TextEncoder().encode('same') });
    await writer.close();
    const index = join(dir, 'crawl.cdxj');
    await writeCdxjIndex(index, writer.cdxjEntries);
    const lines = (await readFile(index, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => line.split(' ')[0])).toEqual(['com,example)/a', 'com,example)/z']);
    const file = await readFile(warc);
    const fields = lines.map((line) => JSON.parse(line.slice(line.indexOf('{'))) as Record<string, string>);
    expect(fields.map((f) => f['mime'])).toEqual(['warc/revisit', 'text/html']);
    for (const f of fields) {
      expect(f['filename']).toBe('crawl.warc.gz');
      const record = await WARCParser.parse([file.subarray(Number(f['offset']), Number(f['offset']) + Number(f['length']))]);
      expect(record?.warcTargetURI).toBe(f['url']);
      expect(record?.warcPayloadDigest).toBe(f['digest']);
    }
  });
});
