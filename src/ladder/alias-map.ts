// RFC 3986 §6.2.4 Protocol-Based Normalization, its pure part: equivalences that
// only a server can prove, kept as directed edges `from → to` with their evidence.
// Learning them belongs to the crawler; this map only stores and follows them.

import { walkAliases } from './alias-walk.js';

/**
 * What proved an alias. `redirect`, `content-location` and `canonical` are what a
 * server says (RFC 3986 §6.2.4); `digest` and `rule` are content evidence, beyond
 * RFC 3986 and heuristic (only with `--content-evidence`): a body byte-identical to
 * a fetched page's, and a learned rewrite rule's prediction.
 */
export type AliasEvidence = 'redirect' | 'content-location' | 'canonical' | 'digest' | 'rule';

/**
 * What each kind of evidence is worth, the one table every layer asks:
 * - `protocol`: a server proves two URLs one resource (RFC 3986 §6.2.4: a redirect,
 *   a Content-Location); it makes an alias.
 * - `content`: content evidence (heuristic); it makes an alias too, and its URLs are
 *   still reported as duplicates.
 * - `claim`: what a page claims of itself (rel=canonical): recorded, never obeyed, no alias.
 */
export const EVIDENCE_WEIGHT: Readonly<Record<AliasEvidence, 'protocol' | 'content' | 'claim'>> = Object.freeze({
  redirect: 'protocol',
  'content-location': 'protocol',
  canonical: 'claim',
  digest: 'content',
  rule: 'content',
});

export const ALIAS_EVIDENCE: readonly AliasEvidence[] = ['redirect', 'content-location', 'canonical', 'digest', 'rule'];

/**
 * Whether evidence of this kind makes its `from` URL an alias (state `alias`, links
 * to it naming `to`, never fetched again): a server's proof and content evidence do,
 * a canonical claim does not.
 */
export function isAliasMaking(evidence: AliasEvidence): boolean {
  return EVIDENCE_WEIGHT[evidence] !== 'claim';
}

/** The kinds of evidence that make an alias (`isAliasMaking`), in the order of `ALIAS_EVIDENCE`. */
export const ALIAS_MAKING_EVIDENCE: readonly AliasEvidence[] = Object.freeze(ALIAS_EVIDENCE.filter(isAliasMaking));

/** The kinds of evidence that are content evidence (heuristic), not a server's word. */
export const CONTENT_EVIDENCE: ReadonlySet<AliasEvidence> = new Set(ALIAS_EVIDENCE.filter((e) => EVIDENCE_WEIGHT[e] === 'content'));

/**
 * The evidence by which a server proves two URLs one resource (RFC 3986 §6.2.4): a
 * redirect, a Content-Location. A canonical link is only a claim; `digest` and `rule`
 * are content evidence (heuristic).
 */
export const RESOURCE_EVIDENCE: ReadonlySet<AliasEvidence> = new Set(ALIAS_EVIDENCE.filter((e) => EVIDENCE_WEIGHT[e] === 'protocol'));

/**
 * Counts by evidence, split three ways to be shown apart, so that every report gives
 * "alias" one meaning — a URL that stands for another, which links to it name and no
 * request fetches: `protocol`, what a server proved (RFC 3986 §6.2.4: redirect,
 * Content-Location); `content`, content evidence (heuristic); `claimed`, what a page
 * claims of itself (rel=canonical), recorded and never obeyed: no alias.
 */
export function splitByEvidence(counts: Readonly<Record<AliasEvidence, number>>): {
  readonly protocol: Partial<Record<AliasEvidence, number>>;
  readonly content: Partial<Record<AliasEvidence, number>>;
  readonly claimed: Partial<Record<AliasEvidence, number>>;
} {
  const protocol: Partial<Record<AliasEvidence, number>> = {};
  const content: Partial<Record<AliasEvidence, number>> = {};
  const claimed: Partial<Record<AliasEvidence, number>> = {};
  const byWeight = { protocol, content, claim: claimed };
  for (const evidence of ALIAS_EVIDENCE) byWeight[EVIDENCE_WEIGHT[evidence]][evidence] = counts[evidence];
  return { protocol, content, claimed };
}

export interface AliasEdge {
  readonly from: string;
  readonly to: string;
  readonly evidence: AliasEvidence;
  /** Free text for the audit: the status code, the header value, the page. */
  readonly detail?: string;
}

export interface AliasResolution {
  /** Where the chain ends: the canonical key. */
  readonly key: string;
  /** The edges followed, in order (empty when `key` has no alias). */
  readonly chain: readonly AliasEdge[];
  /** Whether the chain ran into a cycle; then `key` is the least key of the cycle (`walkAliases`). */
  readonly isCycle: boolean;
}

export interface AliasMapOptions {
  /**
   * Which kinds of evidence join keys. `canonical` is a claim of the page, not a
   * proof from the protocol, so by default it is recorded but not followed.
   * @default ['redirect', 'content-location']
   */
  readonly follow?: readonly AliasEvidence[];
}

/** Aliases between resource keys (scheme-rung keys without fragment). */
export class AliasMap {
  readonly #edges = new Map<string, AliasEdge>();
  readonly #follow: ReadonlySet<AliasEvidence>;

  constructor(options?: AliasMapOptions) {
    this.#follow = new Set(options?.follow ?? RESOURCE_EVIDENCE);
  }

  /** Record that `from` is `to`. A later edge from the same key replaces the earlier one. */
  add(edge: AliasEdge): void {
    if (edge.from === edge.to) return;
    this.#edges.set(edge.from, Object.freeze({ ...edge }));
  }

  /** Forget the alias of `from` (contradicting evidence revokes it). */
  delete(from: string): boolean {
    return this.#edges.delete(from);
  }

  get(from: string): AliasEdge | undefined {
    return this.#edges.get(from);
  }

  get size(): number {
    return this.#edges.size;
  }

  edges(): IterableIterator<AliasEdge> {
    return this.#edges.values();
  }

  /**
   * Follow the followed kinds of edges from `key` to the key that stands for it;
   * cycle-safe, with the one cycle rule of `walkAliases` (the least key of the cycle).
   */
  resolve(key: string): AliasResolution {
    const walk = walkAliases(key, (from) => this.#followed(from)?.to);
    // Every node of a cycle has an edge; otherwise the last node has none.
    const from = walk.isCycle ? walk.path : walk.path.slice(0, -1);
    const chain = from.map((node) => this.#followed(node)!);
    return { key: walk.end, chain, isCycle: walk.isCycle };
  }

  #followed(from: string): AliasEdge | undefined {
    const edge = this.#edges.get(from);
    return edge !== undefined && this.#follow.has(edge.evidence) ? edge : undefined;
  }
}
