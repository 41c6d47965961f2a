import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { explain } from '../../src/crawl/index.js';
import { AliasEnds, AliasMap, walkAliases } from '../../src/ladder/index.js';
import { audit, readGraph } from '../../src/report/index.js';
import { MemoryStore, SqliteStore, openIndexReader, type IndexWriter } from '../../src/store/index.js';
import { collect } from '../support/collect.js';

const next = (edges: Record<string, string>) => (node: string) => edges[node];

describe('walkAliases (RFC 3986 §6.2.4): one walker, one cycle rule', () => {
  it('follows a chain to its end', () => {
    expect(walkAliases('a', next({ a: 'b', b: 'c' }))).toEqual({ end: 'c', path: ['a', 'b', 'c'], isCycle: false });
    expect(walkAliases('z', next({}))).toEqual({ end: 'z', path: ['z'], isCycle: false });
  });

  it('a chain that runs into a cycle ends at the least member of the cycle, wherever it entered', () => {
    const edges = next({ a: 'b', b: 'c', c: 'b' });
    for (const start of ['a', 'b', 'c']) expect(walkAliases(start, edges)).toMatchObject({ end: 'b', isCycle: true });
    expect(walkAliases('a', edges).path).toEqual(['a', 'b', 'c']);
    // The tail is not a member of the cycle: `a` < `b` does not make `a` the end.
    expect(walkAliases(1, (n: number) => ({ 1: 3, 3: 2, 2: 3 })[n]).end).toBe(2);
  });

  it('every node of a functional graph gets the same end as its successor (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.nat(7), { nil: undefined }), { minLength: 8, maxLength: 8 }), (targets) => {
        const step = (n: number): number | undefined => targets[n];
        const ends = new AliasEnds(step);
        for (let n = 0; n < 8; n++) {
          const end = walkAliases(n, step).end;
          expect(ends.endOf(n)).toBe(end);
          const following = step(n);
          if (following !== undefined) expect(walkAliases(following, step).end).toBe(end);
        }
      }),
    );
  });
});

describe('aliases a → b → c → b: every walker names the same resource', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-alias-walk-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const H = 'http://h';

  /** p links nowhere yet; a, b, c are seen in that order (ids 2, 3, 4: id order is key order). */
  async function aliased(store: IndexWriter): Promise<Record<'p' | 'a' | 'b' | 'c', number>> {
    const ids = (await store.admit(['p', 'a', 'b', 'c'].map((name) => ({ rawHref: `${H}/${name}`, target: `${H}/${name}` })))).map((r) => r.urlId!);
    const [p, a, b, c] = ids as [number, number, number, number];
    await store.addAlias({ fromId: a, toId: b, evidence: 'redirect', detail: '301' });
    await store.addAlias({ fromId: b, toId: c, evidence: 'redirect', detail: '301' });
    await store.addAlias({ fromId: c, toId: b, evidence: 'content-location', detail: 'b' });
    return { p, a, b, c };
  }

  it('admission (SQLite and memory), the alias map, the reader, the graph, the audit and explain', async () => {
    const file = path.join(dir, 'cycle.db');
    const store = new SqliteStore({ path: file });
    const { p, b } = await aliased(store);
    const memory = new MemoryStore();
    await aliased(memory);
    const links = ['a', 'b', 'c'].map((name) => ({ fromUrlId: p, rawHref: name, target: `${H}/${name}` }));
    // Admission: a link to any of them names b.
    expect((await store.admit(links)).map((r) => r.urlId)).toEqual([b, b, b]);
    expect((await memory.admit(links)).map((r) => r.urlId)).toEqual([b, b, b]);
    // The alias map over keys.
    const map = new AliasMap();
    map.add({ from: `${H}/a`, to: `${H}/b`, evidence: 'redirect' });
    map.add({ from: `${H}/b`, to: `${H}/c`, evidence: 'redirect' });
    map.add({ from: `${H}/c`, to: `${H}/b`, evidence: 'content-location' });
    for (const name of ['a', 'b', 'c']) expect(map.resolve(`${H}/${name}`).key).toBe(`${H}/b`);
    // The audit: links whose two base modes name a, b or c name one resource, so no finding.
    await store.admit(
      ['a', 'b', 'c'].map((name, i) => ({ fromUrlId: p, rawHref: `m${i}`, target: `${H}/${name}`, alternateTarget: `${H}/${['b', 'c', 'a'][i]}` })),
    );
    await store.admit([{ fromUrlId: p, rawHref: 'other', target: `${H}/a`, alternateTarget: `${H}/p` }]);
    // explain: the chain stops at the URL that stands for it.
    for (const name of ['a', 'c']) expect((await explain(store, `${H}/${name}`)).resource?.key).toBe(`${H}/b`);
    expect((await explain(store, `${H}/a`)).aliasChain.map((u) => u.key)).toEqual([`${H}/a`, `${H}/b`]);
    await store.close();

    const reader = openIndexReader(file);
    try {
      // The graph: a and c merge into b, and every link from p goes to b.
      const graph = readGraph(reader, { collapseAliases: true });
      expect((await collect(graph.nodes())).map((n) => n.id)).toEqual([p, b]);
      expect((await collect(graph.edges())).map((e) => [e.from, e.to, e.count])).toEqual([[p, b, 7]]);
      const differ = (await collect(audit(reader))).filter((f) => f.code === 'LINK_BASE_MODES_DIFFER');
      expect(differ.map((f) => f.rawHref)).toEqual(['other']);
    } finally {
      await reader.close();
    }
  });
});
