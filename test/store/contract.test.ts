// One contract for every IndexStore: the SQLite store and the in-memory one must
// behave alike (STYLE.md "Store and migrations").

import { describe, expect, it } from 'vitest';
import { ladderForms } from '../../src/ladder/index.js';
import { MemoryStore, SqliteStore, type AdmitEntry, type IndexStore } from '../../src/store/index.js';
import { parseUriReference, type AbsoluteUri } from '../../src/uri/index.js';

const implementations: [string, () => IndexStore][] = [
  ['SqliteStore', () => new SqliteStore({ path: ':memory:', now: () => 1_700_000_000_000 })],
  ['MemoryStore', () => new MemoryStore({ now: () => 1_700_000_000_000 })],
];

const link = (fromUrlId: number, target: string, extra: Partial<AdmitEntry> = {}): AdmitEntry => ({
  fromUrlId,
  rawHref: target,
  target,
  element: 'a',
  attribute: 'href',
  baseLevel: 'retrieval',
  depth: 1,
  ...extra,
});

function seed(store: IndexStore, uri = 'http://host/'): number {
  const [result] = store.admit([{ rawHref: uri, target: uri, depth: 0 }]);
  return result!.urlId!;
}

describe.each(implementations)('IndexStore contract: %s', (_name, open) => {
  it('admits a seed as a new, queued URL and writes no link for it', () => {
    const store = open();
    const [result] = store.admit([{ rawHref: 'http://host/', target: 'http://host/', depth: 0 }]);
    expect(result).toEqual({ urlId: 1, rung: 'new', isQueued: true, error: undefined });
    expect(store.stats().links).toBe(0);
    expect(store.getUrl(1)).toEqual({ id: 1, key: 'http://host/', state: 'queued', depth: 0, aliasOf: undefined });
  });

  it('reports the rung at which each spelling of one target met the index', () => {
    const store = open();
    const page = seed(store);
    const results = store.admit([
      link(page, 'http://host/b.'),
      link(page, 'http://host/b.'), // string: the same string again
      link(page, 'http://host/a/../b.'), // resolution would have removed the dots; written raw it meets at syntax
      link(page, 'http://host/b%2e'), // syntax: %2e decoded
      link(page, 'HTTP://HOST/b.'), // syntax: case
      link(page, 'http://host:80/b.'), // scheme: default port
      link(page, 'http://host:/b.'), // scheme: empty port
      link(page, 'http://host/b.#x'), // string: the fragment is not part of the resource
      link(page, 'http://HOST:80/b%2E#y'), // syntax: meets the spelling with :80 seen above
      link(page, 'http://HOST:0080/b%2E'), // scheme
    ]);
    expect(results.map((r) => r.rung)).toEqual(['new', 'string', 'syntax', 'syntax', 'syntax', 'scheme', 'scheme', 'string', 'syntax', 'scheme']);
    expect(new Set(results.map((r) => r.urlId))).toEqual(new Set([2]));
    expect(results.map((r) => r.isQueued)).toEqual([true, false, false, false, false, false, false, false, false, false]);
    const stats = store.stats();
    expect(stats.links).toBe(10);
    expect(stats.linksByRung).toEqual({ new: 1, string: 2, syntax: 4, scheme: 3, protocol: 0 });
    expect(stats.urlsByState.queued).toBe(2);
  });

  it('says string for the key itself, and syntax for a spelling that meets another spelling only there', () => {
    const store = open();
    const page = seed(store);
    const results = store.admit([
      link(page, 'HTTP://host:80/x'), // new; key http://host/x
      link(page, 'http://host/x'), // string: the key itself
      link(page, 'http://HOST:80/x'), // syntax: meets HTTP://host:80/x at http://host:80/x
      link(page, 'http://host:0080/x'), // scheme
    ]);
    expect(results.map((r) => r.rung)).toEqual(['new', 'string', 'syntax', 'scheme']);
  });

  it('records links that do not resolve, with their error, and queues nothing for them', () => {
    const store = open();
    const page = seed(store);
    const results = store.admit([
      { fromUrlId: page, rawHref: 'http://a b/', target: undefined, error: 'ERR_URI_BAD_HOST' },
      { fromUrlId: page, rawHref: 'x', target: 'not a uri' },
      { fromUrlId: page, rawHref: 'rel', target: 'rel/ative' },
    ]);
    expect(results).toEqual([
      { urlId: undefined, rung: undefined, isQueued: false, error: 'ERR_URI_BAD_HOST' },
      { urlId: undefined, rung: undefined, isQueued: false, error: 'ERR_URI_BAD_PATH' },
      { urlId: undefined, rung: undefined, isQueued: false, error: 'ERR_URI_NOT_ABSOLUTE' },
    ]);
    expect(store.stats().linksWithoutTarget).toBe(3);
  });

  it('records but does not queue what is not followed, and queues it once a followed link names it', () => {
    const store = open();
    const page = seed(store);
    const [img] = store.admit([link(page, 'http://host/i.png', { follow: false, element: 'img', attribute: 'src' })]);
    expect(img).toMatchObject({ rung: 'new', isQueued: false });
    expect(store.getUrl(img!.urlId!)?.state).toBe('skipped');
    expect(store.admit([link(page, 'http://host/i.png', { follow: false })])[0]).toMatchObject({ isQueued: false });
    expect(store.admit([link(page, 'http://host/i.png')])[0]).toMatchObject({ rung: 'string', isQueued: true });
    expect(store.getUrl(img!.urlId!)?.state).toBe('queued');
    expect(store.admit([link(page, 'http://host/i.png')])[0]).toMatchObject({ isQueued: false });
  });

  it('claims shallowest first, records fetches, and never hands out a URL twice', () => {
    const store = open();
    const page = seed(store);
    store.admit([link(page, 'http://host/deep', { depth: 3 }), link(page, 'http://host/a', { depth: 1 }), link(page, 'http://host/b', { depth: 1 })]);
    const first = store.claim(2);
    expect(first.map((u) => u.key)).toEqual(['http://host/', 'http://host/a']);
    expect(first[0]).toEqual({ id: 1, key: 'http://host/', depth: 0, host: 'host' });
    const second = store.claim(10);
    expect(second.map((u) => u.key)).toEqual(['http://host/b', 'http://host/deep']);
    expect(store.claim(10)).toEqual([]);
    store.recordFetch({ urlId: 1, outcome: 'done', startedAt: 1, durationMs: 5, status: 200, contentType: 'text/html', bytes: 10 });
    store.recordFetch({ urlId: 2, outcome: 'failed', startedAt: 1, errorCode: 'ERR_FETCH_TIMEOUT' });
    const stats = store.stats();
    expect(stats.fetches).toBe(2);
    expect(stats.urlsByState).toMatchObject({ done: 1, failed: 1, fetching: 2, queued: 0 });
  });

  it('applies aliases: a later link to an aliased URL names its target and queues nothing', () => {
    const store = open();
    const page = seed(store);
    const [a, b] = store.admit([link(page, 'http://host/dir'), link(page, 'http://host/dir/')]);
    store.addAlias({ fromId: a!.urlId!, toId: b!.urlId!, evidence: 'redirect', detail: '301' });
    expect(store.getUrl(a!.urlId!)).toMatchObject({ state: 'alias', aliasOf: b!.urlId });
    const later = store.admit([link(page, 'http://host/dir'), link(page, 'http://HOST:80/dir'), link(page, 'http://host/dir/')]);
    expect(later.map((r) => [r.urlId, r.rung, r.isQueued])).toEqual([
      [b!.urlId, 'protocol', false],
      [b!.urlId, 'protocol', false],
      [b!.urlId, 'string', false],
    ]);
    expect(store.stats().aliasesByEvidence).toEqual({ redirect: 1, 'content-location': 0, canonical: 0 });
  });

  it('follows alias chains and is safe in a loop', () => {
    const store = open();
    const page = seed(store);
    const ids = store.admit(['x', 'y', 'z'].map((p) => link(page, `http://host/${p}`))).map((r) => r.urlId!);
    store.addAlias({ fromId: ids[0]!, toId: ids[1]!, evidence: 'redirect' });
    store.addAlias({ fromId: ids[1]!, toId: ids[2]!, evidence: 'content-location' });
    expect(store.admit([link(page, 'http://host/x')])[0]).toMatchObject({ urlId: ids[2], rung: 'protocol' });
    store.addAlias({ fromId: ids[2]!, toId: ids[0]!, evidence: 'redirect' });
    expect(store.admit([link(page, 'http://host/y')])[0]).toMatchObject({ urlId: Math.min(...ids), rung: 'protocol' });
  });

  it('records canonical claims without following them, and revokes an alias', () => {
    const store = open();
    const page = seed(store);
    const [a, b] = store.admit([link(page, 'http://host/p?utm=1'), link(page, 'http://host/p')]);
    store.addAlias({ fromId: a!.urlId!, toId: b!.urlId!, evidence: 'canonical' });
    expect(store.admit([link(page, 'http://host/p?utm=1')])[0]).toMatchObject({ urlId: a!.urlId, rung: 'string' });
    store.addAlias({ fromId: a!.urlId!, toId: b!.urlId!, evidence: 'redirect' });
    expect(store.admit([link(page, 'http://host/p?utm=1')])[0]).toMatchObject({ urlId: b!.urlId, rung: 'protocol' });
    store.revokeAlias(a!.urlId!);
    expect(store.getUrl(a!.urlId!)).toMatchObject({ state: 'queued', aliasOf: undefined });
    expect(store.admit([link(page, 'http://host/p?utm=1')])[0]).toMatchObject({ urlId: a!.urlId, rung: 'string' });
    expect(store.stats().aliasesByEvidence).toEqual({ redirect: 0, 'content-location': 0, canonical: 1 });
  });

  it('finds a URL by any spelling of it', () => {
    const store = open();
    seed(store, 'http://host/a%7Eb');
    expect(store.findUrl('HTTP://host:80/a~b#frag')).toMatchObject({ id: 1, key: 'http://host/a~b' });
    expect(store.findUrl('http://other/')).toBeUndefined();
    expect(store.findUrl('not a uri')).toBeUndefined();
  });

  it('refuses a batch from an unknown page as a whole', () => {
    const store = open();
    const page = seed(store);
    expect(() => store.admit([link(page, 'http://host/ok'), link(999, 'http://host/bad')])).toThrow(
      expect.objectContaining({ code: 'ERR_STORE_NOT_FOUND' }),
    );
    expect(store.findUrl('http://host/ok')).toBeUndefined();
    expect(store.stats().links).toBe(0);
    // and the cache forgot the rolled-back URL
    expect(store.admit([link(page, 'http://host/ok')])[0]).toMatchObject({ rung: 'new', isQueued: true });
    expect(() => store.recordFetch({ urlId: 999, outcome: 'done', startedAt: 0 })).toThrow(
      expect.objectContaining({ code: 'ERR_STORE_NOT_FOUND' }),
    );
  });
});

describe.each(implementations)('ladder attribution of hrefs as a crawler resolves them: %s', (_name, open) => {
  it('atomically: all the work of a block is recorded, or none when it throws', () => {
    const store = open();
    const page = seed(store);
    expect(() =>
      store.atomically(() => {
        store.admit([link(page, 'http://host/lost')]);
        store.recordFetch({ urlId: page, outcome: 'done', startedAt: 1, status: 200 });
        throw new Error('crash in the middle of a page');
      }),
    ).toThrow('crash in the middle');
    expect(store.findUrl('http://host/lost')).toBeUndefined();
    expect(store.getUrl(page)?.state).toBe('queued');
    expect(store.stats()).toMatchObject({ links: 0, fetches: 0 });
    // The store still works, and a later admit of the same target is new again.
    const [again] = store.admit([link(page, 'http://host/lost')]);
    expect(again?.rung).toBe('new');
    const value = store.atomically(() => {
      store.recordFetch({ urlId: page, outcome: 'done', startedAt: 1, status: 200 });
      return 42;
    });
    expect(value).toBe(42);
    expect(store.getUrl(page)?.state).toBe('done');
    expect(() => store.atomically(() => Promise.resolve(1))).toThrow(expect.objectContaining({ code: 'ERR_STORE_ASYNC_TRANSACTION' }));
  });

  it('requeues a URL in any state but alias', () => {
    const store = open();
    const page = seed(store);
    const [claimed] = store.claim(1);
    expect(claimed?.id).toBe(page);
    store.requeue(page);
    expect(store.getUrl(page)?.state).toBe('queued');
    const [other] = store.admit([link(page, 'http://host/other')]);
    store.addAlias({ fromId: other!.urlId!, toId: page, evidence: 'redirect' });
    store.requeue(other!.urlId!);
    expect(store.getUrl(other!.urlId!)?.state).toBe('alias');
    expect(() => store.requeue(999)).toThrow(expect.objectContaining({ code: 'ERR_STORE_NOT_FOUND' }));
  });

  it('keeps robots.txt per origin, replacing an older entry', () => {
    const store = open();
    expect(store.getRobots('http://host')).toBeUndefined();
    store.setRobots('http://host', { fetchedAt: 1, status: 200, errorCode: undefined, body: 'User-agent: *\nDisallow: /x' });
    store.setRobots('http://host', { fetchedAt: 2, status: 404, errorCode: undefined, body: undefined });
    expect(store.getRobots('http://host')).toMatchObject({ fetchedAt: 2, status: 404 });
    expect(store.getRobots('http://other')).toBeUndefined();
  });

  it('keeps the history that explains a URL: its first link, its fetches and its aliases', () => {
    const store = open();
    const page = seed(store);
    const [first] = store.admit([link(page, 'http://host/moved', { rawHref: 'moved' })]);
    store.admit([link(page, 'http://host/moved', { rawHref: './moved' })]);
    const [final] = store.admit([{ rawHref: 'http://host/new', target: 'http://host/new' }]);
    const moved = first!.urlId!;
    store.recordFetch({
      urlId: moved,
      outcome: 'done',
      startedAt: 5,
      status: 200,
      attempts: 2,
      finalUrl: 'http://host/new',
      redirects: [{ from: 'http://host/moved', to: 'http://host/new', status: 301 }],
      findings: ['HTML_BASE_IN_BODY'],
      anchors: ['top', 'x'],
    });
    store.addAlias({ fromId: moved, toId: final!.urlId!, evidence: 'redirect', detail: '301' });
    const history = store.history(moved)!;
    expect(history.url.state).toBe('alias');
    expect(history.firstLink).toEqual({ fromUrlId: page, fromKey: 'http://host/', rawHref: 'moved' });
    expect(history.fetches).toHaveLength(1);
    expect(history.fetches[0]).toMatchObject({
      status: 200,
      attempts: 2,
      redirects: [{ from: 'http://host/moved', to: 'http://host/new', status: 301 }],
      findings: ['HTML_BASE_IN_BODY'],
      anchors: ['top', 'x'],
    });
    expect(history.aliasesFrom).toEqual([
      expect.objectContaining({ fromId: moved, fromKey: 'http://host/moved', toKey: 'http://host/new', evidence: 'redirect', detail: '301' }),
    ]);
    expect(store.history(final!.urlId!)?.aliasesTo).toHaveLength(1);
    expect(store.history(final!.urlId!)?.firstLink).toEqual({ fromUrlId: undefined, fromKey: undefined, rawHref: 'http://host/new' });
    expect(store.history(999)).toBeUndefined();
  });

  it('/a/../b, /B%2e, HTTP://HOST:80/b and //host/b#x against http://host/x', async () => {
    const { resolve } = await import('../../src/index.js');
    const store = open();
    const page = seed(store, 'http://host/x');
    const base = 'http://host/x';
    const hrefs = ['b', '/a/../b', '/B%2e', '/B%2E', 'HTTP://HOST:80/b', '//host/b#x'];
    const results = store.admit(hrefs.map((href) => ({ ...link(page, resolve(href, base)), rawHref: href })));
    expect(results.map((r) => r.rung)).toEqual([
      'new', // http://host/b
      'string', // §5.2 resolution already removed the dot segments: http://host/b
      'new', // http://host/B%2e is /B. — paths are case-sensitive: another resource
      'syntax', // http://host/B%2E meets it once %2E is decoded
      'scheme', // http://host/b once the case and the default port go
      'string', // the fragment is not part of the resource (§6.1)
    ]);
    expect(results[1]!.urlId).toBe(results[0]!.urlId);
    expect(results[4]!.urlId).toBe(results[0]!.urlId);
    expect(results[5]!.urlId).toBe(results[0]!.urlId);
    expect(results[3]!.urlId).toBe(results[2]!.urlId);
  });
});

describe('SqliteStore recovery of claims', () => {
  it('requeues fetching rows on open, unless asked only to inspect', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-claims-'));
    const file = path.join(dir, 'x.db');
    const crawler = new SqliteStore({ path: file });
    seed(crawler);
    expect(crawler.claim(1)).toHaveLength(1);
    const inspector = new SqliteStore({ path: file, recoverClaims: false });
    expect(inspector.stats().urlsByState.fetching).toBe(1);
    inspector.close();
    crawler.close();
    const restarted = new SqliteStore({ path: file });
    expect(restarted.stats().urlsByState).toMatchObject({ fetching: 0, queued: 1 });
    restarted.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

// Issue 9: a resolved link carries its ladder forms; the index then neither parses
// nor normalizes, and says exactly what it says when it does both itself.
describe.each(implementations)('IndexStore contract, links with their ladder forms: %s', (_name, open) => {
  const spellings = ['http://host/a/../b', 'http://host/B%2e', 'HTTP://HOST:80/b', 'http://host/b', 'http://host/x/%2E/..', 'http://host/', 'http://host/c?%41', 'http://host/c?A', 'mailto:x@y'];

  function admitAll(store: IndexStore, withForms: boolean) {
    const page = seed(store);
    return spellings.map((target) => {
      const parsed = parseUriReference(target);
      const forms = withForms && parsed.ok ? ladderForms(parsed.value as AbsoluteUri, target) : undefined;
      return store.admit([link(page, target, { forms })])[0];
    });
  }

  it('admits each spelling at the same rung, to the same URL, as without them', () => {
    expect(admitAll(open(), true)).toEqual(admitAll(open(), false));
  });

  it('ignores forms that do not describe the target', () => {
    const store = open();
    const page = seed(store);
    const other = parseUriReference('http://other/');
    if (!other.ok) throw new Error('unreachable');
    const wrong = ladderForms(other.value as AbsoluteUri);
    const [result] = store.admit([link(page, 'http://host/z', { forms: wrong })]);
    expect(store.getUrl(result!.urlId!)?.key).toBe('http://host/z');
  });
});
