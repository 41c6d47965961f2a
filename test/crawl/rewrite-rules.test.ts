import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { differingPrefixes, isTrusted, RULE_MIN_SUPPORT, RuleBook } from '../../src/crawl/rewrite-rules.js';

const H = 'http://h.test';

describe('differingPrefixes', () => {
  it('gives the segment-aligned prefixes two URLs differ in, the rest equal', () => {
    expect(differingPrefixes(`${H}/manual/de/mod/x.html`, `${H}/manual/mod/x.html`)).toEqual([`${H}/manual/de/`, `${H}/manual/`]);
    expect(differingPrefixes(`${H}/manual/de/mod/x.html`, `${H}/manual/en/mod/x.html`)).toEqual([`${H}/manual/de/`, `${H}/manual/en/`]);
    expect(differingPrefixes(`${H}/manual/de/`, `${H}/manual/en/`)).toEqual([`${H}/manual/de/`, `${H}/manual/en/`]);
    // A common tail is cut only where a segment starts: URLs whose last segments differ teach no rule.
    expect(differingPrefixes(`${H}/a/b/xy.html`, `${H}/c/b/zy.html`)).toBeUndefined();
    expect(differingPrefixes(`${H}/x.html?lang=de`, `${H}/x.html?lang=en`)).toBeUndefined();
  });

  it('gives nothing for equal URLs, or URLs of two origins (evidence stays scoped to its origin)', () => {
    expect(differingPrefixes(`${H}/a`, `${H}/a`)).toBeUndefined();
    expect(differingPrefixes(`${H}/de/x.html`, 'http://other.test/en/x.html')).toBeUndefined();
    expect(differingPrefixes(`${H}/de/x.html`, `https://h.test/de/x.html`)).toBeUndefined();
  });

  it('maps each URL back onto the other (property)', () => {
    const segment = fc.stringMatching(/^[a-z]{1,3}$/);
    const path = fc.array(segment, { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(path, path, fc.array(segment, { maxLength: 3 }), (a, b, tail) => {
        const u = `${H}/${[...a, ...tail].join('/')}`;
        const v = `${H}/${[...b, ...tail].join('/')}`;
        const prefixes = differingPrefixes(u, v);
        if (u === v) {
          expect(prefixes).toBeUndefined();
          return;
        }
        if (prefixes === undefined) return;
        expect(u.startsWith(prefixes[0]) && v.startsWith(prefixes[1])).toBe(true);
        expect(u.slice(prefixes[0].length)).toBe(v.slice(prefixes[1].length));
      }),
    );
  });
});

describe('RuleBook', () => {
  it('learns a rule once, whichever way the pair comes, and maps URLs both ways', () => {
    const book = new RuleBook();
    const first = book.learn([`${H}/de/`, `${H}/en/`], 'proof');
    const again = book.learn([`${H}/en/`, `${H}/de/`], 'other proof');
    expect(first.isNew).toBe(true);
    expect(again).toEqual({ rule: first.rule, isNew: false });
    expect(book.mappings(`${H}/de/mod/x.html`).map((m) => m.to)).toEqual([`${H}/en/mod/x.html`]);
    expect(book.mappings(`${H}/en/x.html`).map((m) => m.to)).toEqual([`${H}/de/x.html`]);
    expect(book.mappings(`${H}/fr/x.html`)).toEqual([]);
  });

  it('trusts a rule with enough support and no contradiction, never after one', () => {
    const { rule } = new RuleBook().learn([`${H}/de/`, `${H}/en/`], 'proof');
    rule.support = RULE_MIN_SUPPORT - 1;
    expect(isTrusted(rule)).toBe(false);
    rule.support = RULE_MIN_SUPPORT;
    expect(isTrusted(rule)).toBe(true);
    rule.contradictions = 1;
    rule.support = 1000;
    expect(isTrusted(rule)).toBe(false);
  });
});
