// The graph as one JSON document, {"nodes":[…],"edges":[…]}, written one element a line.

import type { GraphEdge, GraphNode } from './graph-types.js';
import type { GraphWriter } from './graph-writer.js';

export const writeJson: GraphWriter = async (graph, out) => {
  await out.write('{"nodes":[');
  let separator = '\n';
  for await (const node of graph.nodes()) {
    await out.write(separator + JSON.stringify(nodeJson(node)));
    separator = ',\n';
  }
  await out.write('\n],"edges":[');
  separator = '\n';
  for await (const edge of graph.edges()) {
    await out.write(separator + JSON.stringify(edgeJson(edge)));
    separator = ',\n';
  }
  await out.write('\n]}\n');
};

/** A node as JSON: absent values are `null`, never left out. */
export function nodeJson(node: GraphNode): Record<string, unknown> {
  return { id: node.id, key: node.key, state: node.state, status: node.status ?? null, role: node.role, depth: node.depth, aliasOf: node.aliasOf ?? null, forms: node.forms };
}

export function edgeJson(edge: GraphEdge): Record<string, unknown> {
  return { from: edge.from, to: edge.to, element: edge.element ?? null, attribute: edge.attribute ?? null, count: edge.count };
}
