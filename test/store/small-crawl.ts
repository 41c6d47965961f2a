// A small crawl written through the IndexWriter, for the reader tests.

import type { AdmitEntry, IndexWriter } from '../../src/store/index.js';

export const link = (fromUrlId: number, rawHref: string, target: string | undefined, extra: Partial<AdmitEntry> = {}): AdmitEntry => ({
  fromUrlId,
  rawHref,
  target,
  element: 'a',
  attribute: 'href',
  baseLevel: 'retrieval',
  depth: 1,
  ...extra,
});

/** A small crawl: a home page linking /a in four spellings, /old (a redirect to /new), and a broken href. */
export async function smallCrawl(store: IndexWriter) {
  const [home] = await store.admit([{ rawHref: 'http://site/', target: 'http://site/' }]);
  const homeId = home!.urlId!;
  const results = await store.admit([
    link(homeId, 'a', 'http://site/a'),
    link(homeId, 'A%2e', 'http://site/A%2e', { findings: ['HREF_SURROUNDING_WHITESPACE'] }),
    link(homeId, 'http://SITE:80/a#top', 'http://SITE:80/a#top', { alternateTarget: 'http://site/other/a' }),
    link(homeId, 'old', 'http://site/old'),
    link(homeId, 'http://[bad', undefined, { error: 'ERR_URI_BAD_IP_LITERAL' }),
  ]);
  const oldId = results[3]!.urlId!;
  const [target] = await store.admit([{ rawHref: 'http://site/new', target: 'http://site/new' }]);
  await store.recordFetch({
    urlId: oldId,
    outcome: 'done',
    startedAt: 10,
    status: 200,
    finalUrl: 'http://site/new',
    redirects: [{ from: 'http://site/old', to: 'http://site/new', status: 301 }],
  });
  await store.addAlias({ fromId: oldId, toId: target!.urlId!, evidence: 'redirect', detail: '301' });
  // A later link to /old meets it at the string rung, and names /new through the alias.
  await store.admit([link(homeId, '/old', 'http://site/old', { element: 'link', attribute: 'href' })]);
  await store.recordFetch({ urlId: homeId, outcome: 'done', startedAt: 1, status: 200, anchors: ['top'], findings: ['BASE_RELATIVE'] });
  await store.recordFetch({ urlId: results[0]!.urlId!, outcome: 'failed', startedAt: 2, errorCode: 'ERR_FETCH_TIMEOUT' });
  return { homeId, aId: results[0]!.urlId!, oldId, newId: target!.urlId! };
}
