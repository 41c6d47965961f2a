import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createLinkExtractor,
  extractLinks,
  type ExtractedLinks,
  type LinkExtractorOptions,
  type LinkKind,
  type LinkReference,
  LineIndex,
} from '../../src/html/index.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/html/', import.meta.url));
const fixtureNames = readdirSync(FIXTURES).filter((name) => name.endsWith('.html')).sort();
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');

function extractInChunks(html: string, size: number, options?: LinkExtractorOptions): ExtractedLinks {
  const extractor = createLinkExtractor(options);
  for (let i = 0; i < html.length; i += size) extractor.write(html.slice(i, i + size));
  return extractor.end();
}

function extractAtCuts(html: string, cuts: readonly number[]): ExtractedLinks {
  const extractor = createLinkExtractor();
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    extractor.write(html.slice(from, cut));
    from = cut;
  }
  extractor.write(html.slice(from));
  return extractor.end();
}

/** The offset of the one start tag that begins with `locator`. */
function offsetOf(html: string, locator: string): number {
  const at = html.indexOf(locator);
  expect(at, `locator ${locator}`).toBeGreaterThanOrEqual(0);
  expect(html.indexOf(locator, at + 1), `locator ${locator} is unique`).toBe(-1);
  return at;
}

type Row = readonly [element: string, attribute: string, raw: string, kind: LinkKind, locator: string, rel?: readonly string[]];

const FOLLOWED_BY_DEFAULT: ReadonlySet<LinkKind> = new Set(['navigation', 'frame', 'refresh']);

/** The references without `valueOffset` (checked on its own, below). */
function withoutValueOffsets(references: readonly LinkReference[]): Omit<LinkReference, 'valueOffset'>[] {
  return references.map(({ valueOffset: _, ...rest }) => rest);
}

function expected(html: string, rows: readonly Row[]): Omit<LinkReference, 'valueOffset'>[] {
  return rows.map(([element, attribute, raw, kind, locator, rel]) => ({
    element,
    attribute,
    raw,
    kind,
    isFollowed: FOLLOWED_BY_DEFAULT.has(kind),
    offset: offsetOf(html, locator),
    ...(rel === undefined ? {} : { rel }),
  }));
}

describe('createLinkExtractor: the all-kinds fixture', () => {
  const html = fixture('all-kinds.html');
  const result = extractLinks(html);

  it('finds every URL-bearing attribute, in document order, as written after entity decoding', () => {
    expect(withoutValueOffsets(result.references)).toEqual(
      expected(html, [
        ['link', 'href', 'style.css', 'link', '<link rel="stylesheet" href="style.css"', ['stylesheet']],
        ['link', 'href', 'https://example.com/canonical?a=1&b=2', 'link', '<link rel="Alternate', ['alternate', 'canonical']],
        ['link', 'href', '/second-canonical', 'link', '<link rel="canonical"', ['canonical']],
        ['link', 'href', ' favicon.ico ', 'link', '<link rel="icon"', ['icon']],
        // meta refresh: quoted URL cut at its closing quote; "0;url="; quotes without "url="; "Url  =" with spaces
        ['meta', 'content', '/refreshed?from=meta', 'refresh', '<meta http-equiv="Refresh"'],
        ['meta', 'content', '/zero', 'refresh', '<meta http-equiv="refresh" content="0;'],
        ['meta', 'content', 'dq.html', 'refresh', '<meta http-equiv="refresh" content=".5'],
        ['meta', 'content', 'spaced.html  ', 'refresh', '<meta http-equiv="refresh" content="  7.25'],
        ['script', 'src', 'app.js', 'resource', '<script src="app.js"'],
        ['link', 'href', 'noscript.css', 'link', '<link rel="stylesheet" href="noscript.css"', ['stylesheet']],
        ['a', 'href', 'page.html', 'navigation', '<a href="page.html"', ['next', 'nofollow']],
        ['a', 'href', '#section-2', 'navigation', '<a href="#section-2"'],
        ['a', 'href', ' https://example.org/a b ', 'navigation', '<a href=" https'],
        ['a', 'href', '', 'navigation', '<a href="">'],
        ['area', 'href', '/map', 'navigation', '<area'],
        ['iframe', 'src', '/frame.html', 'frame', '<iframe'],
        ['frame', 'src', 'frame2.html', 'frame', '<frame '],
        ['img', 'src', 'img.png', 'resource', '<img src="img.png"'],
        // srcset: "img,2x.png" is one URL; "bad.png 1q" is dropped; "trailing.png,," ends its candidate
        ['img', 'srcset', 'img-1x.png', 'resource', '<img src="img.png"'],
        ['img', 'srcset', 'img,2x.png', 'resource', '<img src="img.png"'],
        ['img', 'srcset', 'img-3x.png', 'resource', '<img src="img.png"'],
        ['img', 'srcset', 'trailing.png', 'resource', '<img src="img.png"'],
        ['img', 'srcset', '(x)', 'resource', '<img src="img.png"'],
        ['source', 'srcset', 'wide.png', 'resource', '<source srcset'],
        ['source', 'srcset', 'narrow.png', 'resource', '<source srcset'],
        ['img', 'src', 'fallback.png', 'resource', '<img src="fallback.png"'],
        ['video', 'src', 'movie.mp4', 'resource', '<video'],
        ['video', 'poster', 'poster.jpg', 'resource', '<video'],
        ['source', 'src', 'movie.webm', 'resource', '<source src="movie.webm"'],
        ['track', 'src', 'subs.vtt', 'resource', '<track'],
        ['audio', 'src', 'sound.ogg', 'resource', '<audio'],
        ['embed', 'src', 'plugin.swf', 'resource', '<embed'],
        ['object', 'data', 'object.pdf', 'resource', '<object'],
        ['form', 'action', '/search', 'form', '<form'],
        ['input', 'src', 'button.png', 'resource', '<input'],
        ['input', 'formaction', '/image-submit', 'form', '<input'],
        ['button', 'formaction', '/alt-submit', 'form', '<button'],
        ['q', 'cite', 'http://quote.example/', 'cite', '<q '],
        ['blockquote', 'cite', '/bq', 'cite', '<blockquote'],
        ['del', 'cite', '/del', 'cite', '<del'],
        ['ins', 'cite', '/ins', 'cite', '<ins'],
        // &eacute; and &amp; decoded; "&copy=2" is not (HTML: no legacy reference before "=" in an attribute)
        ['a', 'href', '/café?x=1&copy=2&y=<3>', 'navigation', '<a href="/caf'],
        // upper-case names; the first of two href attributes wins
        ['a', 'href', '/upper', 'navigation', '<A HREF'],
        ['a', 'href', '/svg-link', 'navigation', '<a href="/svg-link"'],
      ]),
    );
  });

  it('ignores URLs inside title, script, style, textarea, comments and end tags', () => {
    const raws = result.references.map((r) => r.raw);
    for (const hidden of ['/in-title', '/in-script', '/in-style', '/in-comment', '/in-textarea', '/duplicate', '/never']) {
      expect(raws).not.toContain(hidden);
    }
    expect(raws).not.toContain('/not-a-refresh'); // <meta name=description> is no refresh
  });

  it('gives the first <base href>, the first canonical link, and the findings', () => {
    expect(result.base).toEqual({ raw: '/docs/', offset: offsetOf(html, '<base href="/docs/">') });
    expect(result.canonical).toEqual({
      raw: 'https://example.com/canonical?a=1&b=2',
      offset: offsetOf(html, '<link rel="Alternate'),
    });
    const lateBase = offsetOf(html, '<base href="http://other.example/">');
    expect(result.findings).toEqual([
      { code: 'HTML_CANONICAL_REPEATED', offset: offsetOf(html, '<link rel="canonical"') },
      { code: 'HTML_REFRESH_INVALID', offset: offsetOf(html, '<meta http-equiv="refresh" content="soon') },
      { code: 'HTML_BASE_IN_BODY', offset: lateBase },
      { code: 'HTML_BASE_REPEATED', offset: lateBase },
    ]);
  });

  it('collects the fragment targets: every id, and the name of <a>', () => {
    expect(result.anchors).toEqual(
      new Set(['top', 'a-name', 'search-form', 'section-2', 'Mixed-Case', 'svg-text', 'bottom']),
    );
  });
});

describe('createLinkExtractor: the malformed fixture', () => {
  const html = fixture('malformed.html');
  const result = extractLinks(html);

  it('reads what a browser reads out of broken markup', () => {
    expect(withoutValueOffsets(result.references)).toEqual(
      expected(html, [
        ['meta', 'content', '/unquoted-refresh', 'refresh', '<meta'],
        ['a', 'href', 'unquoted.html', 'navigation', '<a href=unquoted'],
        ['a', 'href', '', 'navigation', '<a href=>'],
        ['a', 'href', 'single quoted', 'navigation', "<a href='single"],
        ['a', 'href', 'spaced-equals.html', 'navigation', '<a href = spaced'],
        ['a', 'href', '/trailing-slash/', 'navigation', '<a href=/trailing'],
        ['img', 'src', 'a.png/', 'resource', '<img src=a.png/>'],
        ['a', 'href', 'x', 'navigation', '<a href="x"'],
        ['a', 'href', '/after-lt', 'navigation', '<a href="/after-lt"'],
        ['a', 'href', '/slash-separated', 'navigation', '<a/href'],
        ['a', 'href', '/ok', 'navigation', '<a href="/ok"/>'],
        ['a', 'href', '/in-table', 'navigation', '<a href="/in-table"'],
        ['a', 'href', '\uFFFD\u{1F600}&bogus;&', 'navigation', '<a href="&#x0;'],
        ['a', 'href', '/nested', 'navigation', '<a href="/nested">'],
        ['a', 'href', '/nested-inner', 'navigation', '<a href="/nested-inner"'],
        ['a', 'href', 'java\nscript:alert(1)', 'navigation', '<a href=java'],
        // "a.png 1x 2x", "b.png 100w 100w", "c.png 10h" are invalid candidates; "d.png 100w 10h" is fine
        ['img', 'srcset', 'd.png', 'resource', '<img srcset="a.png'],
        ['iframe', 'src', '/frame', 'frame', '<iframe'],
      ]),
    );
    const raws = result.references.map((r) => r.raw);
    for (const hidden of ['/in-end-tag', '/in-pi', '/in-cdata', '/iframe-content', '/unclosed-attr', 'y']) {
      expect(raws).not.toContain(hidden);
    }
  });

  it('takes the upper-case unquoted <BASE HREF> in the head, and the first of duplicate ids', () => {
    expect(result.base).toEqual({ raw: 'http://base.example/dir/', offset: offsetOf(html, '<BASE') });
    expect(result.findings).toEqual([]);
    expect(result.anchors).toEqual(new Set(['dup']));
  });
});

describe('createLinkExtractor: streaming', () => {
  it.each(fixtureNames)('%s gives the same result whole and in 1-character chunks', (name) => {
    const html = fixture(name);
    const whole = extractLinks(html);
    expect(whole.references.length).toBeGreaterThan(0);
    expect(extractInChunks(html, 1)).toEqual(whole);
    expect(extractInChunks(html, 7)).toEqual(whole);
  });

  it('gives the same result wherever the chunks are cut', () => {
    const html = fixture('all-kinds.html');
    const whole = extractLinks(html);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: html.length }), { maxLength: 40 }), (cuts) => {
        expect(extractAtCuts(html, cuts)).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });

  it('calls onReference with each reference, in order, before end()', () => {
    const seen: string[] = [];
    const extractor = createLinkExtractor({ onReference: (r) => seen.push(r.raw) });
    extractor.write('<a href="/one">x</a><img src="/two"');
    expect(seen).toEqual(['/one']); // the img tag is not complete yet
    extractor.write('>');
    expect(seen).toEqual(['/one', '/two']);
    expect(extractor.end().references.map((r) => r.raw)).toEqual(seen);
  });

  it('end() is idempotent and write() after end() is ignored', () => {
    const extractor = createLinkExtractor();
    extractor.write('<a href="/a">');
    const first = extractor.end('<a href="/b">');
    extractor.write('<a href="/c">');
    expect(extractor.end()).toBe(first);
    expect(first.references.map((r) => r.raw)).toEqual(['/a', '/b']);
  });
});

describe('createLinkExtractor: options', () => {
  const html = '<a href="/a"></a><iframe src="/f"></iframe><meta http-equiv=refresh content="0;url=/r"><img src="/i"><link href="/l"><form action="/s"></form><q cite="/c"></q>';

  it('follows navigation, frames and meta refresh by default, and records everything', () => {
    const followed = extractLinks(html).references.map((r) => [r.raw, r.isFollowed]);
    expect(followed).toEqual([
      ['/a', true],
      ['/f', true],
      ['/r', true],
      ['/i', false],
      ['/l', false],
      ['/s', false],
      ['/c', false],
    ]);
  });

  it('follows exactly the kinds given', () => {
    const followed = (follow: readonly LinkKind[]): string[] =>
      extractLinks(html, { follow }).references.filter((r) => r.isFollowed).map((r) => r.raw);
    expect(followed(['resource', 'link'])).toEqual(['/i', '/l']);
    expect(followed([])).toEqual([]);
    expect(followed(['navigation', 'frame', 'refresh', 'link', 'resource', 'form', 'cite'])).toHaveLength(7);
  });

  it('rejects bad options with OptionError', () => {
    const bad = [
      [{ follow: 'navigation' }, 'Expected `follow` to be an array of link kinds, got `navigation` (string)'],
      [{ follow: ['navigation', 'links'] }, 'Expected `follow` to hold only navigation, frame, refresh, link, resource, form, cite, got `links` (string)'],
      [{ follow: [undefined] }, 'Expected `follow` to hold only navigation, frame, refresh, link, resource, form, cite, got `undefined` (undefined)'],
      [{ onReference: 1 }, 'Expected `onReference` to be a function, got `1` (number)'],
      [null, 'Expected `options` to be an object, got `null`'],
    ] as const;
    for (const [options, message] of bad) {
      expect(() => createLinkExtractor(options as unknown as LinkExtractorOptions)).toThrow(
        expect.objectContaining({ name: 'OptionError', code: 'ERR_API_BAD_OPTION', message }),
      );
    }
  });
});

describe('createLinkExtractor: <base> and the body', () => {
  const findings = (html: string): string[] => extractLinks(html).findings.map((f) => f.code);

  it('a <base> in the head, before or after other head content, is not in the body', () => {
    expect(findings('<!doctype html><html><head><title>t</title><meta charset=utf-8><base href="http://a/">')).toEqual([]);
    expect(findings('<base href="http://a/">')).toEqual([]);
    expect(findings('<html><head></head><base href="http://a/"><body>')).toEqual([]); // "after head" mode
    expect(findings('\uFEFF  \n<base href="http://a/">')).toEqual([]);
  });

  it('body content starts with <body>, with any non-head element, or with text', () => {
    expect(findings('<body><base href="http://a/">')).toEqual(['HTML_BASE_IN_BODY']);
    expect(findings('<head><div></div><base href="http://a/">')).toEqual(['HTML_BASE_IN_BODY']);
    expect(findings('Hello<base href="http://a/">')).toEqual(['HTML_BASE_IN_BODY']);
    expect(findings('<title>Hello</title><base href="http://a/">')).toEqual([]);
  });

  it('a <base> without href neither counts nor repeats', () => {
    const result = extractLinks('<base target=_top><base href="https://x/"><base target=_self>');
    expect(result.base?.raw).toBe('https://x/');
    expect(result.findings).toEqual([]);
  });

  it('a relative <base href> is left to the base chain (BASE_HREF_RELATIVE): one fact, recorded once', () => {
    for (const href of ['', '/docs/', '../x', '//cdn.example/', '1http://x/', 'http://a/', ' HTTPS://a/', 'ht&#9;tp://a/', 'urn:x']) {
      expect(findings(`<base href="${href}">`), href).toEqual([]);
    }
  });

  it('canonical: rel is a case-insensitive token list, href required', () => {
    expect(extractLinks('<link rel=" Canonical\tnext " href="/c">').canonical?.raw).toBe('/c');
    expect(extractLinks('<link rel="canonicalx" href="/c">').canonical).toBeUndefined();
    expect(extractLinks('<link rel="canonical"><link rel=canonical href=/d>').canonical?.raw).toBe('/d');
    expect(extractLinks('<a rel=canonical href=/a>').canonical).toBeUndefined();
  });
});

describe('createLinkExtractor: HTML rules kept without a tree', () => {
  const raws = (html: string): string[] => extractLinks(html).references.map((r) => `${r.element} ${r.attribute} ${r.raw}`);

  it('reads <image> as <img> outside SVG, and keeps it <image> inside', () => {
    expect(raws('<image src="/i.png"><svg><image src="/svg.png"></svg>')).toEqual(['img src /i.png']);
  });

  it('drops a <form> start tag while another form is open, as the form element pointer does', () => {
    expect(raws('<form action="/a"><form action="/nested" id="n"></form><form action="/b"></form>')).toEqual([
      'form action /a',
      'form action /b',
    ]);
    expect(extractLinks('<form><form id="n">').anchors).toEqual(new Set());
  });

  it('knows raw-text elements: script, style, title, textarea, xmp, iframe, noembed, noframes, plaintext', () => {
    for (const element of ['script', 'style', 'title', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes']) {
      expect(raws(`<${element}><a href="/hidden"></${element.toUpperCase()}><a href="/after">`), element).toEqual([
        'a href /after',
      ]);
    }
    expect(raws('<plaintext><a href="/hidden">')).toEqual([]);
  });

  it('in SVG and MathML, <style> and <title> are markup, not raw text, until an integration point', () => {
    expect(raws('<svg><style><a href="/in-svg-style"></style></svg>')).toEqual(['a href /in-svg-style']);
    expect(raws('<svg><foreignObject><style><a href="/hidden"></style></foreignObject></svg>')).toEqual([]);
    expect(raws('<svg><title><style><a href="/hidden"></style></title></svg><style><a href="/hidden2"></style>')).toEqual([]);
    expect(raws('<math><mtext><textarea><a href="/hidden"></textarea></mtext></math>')).toEqual([]);
    expect(raws('<svg/><style><a href="/hidden"></style>')).toEqual([]); // a self-closed svg is closed
  });

  it('costs linear time on deep nesting and stray end tags (the tree builder would not)', () => {
    const html = '<div><b><a href=/d>'.repeat(100_000) + '</i></span>'.repeat(100_000) + '<svg>'.repeat(50_000);
    expect(extractLinks(html).references).toHaveLength(100_000);
  });
});

describe('createLinkExtractor: hostile markup', () => {
  const garbage = [
    '',
    '<',
    '<<<<>>>>',
    '<a',
    '<a href',
    '<a href=',
    '<a href="',
    '<a href=">',
    '</',
    '<!--',
    '<!-- <a href=/x>',
    '<![CDATA[',
    '<?',
    '<!DOCTYPE',
    '&',
    '&#',
    '&#x',
    '&#xFFFFFFFFF;',
    '<a href="&#xD800;">',
    '<script>',
    '<svg><a href=/s><foreignObject><a href=/f></svg>',
    '<math><mi><a href=/m>',
    '\u0000<a\u0000 href\u0000=\u0000>',
    '<form><form action=/nested-form></form></form>',
    '<table><a href=/t><tr><td></table>',
    '<a href=/x></a></a></a></a>',
  ];

  it.each(garbage)('never throws on %j, whole or in 1-character chunks', (html) => {
    expect(() => extractLinks(html)).not.toThrow();
    expect(extractInChunks(html, 1)).toEqual(extractLinks(html));
  });

  it('handles a 5 MB page of links, unclosed tags, entities and junk', () => {
    const unit =
      '<div id="d{i}"><a href="/p{i}?q=1&amp;r=2">x</a><img srcset="a{i}.png 1x, b{i}.png 2x"><p>unclosed <b>bold <<< & &&; </i>\n';
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 5_000_000; i++) {
      const piece = unit.replaceAll('{i}', String(i));
      parts.push(piece);
      size += piece.length;
    }
    const html = parts.join('');
    const seen: number[] = [];
    const extractor = createLinkExtractor({ onReference: (r) => void (r.kind === 'navigation' && seen.push(r.offset)) });
    for (let i = 0; i < html.length; i += 65_536) extractor.write(html.slice(i, i + 65_536));
    const result = extractor.end();
    expect(result.references).toHaveLength(parts.length * 3);
    expect(result.anchors.size).toBe(parts.length);
    expect(result.references[3]).toMatchObject({ raw: '/p1?q=1&r=2', kind: 'navigation' });
    expect(seen).toHaveLength(parts.length);
  });

  it('handles a 5 MB attribute value, 5 MB of "<", and 100 000 unclosed elements', () => {
    const long = 'x'.repeat(5_000_000);
    expect(extractLinks(`<a href="${long}">`).references[0]?.raw).toHaveLength(5_000_000);
    expect(extractLinks(`<img srcset="${long} 1x, ${'y,'.repeat(1_000_000)}">`).references).toHaveLength(2);
    expect(extractLinks('<'.repeat(5_000_000)).references).toEqual([]);
    const deep = '<div><span><a href=/d>'.repeat(100_000);
    expect(extractLinks(deep).references).toHaveLength(100_000);
  });
});

describe('createLinkExtractor: where each URL is written (valueOffset, for SARIF lines and columns)', () => {
  const html = fixture('all-kinds.html');
  const { references } = extractLinks(html);

  it('places every attribute value at its first character, after the quote', () => {
    for (const r of references) {
      const source = html.slice(r.valueOffset);
      if (r.kind === 'refresh') {
        // A refresh is placed at the start of its content value.
        expect(html[r.valueOffset - 1], r.raw).toMatch(/["']/);
        expect(html.slice(r.offset, r.valueOffset)).toMatch(/content="$/);
      } else if (r.raw === 'https://example.com/canonical?a=1&b=2') {
        expect(source.startsWith('https://example.com/canonical?a=1&amp;b=2"')).toBe(true);
      } else if (r.raw.startsWith('/caf')) {
        expect(source.startsWith('/caf&eacute;')).toBe(true);
      } else {
        expect(source.startsWith(r.raw), `${r.element} ${r.attribute} ${r.raw}`).toBe(true);
      }
      expect(r.valueOffset).toBeGreaterThan(r.offset);
    }
  });

  it('gives line and column through LineIndex', () => {
    const lines = new LineIndex(html);
    const page = references.find((r) => r.raw === 'page.html')!;
    const lineNumber = html.split('\n').findIndex((line) => line.includes('<a href="page.html"')) + 1;
    expect(lines.position(page.valueOffset)).toEqual({ line: lineNumber, column: '  <a href="'.length + 1 });
  });

  it('places values of every quoting style, empty values and values without "="', () => {
    const at = (page: string): [string, number][] => extractLinks(page).references.map((r) => [r.raw, r.valueOffset]);
    expect(at('<a href="x">')).toEqual([['x', 9]]);
    expect(at("<a href='x'>")).toEqual([['x', 9]]);
    expect(at('<a href=x>')).toEqual([['x', 8]]);
    expect(at('<a href = \n "x">')).toEqual([['x', 13]]);
    expect(at('<a href="">')).toEqual([['', 9]]);
    expect(at('<a href=>')).toEqual([['', 8]]);
    expect(at('<a href>')).toEqual([['', 7]]); // no value: the end of the name
    expect(at('<a id=1 href="x">')).toEqual([['x', 14]]);
  });

  it('places a value that starts with a character reference at the reference', () => {
    const at = (page: string): number[] => extractLinks(page).references.map((r) => r.valueOffset);
    expect(at('<a href="&amp;x">')).toEqual([9]);
    expect(at("<a href = '&#47;x'>")).toEqual([11]);
    expect(at('<a href=&lt;x>')).toEqual([8]);
    expect(at('<a\nhref\n=\n"&quot;">')).toEqual([11]);
  });

  it('places each srcset candidate at its URL, or at the value when a character reference came first', () => {
    const page = '<img srcset="a.png 1x,\n  b.png 2x"><img srcset="&#97;.png 1x, b.png 2x">';
    const offsets = extractLinks(page).references.map((r) => [r.raw, r.valueOffset]);
    expect(offsets).toEqual([
      ['a.png', page.indexOf('a.png')],
      ['b.png', page.indexOf('b.png')],
      ['a.png', page.indexOf('&#97;')],
      ['b.png', page.indexOf('&#97;')],
    ]);
  });

  it('gives the same positions whole and in chunks, wherever they are cut', () => {
    const page = '<a\nhref="&amp;x">a</a><style>@import "s.css";</style><p style="background: url(\'bg.png\')"><img srcset="a 1x, &#98; 2x">';
    const whole = extractLinks(page);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: page.length }), { maxLength: 12 }), (cuts) => {
        expect(extractAtCuts(page, cuts)).toEqual(whole);
      }),
      { numRuns: 300 },
    );
    expect(extractInChunks(page, 1)).toEqual(whole);
  });
});

describe('createLinkExtractor: CSS in the page', () => {
  it('reads <style> text: url(), @import (cssKind import), image-set strings; kind resource', () => {
    const page = '<head><style>\n@import "print.css" print;\nbody { background: url(bg.png) }\n</style></head>';
    const { references } = extractLinks(page);
    expect(references).toEqual([
      { element: 'style', attribute: '#text', raw: 'print.css', kind: 'resource', isFollowed: false, offset: 6, valueOffset: page.indexOf('"print'), cssKind: 'import' },
      { element: 'style', attribute: '#text', raw: 'bg.png', kind: 'resource', isFollowed: false, offset: 6, valueOffset: page.indexOf('url(bg'), cssKind: 'url' },
    ]);
    expect(extractLinks(page, { follow: ['resource'] }).references.every((r) => r.isFollowed)).toBe(true);
  });

  it('reads style attributes on any element, placed in the attribute value', () => {
    const page = '<div style="background-image: url(a.png); mask: url(\'m.svg#x\')"></div><a href="/x" style="cursor: url(c.cur), auto">';
    const refs = extractLinks(page).references.map((r) => [r.element, r.attribute, r.raw, r.kind, r.cssKind, r.valueOffset]);
    expect(refs).toEqual([
      ['div', 'style', 'a.png', 'resource', 'url', page.indexOf('url(a')],
      ['div', 'style', 'm.svg#x', 'resource', 'url', page.indexOf("url('m")],
      ['a', 'href', '/x', 'navigation', undefined, page.indexOf('/x')],
      ['a', 'style', 'c.cur', 'resource', 'url', page.indexOf('url(c')],
    ]);
  });

  it('decodes character references in a style attribute first (HTML before CSS); positions fall back to the value start', () => {
    const page = '<p style="background: url(&quot;q.png&quot;)">';
    expect(extractLinks(page).references.map((r) => [r.raw, r.valueOffset])).toEqual([['q.png', page.indexOf('background')]]);
  });

  it('reports CSS findings as page findings at the element, and caps CSS references per style', () => {
    const page = '<p style="a: url(b c)"></p><style>a{b:url(1) url(2) url(3)}</style>';
    const result = extractLinks(page, { maxCssReferences: 2 });
    expect(result.references.map((r) => r.raw)).toEqual(['1', '2']);
    expect(result.findings).toEqual([
      { code: 'CSS_URL_INVALID', offset: 0 },
      { code: 'CSS_REFERENCES_CAPPED', offset: page.indexOf('<style>') },
    ]);
    expect(() => createLinkExtractor({ maxCssReferences: -1 })).toThrow('Expected `maxCssReferences` to be an integer >= 0, got `-1` (number)');
  });

  it('ignores CSS without a reference, and what only looks like one', () => {
    expect(extractLinks('<style>a[href="/in-style"] { color: red }</style><p style="color: red">').references).toEqual([]);
    expect(extractLinks('<script>x = "url(a.png)"</script><textarea>url(b.png)</textarea>').references).toEqual([]);
  });

  it('reads an unclosed <style> to the end of the page, and an SVG <style> (text, not raw text)', () => {
    expect(extractLinks('<style>a{b:url(x.png)}').references.map((r) => r.raw)).toEqual(['x.png']);
    expect(extractLinks('<svg><style>a{b:url(&quot;y.png&quot;)}</style><style/></svg>').references.map((r) => r.raw)).toEqual(['y.png']);
    // A self-closed <style/> is closed by the tokenizer: the text after it is no CSS.
    expect(extractLinks('<style/><p>url(z.png)</p><svg><style/></svg>url(w.png)').references).toEqual([]);
  });
});

describe('createLinkExtractor: resources beyond the plain src attributes', () => {
  const refs = (page: string): string[] => extractLinks(page).references.map((r) => `${r.element} ${r.attribute} ${r.raw} ${r.kind}`);

  it('reads SVG <image> and <use> href and xlink:href', () => {
    expect(refs('<svg><image href="i.png"/><image xlink:href="j.png"/><use href="sprite.svg#a"/><use xlink:href="#local"/></svg>')).toEqual([
      'image href i.png resource',
      'image xlink:href j.png resource',
      'use href sprite.svg#a resource',
      'use xlink:href #local resource',
    ]);
  });

  it('reads <link imagesrcset> candidates and the obsolete background attribute', () => {
    expect(refs('<link rel=preload as=image imagesrcset="a.png 1x, b.png 2x" href="a.png"><body background="bg.gif"><table background="t.gif"><tr><td background="td.gif">')).toEqual([
      'link imagesrcset a.png resource',
      'link imagesrcset b.png resource',
      'link href a.png link',
      'body background bg.gif resource',
      'table background t.gif resource',
      'td background td.gif resource',
    ]);
  });
});
