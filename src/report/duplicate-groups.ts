// The groups of byte-identical representations the ladder did not join (content
// evidence: beyond RFC 3986, heuristic), as the audit, `stats` and the HTML
// report read them: one group at a time, its first URL (by key) first.

import { urlDifference, type UrlDifference } from '../ladder/index.js';
import { digestGroups, type DuplicateBodyRow, type IndexReader } from '../store/index.js';
import { redactPassword } from './redact.js';

/** A group of URLs with one body, as `IndexReader.duplicateBodies` gives it (first URL first). */
export type DuplicateGroup = readonly DuplicateBodyRow[];

/** The groups of `reader`'s duplicate bodies, one at a time. */
export function duplicateGroups(reader: IndexReader): AsyncGenerator<DuplicateGroup> {
  return digestGroups(reader.duplicateBodies());
}

/** How a duplicate's URL differs from its group's first (passwords redacted): `from` is the duplicate's prefix. */
export function differenceFromFirst(row: DuplicateBodyRow, first: DuplicateBodyRow): UrlDifference {
  const page = redactPassword(row.key);
  const target = redactPassword(first.key);
  return urlDifference(page, target) ?? { from: page, to: target, suffix: '' };
}
