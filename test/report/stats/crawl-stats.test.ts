import { describe, expect, it } from 'vitest';
import { collectStats, formatStats } from '../../../src/report/index.js';
import { FakeReader } from '../support/fake-reader.js';

const reader = (): FakeReader =>
  new FakeReader({
    funnel: { rawLinks: 120, distinctStrings: 40, distinctSyntax: 31, distinctScheme: 29, afterAliases: 25, unresolved: 3 },
    stats: {
      urlsByState: { queued: 0, fetching: 0, done: 20, failed: 2, skipped: 4, alias: 4 },
      links: 123,
      linksByRung: { new: 29, string: 80, syntax: 9, scheme: 2, protocol: 0 },
      linksWithoutTarget: 3,
      aliasesByEvidence: { redirect: 3, 'content-location': 1, canonical: 2 },
      fetches: 24,
    },
    errorsByCode: { ERR_FETCH_REDIRECT_LOOP: 1, HTTP_404: 2 },
  });

describe('collectStats', () => {
  it('the funnel, what each rung folded, the fetches saved by both definitions, aliases and errors', () => {
    expect(collectStats(reader())).toEqual({
      funnel: { rawLinks: 120, distinctStrings: 40, distinctSyntax: 31, distinctScheme: 29, afterAliases: 25, unresolved: 3 },
      folded: { syntax: 9, scheme: 2, protocol: 4 },
      fetchesSaved: 15,
      linksNotFetched: 96,
      fetches: 24,
      urls: 30,
      aliasesByEvidence: { redirect: 3, 'content-location': 1, canonical: 2 },
      errorsByCode: { ERR_FETCH_REDIRECT_LOOP: 1, HTTP_404: 2 },
    });
  });

  it('an empty index: all zero, never negative', () => {
    const stats = collectStats(new FakeReader());
    expect(stats.fetchesSaved).toBe(0);
    expect(stats.linksNotFetched).toBe(0);
    expect(stats.folded).toEqual({ syntax: 0, scheme: 0, protocol: 0 });
    expect(formatStats(stats).at(-1)).toBe('errors          0');
  });
});

describe('formatStats', () => {
  it('one labelled line each, the funnel as a ladder with what each rung folded, and the definitions', () => {
    expect(formatStats(collectStats(reader()))).toEqual([
      'funnel          the comparison ladder (RFC 3986 §6.2), over the links with a target:',
      '  raw links     120  links with a resolved target',
      '  strings        40  distinct target strings (fragment removed)',
      '  syntax         31  distinct after syntax-based normalization (§6.2.2), 9 folded',
      '  scheme         29  distinct after scheme-based normalization (§6.2.3), 2 folded',
      '  aliases        25  distinct after protocol-based aliases (§6.2.4), 4 folded',
      '  unresolved      3  links without a valid target',
      'fetches saved   15  (distinct target strings (fragment removed) minus distinct URLs after aliases: each is a target that a crawler deduplicating exact strings would request as a resource of its own, and that a rung of the ladder folded into a URL already known instead)',
      'links unfetched 96  (links with a target minus fetches: the requests a crawler without any deduplication would have added; 24 fetches)',
      'urls            30',
      'aliases         6  by evidence: redirect 3, content-location 1, canonical 2',
      'errors          3  by code: ERR_FETCH_REDIRECT_LOOP 1, HTTP_404 2',
    ]);
  });
});
