// RFC 3986 §6.2 The Comparison Ladder: the rungs, cheapest first.

/**
 * - `string`: §6.2.1 simple string comparison — the URI as it is.
 * - `syntax`: §6.2.2 case, percent-encoding and dot-segment normalization.
 * - `scheme`: §6.2.3 per-scheme rules from the scheme registry.
 * - `protocol`: §6.2.4 what the server proved (redirects, Content-Location), from an alias map.
 */
export const RUNGS = ['string', 'syntax', 'scheme', 'protocol'] as const;

export type Rung = (typeof RUNGS)[number];

/** The rungs that need nothing but the URI itself. */
export type SyntacticRung = Exclude<Rung, 'protocol'>;

export function isRung(value: unknown): value is Rung {
  return typeof value === 'string' && (RUNGS as readonly string[]).includes(value);
}

/** Position of a rung on the ladder (string = 0). */
export function rungLevel(rung: Rung): number {
  return RUNGS.indexOf(rung);
}
