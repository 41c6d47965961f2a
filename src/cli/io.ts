// Batch input: one URI-reference per line of stdin.

import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * The lines of `input`, streamed: readline pauses the stream while its queue is
 * full, so memory stays bounded however long the input. It strips the "\r" of
 * CRLF, and a final newline does not yield an extra empty line; an empty line
 * in the middle is yielded as "" (the empty reference, a valid URI-reference).
 * readline also ends a line at a lone "\r", which no valid URI contains.
 */
export function readLines(input: Readable): AsyncIterable<string> {
  // crlfDelay: Infinity, or a CRLF split across two chunks would yield an extra empty line.
  return createInterface({ input, crlfDelay: Infinity, terminal: false });
}
