// src/html/css-references.ts: the URLs a stylesheet names, found with a CSS tokenizer.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CSS_REFERENCE_DEFAULTS, extractCssReferences, scanCssReferences, type CssReference } from '../../src/html/index.js';

const urls = (css: string): string[] => extractCssReferences(css).references.map((r) => r.url);
const brief = (css: string): [string, string, string][] =>
  extractCssReferences(css).references.map((r) => [r.kind, r.syntax, r.url]);

describe('extractCssReferences', () => {
  it('finds url() quoted and unquoted, with escapes decoded (CSS Syntax 3 §4.3.7)', () => {
    expect(brief('a { background: url(a.png) } b { background: url("b c.png") } c { background: url( \'d.png\' ) }')).toEqual([
      ['url', 'url', 'a.png'],
      ['url', 'url', 'b c.png'],
      ['url', 'url', 'd.png'],
    ]);
    expect(urls('a{b:url(x\\29 y.png)}')).toEqual(['x)y.png']);
    expect(urls('a{b:url("q\\"uote.png")}')).toEqual(['q"uote.png']);
    expect(urls('a{b:url(\\1F600.png)}')).toEqual(['\u{1F600}.png']);
    expect(urls('a{b:url("line\\\ncontinued.png")}')).toEqual(['linecontinued.png']);
    expect(urls('a{b:URL(upper.png); c: Url("mixed.png")}')).toEqual(['upper.png', 'mixed.png']);
    expect(urls('a{b:\\75 rl("escaped-name.png")}')).toEqual(['escaped-name.png']);
  });

  it('finds @import as a string, url() or url(""), kind import (CSS Cascade 4 §2)', () => {
    expect(brief('@import "a.css";\n@import url(b.css) screen;\n@IMPORT url("c.css") layer(x) supports(display: grid);\n@import \'d.css\';')).toEqual([
      ['import', 'string', 'a.css'],
      ['import', 'url', 'b.css'],
      ['import', 'url', 'c.css'],
      ['import', 'string', 'd.css'],
    ]);
    // Strings elsewhere in an @import prelude are not URLs.
    expect(brief('@import "a.css" supports(content: "x");')).toEqual([['import', 'string', 'a.css']]);
    // A url() after the imported one is an ordinary reference (there is none in valid CSS).
    expect(brief('@import url(a.css) url(b.png);')).toEqual([
      ['import', 'url', 'a.css'],
      ['url', 'url', 'b.png'],
    ]);
  });

  it('an @import inside a block is not an import (at-rules there are not top-level rules)', () => {
    expect(brief('@media print { @import "x.css"; }')).toEqual([]);
  });

  it('finds src() and the strings of image-set(), -webkit-image-set() and image() (CSS Images 4)', () => {
    expect(brief('@font-face { src: src("f.woff2") format("woff2"), url(f.woff) format("woff"), local("Font Name"); }')).toEqual([
      ['url', 'src', 'f.woff2'],
      ['url', 'url', 'f.woff'],
    ]);
    expect(brief('a { background-image: image-set("a.avif" type("image/avif"), url(b.png) 1x, "c.png" 2x); }')).toEqual([
      ['url', 'image-set', 'a.avif'],
      ['url', 'url', 'b.png'],
      ['url', 'image-set', 'c.png'],
    ]);
    expect(urls('a { b: -webkit-image-set("w.png" 1x); c: image("i.png", red); }')).toEqual(['w.png', 'i.png']);
  });

  it('leaves out what is never fetched: empty urls, @namespace, strings elsewhere', () => {
    expect(urls('a { b: url(); c: url(""); d: url( ) }')).toEqual([]);
    expect(urls('@namespace svg url(http://www.w3.org/2000/svg); @namespace "http://x/"; a { b: url(kept.png) }')).toEqual(['kept.png']);
    expect(urls('a::before { content: "not-a-url.png"; font-family: "x.woff" }')).toEqual([]);
    expect(urls('a { b: attr(data-x url) }')).toEqual([]);
  });

  it('keeps a fragment-only url(#id): a same-document reference, never fetched', () => {
    expect(urls('rect { filter: url(#blur) }')).toEqual(['#blur']);
  });

  it('reads a style attribute (a declaration list) as well', () => {
    expect(urls('background: url(bg.jpg) no-repeat; cursor: url("c.cur"), auto')).toEqual(['bg.jpg', 'c.cur']);
  });

  it('reports a bad url token as CSS_URL_INVALID and takes nothing from it', () => {
    const { references, findings } = extractCssReferences('a { b: url(a b.png); c: url(ok.png); d: url(x"y) }\n@import url(bad url);');
    expect(references.map((r) => r.url)).toEqual(['ok.png']);
    expect(findings.map((f) => [f.code, f.line, f.column])).toEqual([
      ['CSS_URL_INVALID', 1, 8],
      ['CSS_URL_INVALID', 1, 41],
      ['CSS_URL_INVALID', 2, 9],
    ]);
  });

  it('gives each reference its offset, line and column (CSS line breaks: LF, CR LF, CR, FF)', () => {
    const css = 'a{}\r\nb { c: url(one.png) }\rd{}\fe { f: url("two.png") }\n  @import "three.css";';
    const references = extractCssReferences(css).references;
    expect(references.map((r) => [r.url, r.offset, r.line, r.column])).toEqual([
      ['one.png', css.indexOf('url(one'), 2, 8],
      ['two.png', css.indexOf('url("two'), 4, 8],
      ['three.css', css.indexOf('"three'), 5, 11],
    ]);
  });

  it('caps the references per sheet with one CSS_REFERENCES_CAPPED finding', () => {
    const css = Array.from({ length: 5 }, (_, i) => `.c${i} { background: url(${i}.png) }`).join('\n');
    const { references, findings } = extractCssReferences(css, { maxReferences: 3 });
    expect(references.map((r) => r.url)).toEqual(['0.png', '1.png', '2.png']);
    expect(findings).toEqual([{ code: 'CSS_REFERENCES_CAPPED', offset: css.indexOf('url(3'), line: 4, column: 19 }]);
    expect(extractCssReferences(css, { maxReferences: 0 }).references).toEqual([]);
    expect(CSS_REFERENCE_DEFAULTS.maxReferences).toBe(10_000);
  });

  it('validates its options once', () => {
    expect(() => extractCssReferences('', { maxReferences: -1 })).toThrow('Expected `maxReferences` to be an integer >= 0, got `-1` (number)');
    expect(() => extractCssReferences('', { maxReferences: 1.5 })).toThrow(/maxReferences/);
    expect(() => extractCssReferences('', null as never)).toThrow(/options/);
  });

  it('recovers from bad CSS as the spec says: unterminated strings, comments and blocks', () => {
    expect(urls('a { b: url("unterminated')).toEqual(['unterminated']);
    expect(urls('a { b: url(x.png')).toEqual(['x.png']);
    expect(urls('/* never closed url(x.png)')).toEqual([]);
    expect(urls('a { b: url("one\nc: url(two.png) }')).toEqual(['two.png']); // a bad string ends at the newline
    expect(urls('} ] ) @import "top.css";')).toEqual(['top.css']);
    expect(urls('a { b: image-set( ] "in.png") }')).toEqual(['in.png']);
  });

  it('never throws, and every reference offset lies in the text, in source order', () => {
    const cssAlphabet = fc.constantFrom(...'url(src("image-set(@import @namespace ;{}[]()"\'\\ \n\r\f\t/**/a.png#x1é\u0000'.split(''), 'url(', '@import ', 'image-set(', '"a.png"', ')', '\\29 ');
    fc.assert(
      fc.property(fc.array(cssAlphabet, { maxLength: 60 }).map((parts) => parts.join('')), fc.nat(5), (css, max) => {
        const { references, findings } = extractCssReferences(css, { maxReferences: max });
        expect(references.length).toBeLessThanOrEqual(max);
        expect(findings.filter((f) => f.code === 'CSS_REFERENCES_CAPPED').length).toBeLessThanOrEqual(1);
        let last = -1;
        for (const r of references) {
          expect(r.offset).toBeGreaterThan(last);
          expect(r.offset).toBeLessThan(css.length);
          expect(r.url).not.toBe('');
          last = r.offset;
        }
      }),
    );
  });

  it('a url() written unquoted or quoted gives the same URL (fast-check)', () => {
    const safe = fc.stringMatching(/^[a-zA-Z0-9._~\/?#=&%-]{1,20}$/);
    fc.assert(
      fc.property(safe, (url) => {
        expect(urls(`a{b:url(${url})}`)).toEqual([url]);
        expect(urls(`a{b:url("${url}")}`)).toEqual([url]);
        expect(urls(`a{b:url( '${url}' )}`)).toEqual([url]);
      }),
    );
  });

  it('scanCssReferences streams the same references without line numbers', () => {
    const css = '@import "a.css"; b { c: url(d.png) }';
    const seen: CssReference[] = [];
    scanCssReferences(css, 10, (r) => seen.push(r), () => {});
    expect(seen).toEqual(extractCssReferences(css).references.map(({ line: _l, column: _c, ...rest }) => rest));
  });

  describe('a nesting bomb (10 MiB of an unclosed "(", "{", "[" or function) costs a few bytes a level', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const live = (): number => {
      const usage = process.memoryUsage();
      // `external` counts ArrayBuffers' memory too.
      return usage.heapUsed + usage.external;
    };
    const LEVELS = 10 * 1024 * 1024;
    for (const open of ['(', '{', '[', 'image-set(']) {
      it(`${JSON.stringify(open)} × ${LEVELS / open.length} levels`, () => {
        // The reference at the very end is read with every level still open: the memory
        // then held (after a collection) is what the open blocks cost.
        // Flat, as a fetched body is (not a rope the tokenizer would flatten while measured).
        const css = Buffer.from(open.repeat(LEVELS / open.length) + 'url(deep.png)', 'latin1').toString('latin1');
        scanCssReferences('a{b:url(warm.png)}', 10, () => {}, () => {});
        // Twice: what an earlier case left is freed in full (external strings go on the second).
        gc();
        gc();
        const before = live();
        let held = 0;
        const found: string[] = [];
        scanCssReferences(css, 10, (reference) => {
          gc();
          held = live() - before;
          found.push(reference.url);
        }, () => {});
        expect(found).toEqual(['deep.png']);
        // An object a level held ~50 bytes a level (~530 MB here); a byte a level is ~16 MB
        // (the stack's capacity doubles), and the first case pays for some of the tokenizer's warm-up.
        expect(held).toBeLessThan(5 * LEVELS);
      }, 120_000);
    }
  });
});
