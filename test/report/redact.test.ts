// Userinfo stays in keys as written (it is case-sensitive), but no
// report prints a password — not the audit, the graph in any format, nor the HTML report.

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { GRAPH_FORMATS, redactPassword, redactPasswords, writeHtmlReport } from '../../src/report/index.js';
import { exportText } from './graph/export-text.js';
import type { IndexReader } from '../../src/store/index.js';
import { readerOf } from './support/memory-index.js';

const SECRET = 's3cr3t';

function readerWithPasswords(): Promise<IndexReader> {
  return readerOf({
    urls: [
      { id: 1, key: `http://user:${SECRET}@h/`, depth: 0 },
      { id: 2, key: `http://user:${SECRET}@h/old`, depth: 1, aliasOf: 3, fetches: [{ status: 301, redirects: [{ from: `http://user:${SECRET}@h/old`, to: `http://user:${SECRET}@h/new`, status: 301 }] }] },
      { id: 3, key: 'http://h/new', depth: 1, fetches: [{ status: 200 }] },
    ],
    spellings: [`HTTP://user:${SECRET}@H/`],
    links: [
      { from: 1, rawHref: 'old', to: 2 },
      { from: 1, rawHref: 'http://h/new', to: 3 },
    ],
  });
}

describe('no report prints a password', () => {
  it('redactPassword keeps the user name and hides the password', () => {
    expect(redactPassword(`http://user:${SECRET}@h/x`)).toBe('http://user:***@h/x');
    expect(redactPassword('http://user@h/x')).toBe('http://user@h/x');
    expect(redactPassword(`//user:${SECRET}@h/x`)).toBe('//user:***@h/x');
    // A percent-encoded ":" separates a password as well (it once escaped the redaction).
    expect(redactPassword(`http://user%3A${SECRET}@h/x`)).toBe('http://user%3A***@h/x');
    expect(redactPassword(`http://user%3a${SECRET}@h/x`)).toBe('http://user%3a***@h/x');
  });

  it('redactPasswords hides every password in a line of text', () => {
    expect(redactPasswords(`url  http://user:${SECRET}@h/x  seed //u%3A${SECRET}@h2/ ok`)).toBe('url  http://user:***@h/x  seed //u%3A***@h2/ ok');
    expect(redactPasswords(`{"url":"http://u:${SECRET}@h/","to":"https://v:${SECRET}@i/"}`)).toBe('{"url":"http://u:***@h/","to":"https://v:***@i/"}');
    expect(redactPasswords('mailto:user@h and http://user@h/ and //u:@h/')).toBe('mailto:user@h and http://user@h/ and //u:@h/');
  });

  it.each(GRAPH_FORMATS)('graph --format %s (and with aliases collapsed)', async (format) => {
    for (const collapse of [false, true]) {
      const text = await exportText(await readerWithPasswords(), format, collapse);
      expect(text).not.toContain(SECRET);
      expect(text).toContain('user:***@');
    }
  });

  it('the HTML report', async () => {
    let html = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        html += chunk.toString('utf8');
        callback();
      },
    });
    await writeHtmlReport(await readerWithPasswords(), [], sink);
    expect(html).not.toContain(SECRET);
    expect(html).toContain('user:***@');
  });
});
