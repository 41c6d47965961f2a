// The site the per-page counts of a PostgreSQL worker are taken on (round-trips.test.ts,
// statements.test.ts): PAGE_CHAIN.pages pages on one host, crawled one at a time, counted
// from the request of page `from` to that of page `to` (the units of the pages between,
// not the run's start and end).

import { FakeSite, page } from '../../crawl/fake-site.js';

export const PAGE_CHAIN = { pages: 40, from: 10, to: 30 } as const;

/** The URL of page n. */
export function chainPage(n: number): string {
  return n === 0 ? 'http://a.test/' : `http://a.test/p${n}`;
}

/** Page n links to the next two and back to the first: every page admits links, a new URL or two among them. */
export function pageChainSite(): FakeSite {
  const resources: Record<string, { body: string }> = {};
  for (let n = 0; n < PAGE_CHAIN.pages; n++) {
    const next = [n + 1, n + 2].filter((c) => c < PAGE_CHAIN.pages).map((c) => `/p${c}`);
    resources[chainPage(n)] = { body: page(...next, '/') };
  }
  return new FakeSite(resources);
}
