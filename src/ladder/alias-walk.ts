// RFC 3986 §6.2.4 Protocol-Based Normalization: walking alias chains. The one
// walker of the project: the alias map, the admitter, the index reader, the graph,
// the audit and explain all follow aliases through it, so they agree on which
// resource a URL names.
// https://www.rfc-editor.org/rfc/rfc3986#section-6.2.4

/** What a chain is made of: URL ids (the index) or keys (the alias map). */
export type AliasNode = number | string;

export interface AliasWalk<T extends AliasNode> {
  /** The node that stands for the start: see `walkAliases` for the rule. */
  readonly end: T;
  /** The nodes visited, the start first, each once, in chain order. */
  readonly path: readonly T[];
  /**
   * Whether the chain ran into a cycle; then `end` is the least member of that cycle.
   * A walk cut short by `known` says `false`.
   */
  readonly isCycle: boolean;
}

/**
 * Follow `next` from `start` to the node that stands for it (RFC 3986 §6.2.4).
 *
 * An alias edge `x → y` is the server's word that `x` and `y` are one resource, so
 * a chain names the resource of its last node. A chain that runs into a cycle
 * (`a → b → c → b`) has no last node: every member of the cycle, and every node
 * that leads into it, is one resource. The one cycle rule: **that resource is named
 * by the least member of the cycle** (`<` on ids, which the index hands out in the
 * order URLs are first seen; code-unit order on keys). It depends on the cycle
 * alone, never on where the walk entered it, so every URL of the class names the
 * same resource: for `a → b → c → b`, a link to `a`, `b` or `c` names `b`. (The
 * least node of the whole path would name `a` from `a` but `b` from `b`; the last
 * node before the repeat would name `c` from `a` but `b` from `c`.)
 *
 * `known`, when given, says the end of a node already walked: the walk stops there
 * with that end (the rule makes it the same one), which keeps memoized walks linear.
 */
export function walkAliases<T extends AliasNode>(
  start: T,
  next: (node: T) => T | undefined,
  known?: (node: T) => T | undefined,
): AliasWalk<T> {
  const path: T[] = [];
  const position = new Map<T, number>();
  for (let current: T | undefined = start; ; ) {
    const end = path.length === 0 ? undefined : known?.(current);
    if (end !== undefined) return { end, path, isCycle: false };
    const seenAt = position.get(current);
    if (seenAt !== undefined) {
      let least = path[seenAt]!;
      for (let i = seenAt + 1; i < path.length; i++) if (path[i]! < least) least = path[i]!;
      return { end: least, path, isCycle: true };
    }
    position.set(current, path.length);
    path.push(current);
    const following: T | undefined = next(current);
    if (following === undefined) return { end: current, path, isCycle: false };
    current = following;
  }
}

/** `walkAliases` with every end remembered: each node is walked once however many ask. */
export class AliasEnds<T extends AliasNode> {
  readonly #next: (node: T) => T | undefined;
  readonly #ends = new Map<T, T>();

  constructor(next: (node: T) => T | undefined) {
    this.#next = next;
  }

  endOf(node: T): T {
    const known = this.#ends.get(node);
    if (known !== undefined) return known;
    const walk = walkAliases(node, this.#next, (n) => this.#ends.get(n));
    for (const member of walk.path) this.#ends.set(member, walk.end);
    return walk.end;
  }
}
