import { describe, expect, it } from 'vitest';
import { readGraph, type GraphEdge } from '../../../src/report/index.js';
import { FakeReader, edgeRow, formRow, urlRow } from '../support/fake-reader.js';
import { SAMPLE_KEYS, sampleReader } from './sample-graph.js';

const edgeList = (edges: Iterable<GraphEdge>): string[] =>
  [...edges].map((edge) => `${edge.from}->${edge.to} ${edge.element ?? '-'} ${edge.attribute ?? '-'} ${edge.count}`);

describe('readGraph', () => {
  it('gives every URL as a node with its spellings and state, in id order, and the edges as the index counts them', () => {
    const graph = readGraph(sampleReader());
    const nodes = [...graph.nodes()];
    expect(nodes.map((node) => node.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(nodes[0]).toEqual({
      id: 1,
      key: SAMPLE_KEYS[1],
      state: 'done',
      depth: 0,
      aliasOf: undefined,
      forms: [
        { text: 'HTTP://h/', rung: 'string' },
        { text: 'http://h:80/', rung: 'string' },
      ],
    });
    expect(nodes[2]).toMatchObject({ id: 3, state: 'alias', aliasOf: 4, forms: [{ text: 'http://h/%6Fld', rung: 'syntax' }] });
    expect(nodes[1]?.forms).toEqual([]);
    expect(edgeList(graph.edges())).toEqual([
      '1->2 a href 2',
      '1->4 a href 1',
      '1->5 img src 1',
      '1->6 link href 1',
      '1->7 a href 1',
      '1->8 a href 1',
      '2->1 - - 1',
      '3->4 a href 1',
      '3->5 a href 2',
      '4->5 a href 1',
    ]);
  });

  it('each pass walks the reader anew (a graph can be written twice)', () => {
    const reader = sampleReader();
    const graph = readGraph(reader);
    expect([...graph.nodes()]).toEqual([...graph.nodes()]);
    expect(reader.passes).toMatchObject({ urls: 2, forms: 2 });
  });

  it('collapseAliases: the alias node goes, its key and spellings become forms of its target, its edges move there and add up', () => {
    const graph = readGraph(sampleReader(), { collapseAliases: true });
    const nodes = [...graph.nodes()];
    expect(nodes.map((node) => node.id)).toEqual([1, 2, 4, 5, 6, 7, 8]);
    expect(nodes.find((node) => node.id === 4)?.forms).toEqual([
      { text: 'http://h/old', rung: 'protocol' },
      { text: 'http://h/%6Fld', rung: 'protocol' },
    ]);
    const edges = [...graph.edges()];
    expect(edgeList(edges)).toEqual([
      '1->2 a href 2',
      '1->4 a href 1',
      '1->5 img src 1',
      '1->6 link href 1',
      '1->7 a href 1',
      '1->8 a href 1',
      '2->1 - - 1',
      '4->5 a href 3',
      '4->4 a href 1',
    ]);
    const total = (list: Iterable<GraphEdge>): number => [...list].reduce((sum, edge) => sum + edge.count, 0);
    expect(total(edges)).toBe(total(readGraph(sampleReader()).edges()));
  });

  it('collapseAliases follows a chain of aliases to its end, and stops where a cycle closes', () => {
    const reader = new FakeReader({
      urls: [
        urlRow({ id: 1, key: 'http://h/a', state: 'alias', aliasOf: 2 }),
        urlRow({ id: 2, key: 'http://h/b', state: 'alias', aliasOf: 3 }),
        urlRow({ id: 3, key: 'http://h/c' }),
        urlRow({ id: 4, key: 'http://h/x', state: 'alias', aliasOf: 5 }),
        urlRow({ id: 5, key: 'http://h/y', state: 'alias', aliasOf: 4 }),
        urlRow({ id: 6, key: 'http://h/p' }),
      ],
      edges: [edgeRow({ fromUrlId: 6, toUrlId: 1 }), edgeRow({ fromUrlId: 6, toUrlId: 2 }), edgeRow({ fromUrlId: 6, toUrlId: 3 }), edgeRow({ fromUrlId: 6, toUrlId: 5 })],
    });
    const graph = readGraph(reader, { collapseAliases: true });
    expect([...graph.nodes()].map((node) => [node.id, node.aliasOf, node.forms.map((form) => form.text)])).toEqual([
      [3, undefined, ['http://h/a', 'http://h/b']],
      [4, undefined, ['http://h/y']],
      [6, undefined, []],
    ]);
    // The cycle 4 ⇄ 5 has no URL that stands for itself: its smallest id stands for it.
    expect(edgeList(graph.edges())).toEqual(['6->3 a href 3', '6->4 a href 1']);
  });

  it('refuses forms that are not in URL id order (the merge join needs it)', () => {
    const reader = new FakeReader({
      urls: [urlRow({ id: 1, key: 'http://h/1' }), urlRow({ id: 2, key: 'http://h/2' })],
      forms: [formRow(2, 'HTTP://h/2'), formRow(1, 'HTTP://h/1')],
    });
    expect(() => [...readGraph(reader).nodes()]).toThrow(/URL id order/);
  });
});
