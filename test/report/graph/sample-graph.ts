// A small index, written through a MemoryStore, whose text holds what the export
// formats must escape: keys with the characters a URI may hold (commas, quotes,
// ampersands, parentheses), and links whose element and attribute names (free
// text in the index) hold quotes, backslashes, markup, line breaks, a control
// character and a lone surrogate. An alias has links of its own (so collapsing
// re-points and sums).

import type { IndexReader } from '../../../src/store/index.js';
import { readerOf } from '../support/memory-index.js';

/** Keys by node id. */
export const SAMPLE_KEYS = {
  1: 'http://h/',
  2: "http://h/a,b'c",
  3: 'http://h/old',
  4: 'http://h/new',
  5: "http://other/(x)&'y'",
  6: 'http://h/fail',
  7: 'http://h/q?a=1&b=2',
  8: 'http://h/%C3%A9',
} as const;

/** The element and attribute names of the links 1 → 7 and 1 → 8. */
export const HOSTILE_LINKS = {
  7: { element: 'a"b\\c\\', attribute: "<x>&'y'" },
  8: { element: 'line\nbreak\r\nend', attribute: 'ctl\u0001\uD800é' },
} as const;

export function sampleReader(): Promise<IndexReader> {
  const url = (id: keyof typeof SAMPLE_KEYS, more: object = {}) => ({ id, key: SAMPLE_KEYS[id], depth: id === 1 ? 0 : 1, ...more });
  return readerOf({
    urls: [
      url(1, { fetches: [{}] }),
      url(2, { fetches: [{}] }),
      url(3, { state: 'alias', aliasOf: 4, fetches: [{ status: 200, redirects: [{ from: SAMPLE_KEYS[3], to: SAMPLE_KEYS[4], status: 301 }] }] }),
      url(4, { fetches: [{}] }),
      url(5, { state: 'skipped', role: 'external' }),
      url(6, { state: 'failed', fetches: [{ status: 500 }] }),
      url(7, { role: 'resource', fetches: [{ status: 404 }] }),
      url(8),
    ],
    spellings: ['HTTP://h/', 'http://h:80/', 'http://h/%6Fld'],
    links: [
      { from: 1, rawHref: 'a', to: 2 },
      { from: 1, rawHref: 'a', to: 2 },
      { from: 1, rawHref: 'new', to: 4 },
      { from: 1, rawHref: 'x.png', to: 5, element: 'img', attribute: 'src' },
      { from: 1, rawHref: 'fail', to: 6, element: 'link' },
      { from: 1, rawHref: 'q', to: 7, ...HOSTILE_LINKS[7] },
      { from: 1, rawHref: 'é', to: 8, ...HOSTILE_LINKS[8] },
      { from: 2, rawHref: '/', to: 1, element: null, attribute: null },
      { from: 3, rawHref: 'new', to: 4 },
      { from: 3, rawHref: 'x', to: 5 },
      { from: 3, rawHref: 'x', to: 5 },
      { from: 4, rawHref: 'x', to: 5 },
    ],
  });
}
