import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyTable, hashText } from '../../src/store/key-table.js';

describe('KeyTable', () => {
  it('finds every string added, through growth, and nothing else', () => {
    const table = new KeyTable();
    const texts = Array.from({ length: 50_000 }, (_, i) => `http://host/page/${i}`);
    texts.forEach((text, i) => table.add(text, i + 1));
    expect(table.size).toBe(texts.length);
    for (const [i, text] of texts.entries()) expect(table.get(text)).toBe(i + 1);
    expect(table.get('http://host/page/50000')).toBeUndefined();
    expect(table.get('http://host/page/1 ')).toBeUndefined();
  });

  it('compares the text itself: strings with the same hash stay apart', () => {
    // Find two short strings whose 32-bit hashes collide, then store both.
    const byHash = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; pair === undefined; i++) {
      const text = `/p${i}`;
      const other = byHash.get(hashText(text));
      if (other !== undefined) pair = [other, text];
      byHash.set(hashText(text), text);
    }
    const table = new KeyTable();
    table.add(pair[0], 1);
    expect(table.get(pair[1])).toBeUndefined();
    table.add(pair[1], 2);
    expect([table.get(pair[0]), table.get(pair[1])]).toEqual([1, 2]);
  });

  it('keeps non-ASCII text exactly, lone surrogates included', () => {
    const table = new KeyTable();
    const texts = ['http://h/é', 'http://h/e\u0301', 'http://h/😀', 'http://h/\u00e9x', 'mailto:ü@h', '\ud800', '\udfff'];
    texts.forEach((text, i) => table.add(text, i + 1));
    texts.forEach((text, i) => expect(table.get(text)).toBe(i + 1));
    expect(table.get('http://h/e')).toBeUndefined();
  });

  it('agrees with a Map on any sequence of adds and lookups (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: 'binary', maxLength: 12 }), { maxLength: 300 }), fc.array(fc.string({ maxLength: 12 })), (texts, probes) => {
        const table = new KeyTable();
        const map = new Map<string, number>();
        texts.forEach((text, i) => {
          table.add(text, i + 1);
          map.set(text, i + 1);
        });
        return [...texts, ...probes].every((text) => table.get(text) === map.get(text));
      }),
    );
  });
});
