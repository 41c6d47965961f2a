// The link graph of an index, streamed from its reader: URLs joined with their
// spellings, and (optionally) aliases merged into the URLs they stand for.

import { AliasEnds } from '../../ladder/index.js';
import type { FetchRow, FormRow, IndexReader, UrlRow } from '../../store/index.js';
import { redactPassword } from '../redact.js';
import type { GraphEdge, GraphForm, GraphNode, GraphSource } from './graph-types.js';

export interface ReadGraphOptions {
  /**
   * Merge each alias (the protocol rung, RFC 3986 §6.2.4) into the URL it stands for: the
   * alias node is dropped, its key and spellings become forms of its target, its
   * edges are re-pointed and edges that then coincide have their counts summed.
   * @default false
   */
  readonly collapseAliases?: boolean;
}

/** The graph of `reader`, each pass a fresh walk over its cursors. */
export function readGraph(reader: IndexReader, options: ReadGraphOptions = {}): GraphSource {
  if (options.collapseAliases !== true) {
    return {
      nodes: () => nodesWithForms(reader),
      edges: () => edgesOf(reader),
    };
  }
  // Aliases are few next to URLs: what the merge needs of them is held in memory.
  let aliases: Promise<AliasIndex> | undefined;
  const aliasIndex = (): Promise<AliasIndex> => (aliases ??= indexAliases(reader));
  return {
    nodes: () => collapsedNodes(reader, aliasIndex),
    edges: () => collapsedEdges(reader, aliasIndex),
  };
}

async function* nodesWithForms(reader: IndexReader): AsyncGenerator<GraphNode> {
  const forms = new FormCursor(reader.forms());
  try {
    for await (const url of reader.urls()) yield toNode(url, await forms.takeFor(url.id));
  } finally {
    await forms.close();
  }
}

async function* edgesOf(reader: IndexReader): AsyncGenerator<GraphEdge> {
  for await (const edge of reader.edges()) yield toEdge(edge.fromUrlId, edge.toUrlId, edge);
}

function toNode(url: UrlRow, forms: readonly GraphForm[]): GraphNode {
  // Keys keep userinfo as written (it is part of the key), but no report prints a password.
  return { id: url.id, key: redactPassword(url.key), state: url.state, status: ownStatus(url.lastFetch), role: url.role, depth: url.depth, aliasOf: url.aliasOf, forms };
}

/** The status the URL itself answered with on its last fetch: a redirect's 3xx, not its target's. */
function ownStatus(fetch: FetchRow | undefined): number | undefined {
  return fetch?.redirects[0]?.status ?? fetch?.status;
}

function toEdge(from: number, to: number, edge: Pick<GraphEdge, 'element' | 'attribute' | 'count'>): GraphEdge {
  return { from, to, element: edge.element, attribute: edge.attribute, count: edge.count };
}

/**
 * Walks the forms alongside the URLs, both in URL id order (a merge join, so no
 * URL's forms are held longer than its own row).
 */
export class FormCursor {
  readonly #rows: AsyncIterator<FormRow>;
  #next: FormRow | undefined;
  #isStarted = false;
  #lastUrlId = -Infinity;

  constructor(rows: AsyncIterable<FormRow>) {
    this.#rows = rows[Symbol.asyncIterator]();
  }

  /** The forms of URL `urlId`, skipping those of URLs before it. */
  async takeFor(urlId: number): Promise<GraphForm[]> {
    if (!this.#isStarted) {
      this.#isStarted = true;
      await this.#advance();
    }
    const forms: GraphForm[] = [];
    while (this.#next !== undefined && this.#next.urlId <= urlId) {
      if (this.#next.urlId === urlId) forms.push({ text: redactPassword(this.#next.text), rung: this.#next.rung });
      await this.#advance();
    }
    return forms;
  }

  /** Close the forms' cursor, when the URLs end early. */
  async close(): Promise<void> {
    this.#next = undefined;
    if (this.#isStarted) await this.#rows.return?.();
  }

  async #advance(): Promise<void> {
    const step = await this.#rows.next();
    this.#next = step.done === true ? undefined : step.value;
    if (this.#next === undefined) return;
    if (this.#next.urlId < this.#lastUrlId) {
      throw new Error(`IndexReader.forms() must be in URL id order: ${this.#next.urlId} came after ${this.#lastUrlId}`);
    }
    this.#lastUrlId = this.#next.urlId;
  }
}

/** What merging the aliases needs: where each alias ends, and the forms it brings there. */
interface AliasIndex {
  /** Alias id → the id of the URL at the end of its chain. */
  readonly targetOf: ReadonlyMap<number, number>;
  /** Target id → the alias keys and spellings merged into it, in alias id order. */
  readonly formsOf: ReadonlyMap<number, readonly GraphForm[]>;
}

async function indexAliases(reader: IndexReader): Promise<AliasIndex> {
  const directTarget = new Map<number, number>();
  const aliasForms = new Map<number, GraphForm[]>();
  for await (const node of nodesWithForms(reader)) {
    if (node.state !== 'alias' || node.aliasOf === undefined) continue;
    directTarget.set(node.id, node.aliasOf);
    aliasForms.set(node.id, [{ text: node.key, rung: 'protocol' }, ...node.forms.map((form) => ({ text: form.text, rung: 'protocol' as const }))]);
  }
  const targetOf = new Map<number, number>();
  const formsOf = new Map<number, GraphForm[]>();
  // RFC 3986 §6.2.4: where each chain ends, a cycle at its least id (the one rule of walkAliases).
  const ends = new AliasEnds<number>((id) => directTarget.get(id));
  for (const [aliasId, forms] of aliasForms) {
    const target = ends.endOf(aliasId);
    if (target === aliasId) continue;
    targetOf.set(aliasId, target);
    const merged = formsOf.get(target) ?? [];
    merged.push(...forms);
    formsOf.set(target, merged);
  }
  return { targetOf, formsOf };
}

async function* collapsedNodes(reader: IndexReader, aliasIndex: () => Promise<AliasIndex>): AsyncGenerator<GraphNode> {
  const aliases = await aliasIndex();
  for await (const node of nodesWithForms(reader)) {
    if (aliases.targetOf.has(node.id)) continue;
    const merged = aliases.formsOf.get(node.id) ?? [];
    yield { ...node, aliasOf: undefined, forms: [...node.forms, ...merged] };
  }
}

/**
 * Edges with both ends after aliases. Two passes over the edges keep memory to the
 * edges that touch an alias: the first sums those by their re-pointed ends, the
 * second streams the rest, adding in any summed edge that coincides with one.
 */
async function* collapsedEdges(reader: IndexReader, aliasIndex: () => Promise<AliasIndex>): AsyncGenerator<GraphEdge> {
  const aliases = await aliasIndex();
  const canonical = (id: number): number => aliases.targetOf.get(id) ?? id;
  const touchesAlias = (edge: GraphEdge): boolean => aliases.targetOf.has(edge.from) || aliases.targetOf.has(edge.to);
  const repointed = new Map<string, GraphEdge>();
  for await (const edge of edgesOf(reader)) {
    if (!touchesAlias(edge)) continue;
    const moved = toEdge(canonical(edge.from), canonical(edge.to), edge);
    const key = edgeKey(moved);
    const earlier = repointed.get(key);
    repointed.set(key, earlier === undefined ? moved : { ...earlier, count: earlier.count + moved.count });
  }
  for await (const edge of edgesOf(reader)) {
    if (touchesAlias(edge)) continue;
    const key = edgeKey(edge);
    const extra = repointed.get(key);
    if (extra === undefined) {
      yield edge;
    } else {
      repointed.delete(key);
      yield { ...edge, count: edge.count + extra.count };
    }
  }
  yield* repointed.values();
}

function edgeKey(edge: GraphEdge): string {
  return JSON.stringify([edge.from, edge.to, edge.element ?? null, edge.attribute ?? null]);
}
