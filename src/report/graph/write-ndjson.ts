// The graph as newline-delimited JSON: one object a line, `"type":"node"` first, then `"type":"edge"`.

import type { GraphWriter } from './graph-writer.js';
import { edgeJson, nodeJson } from './write-json.js';

export const writeNdjson: GraphWriter = async (graph, out) => {
  for await (const node of graph.nodes()) await out.write(`${JSON.stringify({ type: 'node', ...nodeJson(node) })}\n`);
  for await (const edge of graph.edges()) await out.write(`${JSON.stringify({ type: 'edge', ...edgeJson(edge) })}\n`);
};
