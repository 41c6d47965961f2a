// The edges of a reader with each alias merged into the URL its chain ends at, as the
// graph report computes them (readGraph with collapseAliases), in the order the
// reader gives edges: page, target, element, attribute (absent first).

import { readGraph } from '../../src/report/index.js';
import type { EdgeRow, IndexReader } from '../../src/store/index.js';
import { collect } from '../support/collect.js';

const byName = (a: string | undefined, b: string | undefined): number => (a === b ? 0 : a === undefined ? -1 : b === undefined ? 1 : a < b ? -1 : 1);

export async function collapsedEdges(reader: IndexReader): Promise<EdgeRow[]> {
  const edges = await collect(readGraph(reader, { collapseAliases: true }).edges());
  return edges
    .map((e): EdgeRow => ({ fromUrlId: e.from, toUrlId: e.to, element: e.element, attribute: e.attribute, count: e.count }))
    .sort((a, b) => a.fromUrlId - b.fromUrlId || a.toUrlId - b.toUrlId || byName(a.element, b.element) || byName(a.attribute, b.attribute));
}
