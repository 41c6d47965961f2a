// Pages in legacy encodings. Browsers percent-encode the query of
// a page's links in the page's encoding (WHATWG URL Standard, the URL parser's
// "encoding", used by the query state only); linkladder encodes it as UTF-8, like
// the path, and lists that as a deviation.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageLinks } from '../../src/crawl/page-links.js';
import type { FetchedResponse } from '../../src/fetch/index.js';
import { DEFAULT_FOLLOW } from '../../src/html/index.js';

const NAME = 'DEVIATION(WHATWG URL query encoding) a link on a windows-1252 page gets its query percent-encoded as UTF-8, not in the page encoding';

/** A windows-1252 page, as the fetcher hands it on: decoded, with its charset. */
function windows1252Page(url: string, body: string): FetchedResponse {
  return {
    requestUrl: url,
    finalUrl: url,
    hops: [],
    status: 200,
    headers: { 'content-type': 'text/html; charset=windows-1252' },
    contentType: 'text/html',
    charset: 'windows-1252',
    body,
    bytes: body.length,
    startedAt: 0,
    durationMs: 1,
    errorCode: undefined,
  };
}

describe('pages in legacy encodings', () => {
  it(NAME, () => {
    const url = 'http://site.test/fr/';
    const { entries } = pageLinks(windows1252Page(url, '<a href="café?q=crème">x</a><a href="/search?q=€">y</a>'), {
      id: 1,
      url,
      depth: 1,
      baseMode: 'rfc3986',
      follow: DEFAULT_FOLLOW,
      mayFollow: () => true,
    });
    // A browser requests /fr/caf%C3%A9?q=cr%E8me and /search?q=%80; the path is UTF-8 in both.
    expect(entries.map((e) => e.target)).toEqual(['http://site.test/fr/caf%C3%A9?q=cr%C3%A8me', 'http://site.test/search?q=%E2%82%AC']);
    expect(entries.map((e) => e.findings)).toEqual([['HREF_NON_ASCII'], ['HREF_NON_ASCII']]);
  });

  it('is listed in docs/deviations.md with its reason and this test', () => {
    const deviations = readFileSync(new URL('../../docs/deviations.md', import.meta.url), 'utf8');
    const row = deviations.split('\n').find((line) => line.startsWith('| WHATWG URL query encoding |'));
    expect(row).toBeDefined();
    expect(row).toContain('test/crawl/legacy-encoding.test.ts');
    expect(row).toContain('DEVIATION(WHATWG URL query encoding)');
  });
});
