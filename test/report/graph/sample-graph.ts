// A small index whose URLs hold every character the export formats must escape,
// with an alias whose page has links of its own (so collapsing re-points and sums).

import { FakeReader, edgeRow, fetchRow, formRow, urlRow } from '../support/fake-reader.js';

/** Keys by node id; several are not valid URIs on purpose: the writers must cope with any text. */
export const SAMPLE_KEYS = {
  1: 'http://h/',
  2: 'http://h/a,b"c',
  3: 'http://h/old',
  4: 'http://h/new',
  5: "http://other/<x>&'y'",
  6: 'http://h/back\\slash\\',
  7: 'http://h/line\nbreak\r\nend',
  8: 'http://h/ctl\u0001\uD800é',
} as const;

export function sampleReader(): FakeReader {
  const key = (id: keyof typeof SAMPLE_KEYS): string => SAMPLE_KEYS[id];
  return new FakeReader({
    urls: [
      urlRow({ id: 1, key: key(1), depth: 0 }),
      urlRow({ id: 2, key: key(2), depth: 1 }),
      urlRow({ id: 3, key: key(3), depth: 1, state: 'alias', aliasOf: 4 }),
      urlRow({ id: 4, key: key(4), depth: 1 }),
      urlRow({ id: 5, key: key(5), depth: 1, state: 'skipped' }),
      urlRow({ id: 6, key: key(6), depth: 1, state: 'failed', lastFetch: fetchRow({ id: 3, urlId: 6, status: 500 }) }),
      urlRow({ id: 7, key: key(7), depth: 1, state: 'queued' }),
      urlRow({ id: 8, key: key(8), depth: 1, state: 'queued' }),
    ],
    forms: [formRow(1, 'HTTP://h/'), formRow(1, 'http://h:80/'), formRow(3, 'http://h/%6Fld', 'syntax')],
    edges: [
      edgeRow({ fromUrlId: 1, toUrlId: 2, count: 2 }),
      edgeRow({ fromUrlId: 1, toUrlId: 4 }),
      edgeRow({ fromUrlId: 1, toUrlId: 5, element: 'img', attribute: 'src' }),
      edgeRow({ fromUrlId: 1, toUrlId: 6, element: 'link' }),
      edgeRow({ fromUrlId: 1, toUrlId: 7 }),
      edgeRow({ fromUrlId: 1, toUrlId: 8 }),
      edgeRow({ fromUrlId: 2, toUrlId: 1, element: undefined, attribute: undefined }),
      edgeRow({ fromUrlId: 3, toUrlId: 4 }),
      edgeRow({ fromUrlId: 3, toUrlId: 5, count: 2 }),
      edgeRow({ fromUrlId: 4, toUrlId: 5 }),
    ],
  });
}
