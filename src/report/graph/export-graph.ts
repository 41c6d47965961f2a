// `exportGraph`: the link graph of an index, streamed to a writable in one format.

import type { Writable } from 'node:stream';
import { describeValue, OptionError } from '../../errors.js';
import type { IndexReader } from '../../store/index.js';
import { GRAPH_FORMATS, type GraphFormat } from './graph-types.js';
import type { GraphWriter } from './graph-writer.js';
import { readGraph } from './read-graph.js';
import { StreamWriter } from './stream-writer.js';
import { writeCsv } from './write-csv.js';
import { writeDot } from './write-dot.js';
import { writeGraphml } from './write-graphml.js';
import { writeJson } from './write-json.js';
import { writeNdjson } from './write-ndjson.js';

export const GRAPH_WRITERS: Readonly<Record<GraphFormat, GraphWriter>> = {
  csv: writeCsv,
  json: writeJson,
  ndjson: writeNdjson,
  dot: writeDot,
  graphml: writeGraphml,
};

export interface ExportGraphOptions {
  readonly format: GraphFormat;
  /**
   * Merge alias nodes into their targets (edges re-pointed, counts summed).
   * @default false
   */
  readonly collapseAliases?: boolean;
}

/**
 * Write the graph of `reader` to `output` in bounded memory: the reader's cursors are
 * walked as the stream takes the text. `output` is left open.
 */
export async function exportGraph(reader: IndexReader, output: Writable, options: ExportGraphOptions): Promise<void> {
  if (!(GRAPH_FORMATS as readonly unknown[]).includes(options.format)) {
    throw new OptionError(`Expected \`format\` to be one of ${GRAPH_FORMATS.join(', ')}, got ${describeValue(options.format)}`);
  }
  const graph = readGraph(reader, { collapseAliases: options.collapseAliases === true });
  const out = new StreamWriter(output);
  await GRAPH_WRITERS[options.format](graph, out);
  await out.flush();
}
