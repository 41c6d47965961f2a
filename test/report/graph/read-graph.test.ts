import { describe, expect, it } from 'vitest';
import { readGraph, type GraphEdge } from '../../../src/report/index.js';
import type { FormRow, IndexReader } from '../../../src/store/index.js';
import { collect } from '../../support/collect.js';
import { countingReader } from '../support/counting-reader.js';
import { readerOf } from '../support/memory-index.js';
import { HOSTILE_LINKS, SAMPLE_KEYS, sampleReader } from './sample-graph.js';

const edgeList = async (edges: AsyncIterable<GraphEdge>): Promise<string[]> =>
  (await collect(edges)).map((edge) => `${edge.from}->${edge.to} ${edge.element ?? '-'} ${edge.attribute ?? '-'} ${edge.count}`);

const HOSTILE_7 = `${HOSTILE_LINKS[7].element} ${HOSTILE_LINKS[7].attribute}`;
const HOSTILE_8 = `${HOSTILE_LINKS[8].element} ${HOSTILE_LINKS[8].attribute}`;

describe('readGraph', () => {
  it('gives every URL as a node with its spellings and state, in id order, and the edges as the index counts them', async () => {
    const graph = readGraph(await sampleReader());
    const nodes = await collect(graph.nodes());
    expect(nodes.map((node) => node.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(nodes[0]).toEqual({
      id: 1,
      key: SAMPLE_KEYS[1],
      state: 'done',
      status: 200,
      role: 'page',
      depth: 0,
      aliasOf: undefined,
      forms: [
        { text: 'HTTP://h/', rung: 'string' },
        { text: 'http://h:80/', rung: 'string' },
      ],
    });
    expect(nodes[2]).toMatchObject({ id: 3, state: 'alias', aliasOf: 4, forms: [{ text: 'http://h/%6Fld', rung: 'string' }] });
    expect(nodes[1]?.forms).toEqual([]);
    // The status of its last answer and its role: a 404 resource is no 200 page.
    expect(nodes.map((node) => [node.id, node.status, node.role])).toEqual([[1, 200, 'page'], [2, 200, 'page'], [3, 301, 'page'], [4, 200, 'page'], [5, undefined, 'external'], [6, 500, 'page'], [7, 404, 'resource'], [8, undefined, 'page']]);
    expect(await edgeList(graph.edges())).toEqual([
      '1->2 a href 2',
      '1->4 a href 1',
      '1->5 img src 1',
      '1->6 link href 1',
      `1->7 ${HOSTILE_7} 1`,
      `1->8 ${HOSTILE_8} 1`,
      '2->1 - - 1',
      '3->4 a href 1',
      '3->5 a href 2',
      '4->5 a href 1',
    ]);
  });

  it('each pass walks the reader anew (a graph can be written twice)', async () => {
    const reader = countingReader(await sampleReader());
    const graph = readGraph(reader);
    expect(await collect(graph.nodes())).toEqual(await collect(graph.nodes()));
    expect(reader.passes).toMatchObject({ urls: 2, forms: 2 });
  });

  it('collapseAliases: the alias node goes, its key and spellings become forms of its target, its edges move there and add up', async () => {
    const graph = readGraph(await sampleReader(), { collapseAliases: true });
    const nodes = await collect(graph.nodes());
    expect(nodes.map((node) => node.id)).toEqual([1, 2, 4, 5, 6, 7, 8]);
    expect(nodes.find((node) => node.id === 4)?.forms).toEqual([
      { text: 'http://h/old', rung: 'protocol' },
      { text: 'http://h/%6Fld', rung: 'protocol' },
    ]);
    const edges = await collect(graph.edges());
    expect(await edgeList(toAsync(edges))).toEqual([
      '1->2 a href 2',
      '1->4 a href 1',
      '1->5 img src 1',
      '1->6 link href 1',
      `1->7 ${HOSTILE_7} 1`,
      `1->8 ${HOSTILE_8} 1`,
      '2->1 - - 1',
      '4->5 a href 3',
      '4->4 a href 1',
    ]);
    const total = (list: readonly GraphEdge[]): number => list.reduce((sum, edge) => sum + edge.count, 0);
    expect(total(edges)).toBe(total(await collect(readGraph(await sampleReader()).edges())));
  });

  it('collapseAliases follows a chain of aliases to its end, and stops where a cycle closes', async () => {
    const reader = await readerOf({
      urls: [
        { id: 1, key: 'http://h/a', aliasOf: 2 },
        { id: 2, key: 'http://h/b', aliasOf: 3 },
        { id: 3, key: 'http://h/c' },
        { id: 4, key: 'http://h/x', aliasOf: 5 },
        { id: 5, key: 'http://h/y', aliasOf: 4 },
        { id: 6, key: 'http://h/p' },
      ],
      links: [1, 2, 3, 5].map((to) => ({ from: 6, rawHref: String(to), to })),
    });
    const graph = readGraph(reader, { collapseAliases: true });
    expect((await collect(graph.nodes())).map((node) => [node.id, node.aliasOf, node.forms.map((form) => form.text)])).toEqual([
      [3, undefined, ['http://h/a', 'http://h/b']],
      [4, undefined, ['http://h/y']],
      [6, undefined, []],
    ]);
    // The cycle 4 ⇄ 5 has no URL that stands for itself: its smallest id stands for it.
    expect(await edgeList(graph.edges())).toEqual(['6->3 a href 3', '6->4 a href 1']);
  });

  it('refuses forms that are not in URL id order (the merge join needs it)', async () => {
    const real = await readerOf({ urls: [{ id: 1, key: 'http://h/1' }, { id: 2, key: 'http://h/2' }] });
    // A reader that breaks the contract: the store's URLs, with forms out of order.
    const reader: IndexReader = {
      stats: () => real.stats(),
      funnel: () => real.funnel(),
      url: (id) => real.url(id),
      errorsByCode: () => real.errorsByCode(),
      runs: () => real.runs(),
      close: () => real.close(),
      urls: () => real.urls(),
      links: () => real.links(),
      edges: () => real.edges(),
      fetches: () => real.fetches(),
      aliases: () => real.aliases(),
      duplicateBodies: () => real.duplicateBodies(),
      forms: () => toAsync<FormRow>([{ urlId: 2, text: 'HTTP://h/2', rung: 'string' }, { urlId: 1, text: 'HTTP://h/1', rung: 'string' }]),
    };
    await expect(collect(readGraph(reader).nodes())).rejects.toThrow(/URL id order/);
  });
});

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
