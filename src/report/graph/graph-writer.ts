// What every export format implements.

import type { GraphSource } from './graph-types.js';
import type { StreamWriter } from './stream-writer.js';

/** Writes `graph` to `out` in one format, awaiting each write (backpressure). */
export type GraphWriter = (graph: GraphSource, out: StreamWriter) => Promise<void>;

/** Forms as one text field: their spellings, space-separated (a URI holds no space). */
export function formsText(forms: readonly { readonly text: string }[]): string {
  return forms.map((form) => form.text).join(' ');
}
