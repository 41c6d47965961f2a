// HTML Living Standard §4.8.4.3 "parse a srcset attribute"
// https://html.spec.whatwg.org/multipage/images.html#parse-a-srcset-attribute
// Transcribed step by step; the step numbers are the spec's. Parse errors are not
// reported: a candidate whose descriptors fail step 13 is dropped, as browsers drop it.

import { isAsciiWhitespace, skipAsciiWhitespace } from '../infra/index.js';

/** One image candidate of a srcset attribute. */
export interface SrcsetCandidate {
  /** The URL as written (after character references were decoded by the HTML parser). */
  readonly url: string;
  /** The descriptors as written (`"100w"`, `"2x"`, `"50h"`), possibly none. */
  readonly descriptors: readonly string[];
  /** UTF-16 index of the URL's first character in the input. */
  readonly offset: number;
}

const COMMA = 0x2c;
const LEFT_PAREN = 0x28;
const RIGHT_PAREN = 0x29;

/** The image candidates of a `srcset` value, in order. Never throws. */
export function parseSrcset(input: string): SrcsetCandidate[] {
  // 1.–3.
  let position = 0;
  const candidates: SrcsetCandidate[] = [];
  const n = input.length;
  for (;;) {
    // 4. Splitting loop: skip ASCII whitespace and commas.
    while (position < n && (isAsciiWhitespace(input.charCodeAt(position)) || input.charCodeAt(position) === COMMA)) {
      position++;
    }
    // 5.
    if (position >= n) return candidates;
    // 6. url = a run of non-whitespace (it may hold commas: "a,b.png" is one URL).
    const urlStart = position;
    while (position < n && !isAsciiWhitespace(input.charCodeAt(position))) position++;
    let url = input.slice(urlStart, position);
    // 7.
    const descriptors: string[] = [];
    // 8. A URL ending in "," ends the candidate; otherwise tokenize the descriptors.
    if (url.charCodeAt(url.length - 1) === COMMA) {
      let end = url.length;
      while (end > 0 && url.charCodeAt(end - 1) === COMMA) end--;
      url = url.slice(0, end);
    } else {
      position = tokenizeDescriptors(input, position, descriptors);
    }
    // 9.–15. Descriptor parser.
    if (hasValidDescriptors(descriptors)) candidates.push({ url, descriptors, offset: urlStart });
    // 16. Back to the splitting loop.
  }
}

type DescriptorState = 'in descriptor' | 'in parens' | 'after descriptor';

// 8.1–8.4 The descriptor tokenizer. Appends to `descriptors`; returns the new position.
function tokenizeDescriptors(input: string, position: number, descriptors: string[]): number {
  // 8.1
  position = skipAsciiWhitespace(input, position);
  // 8.2, 8.3
  let current = '';
  let state: DescriptorState = 'in descriptor';
  // 8.4
  for (;;) {
    const c = input.charCodeAt(position); // NaN is EOF
    const isEof = position >= input.length;
    if (state === 'in descriptor') {
      if (isEof) {
        if (current !== '') descriptors.push(current);
        return position;
      }
      if (isAsciiWhitespace(c)) {
        if (current !== '') descriptors.push(current);
        current = '';
        state = 'after descriptor';
      } else if (c === COMMA) {
        if (current !== '') descriptors.push(current);
        return position + 1;
      } else {
        current += input[position];
        if (c === LEFT_PAREN) state = 'in parens';
      }
    } else if (state === 'in parens') {
      if (isEof) {
        descriptors.push(current);
        return position;
      }
      current += input[position];
      if (c === RIGHT_PAREN) state = 'in descriptor';
    } else {
      if (isEof) return position;
      if (!isAsciiWhitespace(c)) {
        state = 'in descriptor';
        continue; // reconsume: the spec steps back one character, then advances
      }
    }
    position++;
  }
}

const NON_NEGATIVE_INTEGER = /^[0-9]+$/;
// HTML §2.3.4.3 valid floating-point number: "-"? (digits ("." digits)? | "." digits) (e|E (+|-)? digits)?
const FLOATING_POINT_NUMBER = /^-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

// 9.–14. Whether the descriptors make a valid image candidate.
function hasValidDescriptors(descriptors: readonly string[]): boolean {
  // 10.–12.
  let hasWidth = false;
  let hasDensity = false;
  let hasFutureCompatH = false;
  // 13.
  for (const descriptor of descriptors) {
    const value = descriptor.slice(0, -1);
    switch (descriptor[descriptor.length - 1]) {
      case 'w':
        if (hasWidth || hasDensity || !NON_NEGATIVE_INTEGER.test(value) || Number(value) === 0) return false;
        hasWidth = true;
        break;
      case 'x':
        if (hasWidth || hasDensity || hasFutureCompatH || !FLOATING_POINT_NUMBER.test(value) || Number(value) < 0) {
          return false;
        }
        hasDensity = true;
        break;
      case 'h':
        if (hasFutureCompatH || hasDensity || !NON_NEGATIVE_INTEGER.test(value) || Number(value) === 0) return false;
        hasFutureCompatH = true;
        break;
      default:
        return false;
    }
  }
  // 14.
  return !(hasFutureCompatH && !hasWidth);
}
