// DESIGN.md §4: userinfo stays in keys as written (it is case-sensitive), but no
// report prints a password — not the audit, the graph in any format, nor the HTML report.

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { GRAPH_FORMATS, redactPassword, writeHtmlReport } from '../../src/report/index.js';
import { exportText } from './graph/export-text.js';
import { FakeReader, aliasRow, edgeRow, fetchRow, formRow, urlRow } from './support/fake-reader.js';

const SECRET = 's3cr3t';

function readerWithPasswords(): FakeReader {
  return new FakeReader({
    urls: [
      urlRow({ id: 1, key: `http://user:${SECRET}@h/`, depth: 0 }),
      urlRow({ id: 2, key: `http://user:${SECRET}@h/old`, depth: 1, state: 'alias', aliasOf: 3 }),
      urlRow({
        id: 3,
        key: 'http://h/new',
        depth: 1,
        lastFetch: fetchRow({ id: 1, urlId: 3, status: 200 }),
      }),
    ],
    forms: [formRow(1, `HTTP://user:${SECRET}@H/`)],
    edges: [edgeRow({ fromUrlId: 1, toUrlId: 2, count: 1 }), edgeRow({ fromUrlId: 1, toUrlId: 3, count: 1 })],
    fetches: [fetchRow({ id: 2, urlId: 2, status: 301, redirects: [{ from: `http://user:${SECRET}@h/old`, to: `http://user:${SECRET}@h/new`, status: 301 }] })],
    aliases: [aliasRow({ fromId: 2, fromKey: `http://user:${SECRET}@h/old`, toId: 3, toKey: 'http://h/new', evidence: 'redirect' })],
  });
}

describe('no report prints a password', () => {
  it('redactPassword keeps the user name and hides the password', () => {
    expect(redactPassword(`http://user:${SECRET}@h/x`)).toBe('http://user:***@h/x');
    expect(redactPassword('http://user@h/x')).toBe('http://user@h/x');
    expect(redactPassword(`//user:${SECRET}@h/x`)).toBe('//user:***@h/x');
  });

  it.each(GRAPH_FORMATS)('graph --format %s (and with aliases collapsed)', async (format) => {
    for (const collapse of [false, true]) {
      const text = await exportText(readerWithPasswords(), format, collapse);
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
    await writeHtmlReport(readerWithPasswords(), [], sink);
    expect(html).not.toContain(SECRET);
    expect(html).toContain('user:***@');
  });
});
