import { describe, expect, it } from 'vitest';
import { encodeWindows1252 } from '../../../src/cli/demo/windows-1252.js';

describe('encodeWindows1252', () => {
  it.each<[string, string, number[]]>([
    ['ASCII', 'A~', [0x41, 0x7e]],
    ['A0–FF are U+00A0–U+00FF', '\u00a0\u00e9\u00ff', [0xa0, 0xe9, 0xff]],
    ['80–8F', '€‚ƒ„…†‡ˆ‰Š‹ŒŽ', [0x80, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8e]],
    ['90–9F', '‘’“”•–—˜™š›œžŸ', [0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9e, 0x9f]],
    ['the five bytes the index maps to C1 controls', '\u0081\u008d\u008f\u0090\u009d', [0x81, 0x8d, 0x8f, 0x90, 0x9d]],
  ])('%s', (_name, text, bytes) => {
    expect([...encodeWindows1252(text)]).toEqual(bytes);
  });

  it.each(['\u0080', '\u0092', '\u0100', '\u{1f600}'])('refuses %j, which has no byte', (text) => {
    expect(() => encodeWindows1252(text)).toThrow(RangeError);
  });
});
