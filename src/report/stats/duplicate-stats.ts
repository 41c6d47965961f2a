// The `duplicates` line of `stats` (content evidence: beyond RFC 3986,
// heuristic): groups of byte-identical representations the ladder did not join, the
// URLs in them, and the prefix pairs they differ in, the most frequent first.

import type { IndexReader } from '../../store/index.js';
import { differenceFromFirst, duplicateGroups } from '../duplicate-groups.js';

/** Prefix pairs kept, the most frequent first. */
export const DUPLICATE_PAIRS_KEPT = 10;

/** Two prefixes that duplicates differ in: the duplicate's `from`, its group's first URL's `to`. */
export interface PrefixPair {
  readonly from: string;
  readonly to: string;
  /** Duplicate URLs (all but each group's first) that differ from their group's first so. */
  readonly count: number;
}

export interface DuplicateStats {
  /** Groups of two URLs or more with one body. */
  readonly groups: number;
  /** The URLs in them. */
  readonly urls: number;
  /** Of those, joined by content evidence (`--content-evidence`, heuristic) to another URL of their group. */
  readonly joinedByContent: number;
  /** The most frequent prefix pairs (up to `DUPLICATE_PAIRS_KEPT`), by count then text. */
  readonly prefixPairs: readonly PrefixPair[];
}

export async function collectDuplicateStats(reader: IndexReader): Promise<DuplicateStats> {
  let groups = 0;
  let urls = 0;
  let joinedByContent = 0;
  const pairs = new Map<string, PrefixPair & { count: number }>();
  for await (const group of duplicateGroups(reader)) {
    groups++;
    urls += group.length;
    const [first, ...rest] = group;
    for (const row of group) if (row.contentEvidence !== undefined) joinedByContent++;
    for (const row of rest) {
      const { from, to } = differenceFromFirst(row, first!);
      // NUL is in no URL key.
      const key = `${from}\0${to}`;
      const pair = pairs.get(key);
      if (pair === undefined) pairs.set(key, { from, to, count: 1 });
      else pair.count++;
    }
  }
  const prefixPairs = [...pairs.values()]
    .sort((a, b) => b.count - a.count || compareText(a.from, b.from) || compareText(a.to, b.to))
    .slice(0, DUPLICATE_PAIRS_KEPT)
    .map(({ from, to, count }) => ({ from, to, count }));
  return { groups, urls, joinedByContent, prefixPairs };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
