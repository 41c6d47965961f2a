// RFC 3986 §6.2.4 Protocol-Based Normalization, its pure part: equivalences that
// only a server can prove, kept as directed edges `from → to` with their evidence.
// Learning them belongs to the crawler; this map only stores and follows them.

/** What proved an alias. */
export type AliasEvidence = 'redirect' | 'content-location' | 'canonical';

export const ALIAS_EVIDENCE: readonly AliasEvidence[] = ['redirect', 'content-location', 'canonical'];

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
  /** Whether the chain came back on itself; then `key` is the least key of the cycle. */
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

const DEFAULT_FOLLOW: readonly AliasEvidence[] = ['redirect', 'content-location'];

/** Aliases between resource keys (scheme-rung keys without fragment). */
export class AliasMap {
  readonly #edges = new Map<string, AliasEdge>();
  readonly #follow: ReadonlySet<AliasEvidence>;

  constructor(options?: AliasMapOptions) {
    this.#follow = new Set(options?.follow ?? DEFAULT_FOLLOW);
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

  /** Follow the followed kinds of edges from `key` to the end of the chain; cycle-safe. */
  resolve(key: string): AliasResolution {
    const chain: AliasEdge[] = [];
    const seen = new Set<string>([key]);
    let current = key;
    for (;;) {
      const edge = this.#edges.get(current);
      if (edge === undefined || !this.#follow.has(edge.evidence)) return { key: current, chain, isCycle: false };
      chain.push(edge);
      if (seen.has(edge.to)) {
        // A loop (A → B → A): every member is one resource; name it by its least key.
        const cycleStart = chain.findIndex((e) => e.from === edge.to);
        const members = chain.slice(cycleStart).map((e) => e.from);
        const least = members.reduce((a, b) => (b < a ? b : a));
        return { key: least, chain, isCycle: true };
      }
      seen.add(edge.to);
      current = edge.to;
    }
  }
}
