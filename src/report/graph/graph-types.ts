// The link graph as the exporters see it: canonical URLs as nodes, counted links as edges.

import type { UrlState } from '../../store/index.js';

export const GRAPH_FORMATS = ['csv', 'json', 'ndjson', 'dot', 'graphml'] as const;

export type GraphFormat = (typeof GRAPH_FORMATS)[number];

/**
 * A spelling of a node's URL other than its key, and the rung that folds it into the
 * node: `string` and `syntax` as the index recorded it; `protocol` for the key (and
 * spellings) of an alias merged into its target by `collapseAliases`.
 */
export interface GraphForm {
  readonly text: string;
  readonly rung: 'string' | 'syntax' | 'protocol';
}

/** A canonical URL of the index. */
export interface GraphNode {
  readonly id: number;
  readonly key: string;
  readonly state: UrlState;
  readonly depth: number;
  /** The node this one is an alias of (none once aliases are collapsed). */
  readonly aliasOf: number | undefined;
  readonly forms: readonly GraphForm[];
}

/** The links from one page to one target with one element/attribute. */
export interface GraphEdge {
  readonly from: number;
  readonly to: number;
  readonly element: string | undefined;
  readonly attribute: string | undefined;
  readonly count: number;
}

/**
 * The graph, read on demand: each call starts a new pass, nodes in id order, then
 * edges. Nothing is held whole in memory.
 */
export interface GraphSource {
  nodes(): AsyncIterable<GraphNode>;
  edges(): AsyncIterable<GraphEdge>;
}
