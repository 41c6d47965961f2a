import { describe, expect, it } from 'vitest';
import { baseLevelsDiffer, computeBaseChain, type ResponseFacts } from '../../src/base/index.js';

const PAGE = 'http://example.com/doc/page.html';

describe('baseLevelsDiffer', () => {
  it.each<[string, ResponseFacts, boolean]>([
    ['retrieval URL only', { retrievalUrl: PAGE }, false],
    ['nothing at all', {}, false],
    ['absolute base element, no headers', { retrievalUrl: PAGE, baseElementHref: 'http://cdn.example.org/' }, false],
    ['relative base element, no headers', { retrievalUrl: PAGE, baseElementHref: 'sub/' }, false],
    ['Content-Location naming the retrieval URL', { retrievalUrl: PAGE, contentLocation: 'page.html' }, false],
    ['Content-Location naming the retrieval URL in another spelling', { retrievalUrl: PAGE, contentLocation: 'HTTP://EXAMPLE.COM:80/doc/./page.html' }, false],
    ['Content-Location of a negotiated variant (siblings: ?q resolves differently)', { retrievalUrl: PAGE, contentLocation: 'page.html.en' }, true],
    ['Content-Location in another directory', { retrievalUrl: PAGE, contentLocation: '/other/x.html' }, true],
    ['Content-Base', { retrievalUrl: PAGE, contentBase: 'http://example.com/base/' }, true],
    ['invalid Content-Location', { retrievalUrl: PAGE, contentLocation: 'a b' }, false],
    ['absolute base element over Content-Location', { retrievalUrl: PAGE, contentLocation: '/other/x.html', baseElementHref: 'http://cdn.example.org/' }, false],
    ['relative base element over Content-Location in another directory', { retrievalUrl: PAGE, contentLocation: '/other/x.html', baseElementHref: 'sub/' }, true],
    ['relative base element over Content-Location in the same directory', { retrievalUrl: PAGE, contentLocation: 'page.html.en', baseElementHref: 'sub/' }, false],
    ['data: base element (browsers skip it)', { retrievalUrl: PAGE, baseElementHref: 'data:,x' }, true],
    ['Content-Location only, no retrieval URL: browsers have no base at all', { contentLocation: 'http://example.com/x' }, true],
  ])('%s → %s', (_name, facts, expected) => {
    expect(baseLevelsDiffer(computeBaseChain(facts))).toBe(expected);
    expect(baseLevelsDiffer(computeBaseChain(facts, { mode: 'browser' }))).toBe(expected);
  });
});
