// Line and column of a UTF-16 index in a text, for reports that place a finding in its
// source (SARIF `region.startLine`/`startColumn`). Built once per text that has links to
// place (the link extractor records offsets, not lines); the crawl builds one per page.
//
// What a line break is follows each format's own input preprocessing:
// - HTML §13.2.3.5 "preprocessing the input stream": CR LF, a lone CR and LF are one line break each;
// - CSS Syntax Level 3 §3.3 "preprocessing the input stream": the same, and FF too.

/** A 1-based line and column. The column counts UTF-16 code units (SARIF `columnKind: "utf16CodeUnits"`). */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

export interface LineIndexOptions {
  /**
   * Whether U+000C FORM FEED ends a line (CSS), as well as CR LF, CR and LF.
   * @default false
   */
  readonly isFormFeedLineBreak?: boolean;
}

const LF = 0x0a;
const CR = 0x0d;
const FF = 0x0c;

/** The line starts of one text, for lookups in O(log lines). */
export class LineIndex {
  /** UTF-16 index of the first code unit of each line; `[0]` is 0. */
  readonly #lineStarts: number[];
  readonly #length: number;

  constructor(text: string, options: LineIndexOptions = {}) {
    this.#lineStarts = lineStartsOf(text, options.isFormFeedLineBreak === true);
    this.#length = text.length;
  }

  /** How many lines the text has (a text with no line break has one). */
  get lineCount(): number {
    return this.#lineStarts.length;
  }

  /**
   * The line and column of `offset`, clamped to `[0, text.length]`. The LF of a CR LF
   * pair belongs to the line the CR ends.
   */
  position(offset: number): SourcePosition {
    const at = Number.isFinite(offset) ? Math.min(Math.max(Math.trunc(offset), 0), this.#length) : 0;
    const starts = this.#lineStarts;
    const line = lastAtOrBefore(starts, at);
    return { line: line + 1, column: at - starts[line]! + 1 };
  }
}

/** The index of the last of `starts` (ascending, `starts[0] <= at`) that is at or before `at`: a binary search. */
export function lastAtOrBefore(starts: readonly number[], at: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}

// UTF-16 index of the first code unit of each line of `text`.
function lineStartsOf(text: string, isFormFeedLineBreak: boolean): number[] {
  const starts = [0];
  if (text.indexOf('\r') === -1 && !(isFormFeedLineBreak && text.indexOf('\f') !== -1)) {
    // Only LF breaks lines here (most texts): each one found by the native search.
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || (c === FF && isFormFeedLineBreak)) starts.push(i + 1);
    else if (c === CR) {
      if (text.charCodeAt(i + 1) === LF) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}
