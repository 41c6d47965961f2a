// src/html/line-index.ts: line and column of an offset, with HTML's and CSS's line breaks.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../src/html/index.js';

describe('LineIndex', () => {
  it('counts LF, CR LF and a lone CR as one line break each (HTML §13.2.3.5)', () => {
    const text = 'ab\ncd\r\nef\rgh';
    const lines = new LineIndex(text);
    expect(lines.lineCount).toBe(4);
    expect(lines.position(0)).toEqual({ line: 1, column: 1 });
    expect(lines.position(2)).toEqual({ line: 1, column: 3 }); // the LF ends line 1
    expect(lines.position(3)).toEqual({ line: 2, column: 1 });
    expect(lines.position(text.indexOf('\r\n') + 1)).toEqual({ line: 2, column: 4 }); // the LF of CR LF belongs to its line
    expect(lines.position(text.indexOf('ef'))).toEqual({ line: 3, column: 1 });
    expect(lines.position(text.indexOf('gh') + 1)).toEqual({ line: 4, column: 2 });
  });

  it('counts FF only when asked (CSS Syntax 3 §3.3)', () => {
    expect(new LineIndex('a\fb').position(2)).toEqual({ line: 1, column: 3 });
    expect(new LineIndex('a\fb', { isFormFeedLineBreak: true }).position(2)).toEqual({ line: 2, column: 1 });
  });

  it('columns count UTF-16 code units; offsets are clamped to the text', () => {
    const lines = new LineIndex('\u{1F600}x\n');
    expect(lines.position(2)).toEqual({ line: 1, column: 3 });
    expect(lines.position(-5)).toEqual({ line: 1, column: 1 });
    expect(lines.position(99)).toEqual({ line: 2, column: 1 });
    expect(lines.position(Number.NaN)).toEqual({ line: 1, column: 1 });
  });

  it('agrees with counting by hand (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'é', '\n', '\r', '\r\n', '\f', ' ')).map((p) => p.join('')), fc.nat(), (text, seed) => {
        const offset = text.length === 0 ? 0 : seed % (text.length + 1);
        const normalized = text.slice(0, offset).replace(/\r\n?/g, '\n');
        const before = text.slice(0, offset).endsWith('\r') && text[offset] === '\n' ? text.slice(0, offset - 1) : text.slice(0, offset);
        const expectedLine = before.replace(/\r\n?/g, '\n').split('\n').length;
        void normalized;
        const lastBreak = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
        const expectedColumn = offset - (lastBreak + 1) + 1;
        expect(new LineIndex(text).position(offset)).toEqual({ line: expectedLine, column: expectedColumn });
      }),
    );
  });
});
