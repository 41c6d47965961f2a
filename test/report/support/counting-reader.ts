// A real IndexReader, watched: how many passes each list had and how many rows
// were taken from it, for the tests of what reports read and when.

import type { IndexReader } from '../../../src/store/index.js';

type ListName = 'urls' | 'forms' | 'links' | 'edges' | 'fetches' | 'aliases';

export interface CountingReader extends IndexReader {
  /** Passes started (the first row asked for) over each list. */
  readonly passes: Record<ListName, number>;
  /** Rows taken from each list, over all passes. */
  readonly pulled: Record<ListName, number>;
}

export function countingReader(reader: IndexReader): CountingReader {
  const zero = (): Record<ListName, number> => ({ urls: 0, forms: 0, links: 0, edges: 0, fetches: 0, aliases: 0 });
  const passes = zero();
  const pulled = zero();
  async function* watch<T>(name: ListName, rows: AsyncIterable<T>): AsyncGenerator<T> {
    passes[name] += 1;
    for await (const row of rows) {
      pulled[name] += 1;
      yield row;
    }
  }
  return {
    passes,
    pulled,
    stats: () => reader.stats(),
    funnel: () => reader.funnel(),
    url: (id) => reader.url(id),
    errorsByCode: () => reader.errorsByCode(),
    runs: () => reader.runs(),
    close: () => reader.close(),
    urls: () => watch('urls', reader.urls()),
    forms: () => watch('forms', reader.forms()),
    links: () => watch('links', reader.links()),
    edges: () => watch('edges', reader.edges()),
    fetches: () => watch('fetches', reader.fetches()),
    aliases: () => watch('aliases', reader.aliases()),
    duplicateBodies: () => reader.duplicateBodies(),
  };
}
