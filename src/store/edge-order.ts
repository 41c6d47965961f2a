// The order in which a reader yields a page's edges, as SQLite's ORDER BY gives it:
// target, element, attribute; an absent value first (SQL's NULLs first), text in
// BINARY collation, which is the order of UTF-8 bytes. The memory and PostgreSQL
// readers sort their edges in JavaScript and must agree with it.

import type { EdgeRow } from './reader-rows.js';

export function compareEdges(a: EdgeRow, b: EdgeRow): number {
  return a.toUrlId - b.toUrlId || compareOptional(a.element, b.element) || compareOptional(a.attribute, b.attribute);
}

function compareOptional(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  return compareCodePoints(a, b);
}

/** Order of code points, which is the order of UTF-8 bytes (JS `<` compares UTF-16 code units, which differs past U+FFFF). */
function compareCodePoints(a: string, b: string): number {
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(j)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}
