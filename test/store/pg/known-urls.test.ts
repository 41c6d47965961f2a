import { describe, expect, it } from 'vitest';
import { KnownUrls, noFacts } from '../../../src/store/pg/known-urls.js';

describe('KnownUrls', () => {
  it('remembers keys, spellings and followed URLs, and forgets a URL whose role a batch changed', () => {
    const known = new KnownUrls();
    known.learn({ ...noFacts(), keys: [['http://h/a', 1]], forms: [['HTTP://h/a', 1]], urls: [[1, { site: 7, role: 'resource' }]] });
    expect(known.urlByKey('http://h/a')).toBe(1);
    expect(known.urlByKey('HTTP://h/a')).toBeUndefined();
    expect(known.urlBySpelling('HTTP://h/a')).toBe(1);
    expect(known.url(1)).toEqual({ site: 7, role: 'resource' });
    known.learn({ ...noFacts(), forget: [1] });
    expect(known.url(1)).toBeUndefined();
    expect(known.urlByKey('http://h/a')).toBe(1);
  });

  it('holds at most two generations, keeping what was met lately', () => {
    const known = new KnownUrls(2);
    const key = (n: number): [string, number] => [`http://h/${n}`, n];
    known.learn({ ...noFacts(), keys: [key(1), key(2)] });
    known.learn({ ...noFacts(), keys: [key(3)] }); // 1 and 2 are now the older generation
    expect(known.urlByKey('http://h/1')).toBe(1); // met again: young again
    known.learn({ ...noFacts(), keys: [key(4), key(5)] }); // the older generation (2) is dropped
    expect(known.urlByKey('http://h/2')).toBeUndefined();
    expect(known.urlByKey('http://h/1')).toBe(1);
    expect(known.size).toBeLessThanOrEqual(4);
  });
});
