// DUPLICATE_REPRESENTATION (content evidence: beyond RFC 3986,
// heuristic): URLs whose bodies are byte-identical although the ladder did not join
// them, one finding per URL of a group but its first (by key), which it names as
// its target, with the segment-aligned prefixes the two URLs differ in.

import type { DuplicateBodyRow, IndexReader } from '../../store/index.js';
import { differenceFromFirst, duplicateGroups } from '../duplicate-groups.js';
import { finding, type AuditFinding } from './finding.js';
import { redactPassword } from '../redact.js';

/** One finding per duplicate URL, with the id of the URL it is about. */
export async function* duplicateFindings(reader: IndexReader): AsyncGenerator<{ readonly urlId: number; readonly finding: AuditFinding }> {
  for await (const group of duplicateGroups(reader)) {
    const [first, ...rest] = group;
    for (const row of rest) yield { urlId: row.urlId, finding: duplicateFinding(row, first!, group.length) };
  }
}

/** The finding of `row`, a duplicate of `first` in a group of `size` URLs. */
export function duplicateFinding(row: DuplicateBodyRow, first: DuplicateBodyRow, size: number): AuditFinding {
  const page = redactPassword(row.key);
  const target = redactPassword(first.key);
  const difference = differenceFromFirst(row, first);
  const detail: Record<string, string | number> = {
    from: difference.from,
    to: difference.to,
    suffix: difference.suffix,
    digest: row.digest,
    urls: size,
  };
  if (row.fetchedKey !== row.key) detail['fetched'] = redactPassword(row.fetchedKey);
  if (row.contentEvidence !== undefined) detail['contentEvidence'] = row.contentEvidence;
  const others = size > 2 ? ` (and ${size - 2} other URL${size === 3 ? '' : 's'})` : '';
  const joined =
    row.contentEvidence === undefined
      ? 'not joined by the ladder'
      : `not joined by the ladder; joined by content evidence (${row.contentEvidence}, heuristic)`;
  const message = `the body is byte-identical to that of ${target}${others}, ${joined}: the URLs differ in ${difference.from} ↔ ${difference.to}`;
  return finding('DUPLICATE_REPRESENTATION', page, undefined, target, message, detail);
}
