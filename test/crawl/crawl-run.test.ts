// A seed's fate is read from the index: the URL that stands for it is found by the
// one alias walk (ladder/alias-walk.ts), so that a seed caught in an alias cycle is
// judged by the resource the index, the audit and explain name for that cycle.

import { describe, expect, it } from 'vitest';
import { seedOutcomes } from '../../src/crawl/index.js';
import { walkAliases } from '../../src/ladder/index.js';
import { MemoryStore } from '../../src/store/index.js';

const S = 'http://site.test';

describe('seedOutcomes', () => {
  it('judges a seed in an alias cycle by the least member of the cycle, the URL the alias walk names', async () => {
    const store = new MemoryStore();
    try {
      // First seen in this order: y (id 1), the seed s (id 2), x (id 3).
      const [y, s, x] = await store.admit(
        [`${S}/y`, `${S}/s`, `${S}/x`].map((url) => ({ rawHref: url, target: url, depth: 0 })),
      );
      const ids = { y: y!.urlId!, s: s!.urlId!, x: x!.urlId! };
      await store.claim(3);
      // y answered 200, x 404; the seed itself was never asked (it was proved an alias first).
      await store.recordFetch({ urlId: ids.y, outcome: 'done', startedAt: 1, status: 200, contentType: 'text/html' });
      await store.recordFetch({ urlId: ids.x, outcome: 'done', startedAt: 2, status: 404, contentType: 'text/html' });
      // The alias cycle s → y → x → s: one resource, named by its least member, y.
      await store.addAlias({ fromId: ids.s, toId: ids.y, evidence: 'content-location' });
      await store.addAlias({ fromId: ids.y, toId: ids.x, evidence: 'redirect' });
      await store.addAlias({ fromId: ids.x, toId: ids.s, evidence: 'redirect' });
      const aliasOf = new Map([[ids.s, ids.y], [ids.y, ids.x], [ids.x, ids.s]]);
      expect(walkAliases(ids.s, (id) => aliasOf.get(id))).toMatchObject({ end: ids.y, isCycle: true });

      const [outcome] = await seedOutcomes(store, [`${S}/s`]);
      expect(outcome).toEqual({ url: `${S}/s`, isFetched: true, reason: undefined });
    } finally {
      await store.close();
    }
  });

  it('judges a seed that is an alias by the end of its chain', async () => {
    const store = new MemoryStore();
    try {
      const [s, t] = await store.admit([`${S}/s`, `${S}/t`].map((url) => ({ rawHref: url, target: url, depth: 0 })));
      await store.claim(2);
      await store.recordFetch({ urlId: t!.urlId!, outcome: 'done', startedAt: 1, status: 404, contentType: 'text/html' });
      await store.addAlias({ fromId: s!.urlId!, toId: t!.urlId!, evidence: 'content-location' });
      expect(await seedOutcomes(store, [`${S}/s`])).toEqual([{ url: `${S}/s`, isFetched: false, reason: 'HTTP_404' }]);
    } finally {
      await store.close();
    }
  });
});
