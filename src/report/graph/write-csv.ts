// The graph as one CSV table (RFC 4180): a `node` row per URL, then an `edge` row per
// counted link; each row fills the columns of its type and leaves the others empty.

import type { GraphEdge, GraphNode } from './graph-types.js';
import { formsText, type GraphWriter } from './graph-writer.js';

export const CSV_COLUMNS = ['type', 'id', 'key', 'state', 'status', 'role', 'depth', 'alias_of', 'forms', 'source', 'target', 'element', 'attribute', 'count'] as const;

// RFC 4180 §2: records end with CRLF.
const CRLF = '\r\n';

export const writeCsv: GraphWriter = async (graph, out) => {
  await out.write(csvRecord(CSV_COLUMNS));
  for await (const node of graph.nodes()) await out.write(csvRecord(nodeFields(node)));
  for await (const edge of graph.edges()) await out.write(csvRecord(edgeFields(edge)));
};

function nodeFields(node: GraphNode): (string | number | undefined)[] {
  return ['node', node.id, node.key, node.state, node.status, node.role, node.depth, node.aliasOf, formsText(node.forms)];
}

function edgeFields(edge: GraphEdge): (string | number | undefined)[] {
  return ['edge', undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, edge.from, edge.to, edge.element, edge.attribute, edge.count];
}

/** One record, padded with empty fields to the width of the header. */
export function csvRecord(fields: readonly (string | number | undefined)[]): string {
  const padded = Array.from({ length: CSV_COLUMNS.length }, (_, index) => fields[index]);
  return padded.map((field) => csvField(field === undefined ? '' : String(field))).join(',') + CRLF;
}

/** RFC 4180 §2.6–2.7: a field with a comma, a double quote, CR or LF is quoted, its quotes doubled. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
