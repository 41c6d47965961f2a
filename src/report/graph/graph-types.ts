// The link graph as the exporters see it: canonical URLs as nodes, counted links as edges.

import type { UrlRole, UrlState } from '../../store/index.js';

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
  /**
   * The HTTP status it answered with itself, on its last fetch (a 404 is `done`, as a
   * 200 is; a redirect's 3xx, not its target's); none when it was never answered.
   */
  readonly status: number | undefined;
  /** How it relates to the crawl: a page read for links, a resource a page uses, an external link checked. */
  readonly role: UrlRole;
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
