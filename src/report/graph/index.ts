// The link graph of a crawl and its export formats.

export { GRAPH_FORMATS, type GraphEdge, type GraphForm, type GraphFormat, type GraphNode, type GraphSource } from './graph-types.js';
export { readGraph, type ReadGraphOptions } from './read-graph.js';
export { exportGraph, GRAPH_WRITERS, type ExportGraphOptions } from './export-graph.js';
export type { GraphWriter } from './graph-writer.js';
export { StreamWriter, DEFAULT_CHUNK_SIZE } from './stream-writer.js';
export { csvField } from './write-csv.js';
export { dotId } from './write-dot.js';
export { xmlEscape } from './xml-escape.js';
