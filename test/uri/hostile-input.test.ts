// Untrusted input never crashes the core and never costs more than linear time.

import { describe, expect, it } from 'vitest';
import { tryNormalize, tryParse, tryResolve, tryCompare } from '../../src/entry/uri.js';

const BASE = 'http://a/b/c/d;p?q';

function exercise(input: string): void {
  tryParse(input);
  tryResolve(input, BASE);
  tryResolve('../x', input);
  tryNormalize(input, { rung: 'syntax' });
  tryNormalize(input, { rung: 'scheme' });
  tryCompare(input, BASE);
}

describe('hostile input', () => {
  it('every ASCII control character is rejected with its index, never thrown', () => {
    for (let c = 0; c < 0x20; c++) {
      const input = `http://a/b${String.fromCharCode(c)}c`;
      expect(tryParse(input)).toEqual({ ok: false, error: { code: 'ERR_URI_BAD_PATH', index: 10 } });
      exercise(input);
    }
    expect(tryParse('http://a/\u007f').ok).toBe(false);
  });

  it.each(['%', '%%', '%2', 'http://a/%', 'http://a/%g0', '[', 'http://[', 'http://[::1', 'http://[]', 'http://]', '?#%', '#%x'])(
    'handles %j',
    (input) => {
      expect(() => exercise(input)).not.toThrow();
      expect(tryParse(input).ok).toBe(false);
    },
  );

  it('handles 100 kB URIs, deep ../ chains and 1 MB of "/"', () => {
    const long = 'http://a/' + 'x'.repeat(100_000) + '?' + 'q'.repeat(10_000);
    expect(tryParse(long).ok).toBe(true);
    expect(tryNormalize(long)).toMatchObject({ ok: true });
    const deep = '../'.repeat(50_000) + 'g';
    expect(tryResolve(deep, BASE)).toEqual({ ok: true, value: 'http://a/g' });
    const dots = 'http://a/' + 'b/../'.repeat(50_000) + './'.repeat(50_000) + 'c';
    expect(tryNormalize(dots)).toEqual({ ok: true, value: 'http://a/c' });
    const slashes = '/'.repeat(1_000_000);
    expect(tryParse(slashes).ok).toBe(true);
    expect(tryResolve(slashes, BASE).ok).toBe(true);
    expect(tryNormalize('http://a' + slashes).ok).toBe(true);
    const colons = 'http://[' + ':'.repeat(100_000) + ']';
    expect(tryParse(colons).ok).toBe(false);
    const percents = 'http://a/' + '%41'.repeat(100_000);
    expect(tryNormalize(percents)).toEqual({ ok: true, value: 'http://a/' + 'A'.repeat(100_000) });
  });

  it('stays linear: 10× the input costs far less than 100× the time', () => {
    // The fastest of several runs: a loaded machine (other test files, other
    // processes) only ever adds time, so the minimum is the cost of the work itself.
    const time = (n: number): number => {
      const input = 'http://a/' + 'x/../'.repeat(n) + '%2e%2E/'.repeat(n);
      let fastest = Infinity;
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        tryNormalize(input);
        fastest = Math.min(fastest, performance.now() - start);
      }
      return fastest;
    };
    time(2_000); // warm up
    const small = Math.max(time(20_000), 0.2);
    const large = time(200_000);
    expect(large / small).toBeLessThan(40);
  });
});
