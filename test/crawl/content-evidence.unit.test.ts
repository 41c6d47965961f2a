// ContentEvidence on its own: what it holds, joins and releases, round by round.

import { describe, expect, it } from 'vitest';
import { ClaimBook } from '../../src/crawl/claim-book.js';
import { ContentEvidence } from '../../src/crawl/content-evidence.js';
import { CrawlTally } from '../../src/crawl/crawl-tally.js';
import { MemoryStore, type ClaimedUrl } from '../../src/store/index.js';

const H = 'http://h.test';

async function setUp(mayHold = true) {
  const store = new MemoryStore();
  const released: ClaimedUrl[] = [];
  const claims = new ClaimBook();
  const tally = new CrawlTally({ onEvent: undefined, onEventError: () => {}, now: () => 0 });
  const evidence = new ContentEvidence({ tally, claims, mayHold, release: (each) => released.push(...each) });
  const idOf = async (url: string): Promise<number> => (await store.admit([{ rawHref: url, target: url, depth: 1 }]))[0]!.urlId!;
  /** Two pages fetched with one body teach the rule between their prefixes. */
  const fetchedPair = async (a: string, b: string, body: string): Promise<void> => {
    for (const url of [a, b]) await evidence.pageFetched(store, { id: await idOf(url), key: url }, body, []);
  };
  return { store, evidence, released, claims, fetchedPair, idOf };
}

describe('ContentEvidence', () => {
  it('holds a page a rule maps onto another, and releases each it cannot prove, settling something every round', async () => {
    const { store, evidence, released, claims, fetchedPair } = await setUp();
    await fetchedPair(`${H}/a/x.html`, `${H}/b/x.html`, 'digest-x');
    await store.admit([`${H}/a/y.html`, `${H}/b/y.html`, `${H}/c/y.html`].map((url) => ({ rawHref: url, target: url, depth: 1 })));
    const claimed = (await store.claim(10)).filter((each) => each.key.endsWith('/y.html'));
    const held = claimed.filter((each) => evidence.hold(each));
    // /c/ has no rule: it is fetched at once.
    expect(held.map((each) => each.key)).toEqual([`${H}/a/y.html`, `${H}/b/y.html`]);
    expect(held.every((each) => claims.held.has(each.id))).toBe(true);
    let rounds = 0;
    while (evidence.heldCount > 0 && rounds < 10) {
      await evidence.settle(store);
      rounds++;
    }
    // Neither can be proved (the rule lacks support, nothing declared variants): both are fetched, the first claimed first.
    expect(released.map((each) => each.key)).toEqual([`${H}/a/y.html`, `${H}/b/y.html`]);
    expect(rounds).toBe(2);
    expect(claims.held.size).toBe(0);
    expect(evidence.summary()).toMatchObject({ deferred: 2, joined: 0, released: 2 });
  });

  it('makes a page with a body already fetched its alias, within its origin only', async () => {
    const { store, evidence, fetchedPair, idOf } = await setUp();
    await fetchedPair(`${H}/a/x.html`, `${H}/b/x.html`, 'digest-x');
    await evidence.pageFetched(store, { id: await idOf('http://other.test/b/x.html'), key: 'http://other.test/b/x.html' }, 'digest-x', []);
    const aliases = [];
    for await (const alias of store.reader().aliases()) aliases.push([alias.evidence, alias.fromKey, alias.toKey]);
    expect(aliases).toEqual([['digest', `${H}/b/x.html`, `${H}/a/x.html`]]);
    expect(evidence.summary().rules).toEqual([{ prefixes: [`${H}/a/`, `${H}/b/`], support: 1, contradictions: 0, provedBy: `${H}/b/x.html = ${H}/a/x.html` }]);
  });

  it('holds nothing on a frontier shared by workers', async () => {
    const { store, evidence, fetchedPair } = await setUp(false);
    await fetchedPair(`${H}/a/x.html`, `${H}/b/x.html`, 'digest-x');
    await store.admit([{ rawHref: `${H}/a/y.html`, target: `${H}/a/y.html`, depth: 1 }]);
    const [claimed] = await store.claim(1);
    expect(evidence.hold(claimed!)).toBe(false);
  });

  it('joins a held URL only when the page it maps onto declares its own variants, not when only other pages of its site do', async () => {
    const { store, evidence, released, fetchedPair, idOf } = await setUp();
    for (const name of ['x1', 'x2', 'x3']) await fetchedPair(`${H}/en/${name}.html`, `${H}/de/${name}.html`, `digest-${name}`);
    // The index declares its variants; a page declares only its own language; another declares none.
    const en = { language: 'en', key: `${H}/en/index.html` };
    await evidence.pageFetched(store, { id: await idOf(`${H}/en/index.html`), key: `${H}/en/index.html` }, 'digest-index', [en]);
    await evidence.pageFetched(store, { id: await idOf(`${H}/en/declared.html`), key: `${H}/en/declared.html` }, 'digest-declared', [{ language: 'en', key: `${H}/en/declared.html` }]);
    await evidence.pageFetched(store, { id: await idOf(`${H}/en/silent.html`), key: `${H}/en/silent.html` }, 'digest-silent', []);
    await store.admit([`${H}/de/declared.html`, `${H}/de/silent.html`].map((url) => ({ rawHref: url, target: url, depth: 1 })));
    const claimed = (await store.claim(10)).filter((each) => each.key.startsWith(`${H}/de/`));
    expect(claimed.filter((each) => evidence.hold(each)).map((each) => each.key)).toEqual([`${H}/de/declared.html`, `${H}/de/silent.html`]);
    await evidence.settle(store);
    // The silent page says nothing of /de/silent.html: it may be a page of its own, and is fetched.
    expect(released.map((each) => each.key)).toEqual([`${H}/de/silent.html`]);
    const aliases = [];
    for await (const alias of store.reader().aliases()) if (alias.evidence === 'rule') aliases.push([alias.fromKey, alias.toKey]);
    expect(aliases).toEqual([[`${H}/de/declared.html`, `${H}/en/declared.html`]]);
  });
});
