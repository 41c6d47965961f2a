import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TagReader, type TagHandler } from '../../src/html/tag-reader.js';

type Event = readonly ['start', string, Record<string, string>, number] | readonly ['end', string] | readonly ['text', boolean];

function read(chunks: readonly string[]): Event[] {
  const events: Event[] = [];
  const handler: TagHandler = {
    onStartTag: (name, attributes, offset) => events.push(['start', name, Object.fromEntries(attributes), offset]),
    onEndTag: (name) => events.push(['end', name]),
    onText: (hasContent) => events.push(['text', hasContent]),
  };
  const reader = new TagReader(handler);
  for (const chunk of chunks) reader.write(chunk);
  reader.end();
  return events;
}

// Text events come in pieces that depend on the chunking; tags do not.
const tagsOf = (events: readonly Event[]): Event[] => events.filter((e) => e[0] !== 'text');
const hasContentOf = (events: readonly Event[]): boolean => events.some((e) => e[0] === 'text' && e[1]);

describe('TagReader', () => {
  it('reports start tags with lower-cased names, the first of duplicate attributes, and the "<" offset', () => {
    expect(tagsOf(read(['x<A HREF="/a" Href="/b" data-X=1>y</A>']))).toEqual([
      ['start', 'a', { href: '/a', 'data-x': '1' }, 1],
      ['end', 'a'],
    ]);
  });

  it('keeps attribute names that are Object.prototype members as plain data', () => {
    let entries: [string, string][] = [];
    const reader = new TagReader({
      onStartTag: (_name, attributes) => void (entries = [...attributes]),
      onEndTag: () => {},
      onText: () => {},
    });
    reader.write('<a __proto__="/p" constructor=c hasOwnProperty=h href=/h>');
    reader.end();
    expect(entries).toEqual([
      ['__proto__', '/p'],
      ['constructor', 'c'],
      ['hasownproperty', 'h'],
      ['href', '/h'],
    ]);
  });

  it('decodes character references in attributes, also when a chunk boundary cuts one', () => {
    const html = '<a href="/caf&eacute;?a=1&amp;b=2&copy=3&#x41;&#65">';
    const expected = [['start', 'a', { href: '/café?a=1&b=2&copy=3AA' }, 0]];
    expect(tagsOf(read([html]))).toEqual(expected);
    expect(tagsOf(read(html.split('')))).toEqual(expected);
  });

  it('says whether text holds content, wherever it is cut', () => {
    expect(hasContentOf(read([' \n\t\f\r\uFEFF']))).toBe(false);
    expect(hasContentOf(read(['&#32;&Tab;']))).toBe(false);
    expect(hasContentOf(read(['&nbsp;']))).toBe(true);
    expect(hasContentOf(read([' ', ' x', ' ']))).toBe(true);
  });

  it('gives the same tags however the input is chunked', () => {
    const html =
      '<!doctype html><p id=a>t&amp;t<img src="x.png" srcset="a 1x, b 2x"><!-- <a href=c> --><script>"<a href=s>"</script>' +
      '<svg><style><a href=v></style><foreignObject><title><a href=t></title></foreignObject></svg><a\nhref\n=\n\'q\'>';
    const whole = tagsOf(read([html]));
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: html.length }), { maxLength: 30 }), (cuts) => {
        const points = [0, ...[...cuts].sort((a, b) => a - b), html.length];
        const chunks = points.slice(1).map((end, i) => html.slice(points[i], end));
        expect(tagsOf(read(chunks))).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });
});

describe('TagReader: where attribute values are written, and captured text', () => {
  type Placed = [name: string, value: string, offset: number, hasReference: boolean];
  function place(chunks: readonly string[]): { attributes: Placed[][]; texts: [string, string, number, boolean][] } {
    const attributes: Placed[][] = [];
    const texts: [string, string, number, boolean][] = [];
    const reader: TagReader = new TagReader({
      onStartTag: (name, map, _offset, values) => {
        attributes.push([...map].map(([key, value], i) => [key, value, values.valueOffset(i), values.hasCharacterReference(i)]));
        if (name === 'style' || name === 'title') reader.captureText();
      },
      onEndTag: () => {},
      onText: () => {},
      onCapturedText: (name, text, offset, isVerbatim) => texts.push([name, text, offset, isVerbatim]),
    });
    for (const chunk of chunks) reader.write(chunk);
    reader.end();
    return { attributes, texts };
  }

  const html = '<a id=x href="/a&amp;b" title=\'&lt;t\' data-e hidden>\n<style media="x">a{b:url(c)}</style><svg><title>a &amp; b</title><style/></svg><title>unclosed';

  it('gives each value its offset in the document, and whether character references were decoded', () => {
    const { attributes, texts } = place([html]);
    expect(attributes[0]).toEqual([
      ['id', 'x', html.indexOf('x '), false],
      ['href', '/a&b', html.indexOf('/a&'), true],
      ['title', '<t', html.indexOf('&lt;'), true],
      ['data-e', '', html.indexOf(' hidden'), false],
      ['hidden', '', html.indexOf('>'), false],
    ]);
    expect(texts).toEqual([
      ['style', 'a{b:url(c)}', html.indexOf('a{b'), true],
      ['title', 'a & b', html.indexOf('a &amp;'), false],
      ['title', 'unclosed', html.indexOf('unclosed'), true],
    ]);
  });

  it('gives the same positions and texts however the input is chunked', () => {
    const whole = place([html]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: html.length }), { maxLength: 20 }), (cuts) => {
        const sorted = [...new Set([0, ...cuts, html.length])].sort((a, b) => a - b);
        const chunks = sorted.slice(1).map((end, i) => html.slice(sorted[i], end));
        const got = place(chunks);
        expect(got.attributes).toEqual(whole.attributes);
        expect(got.texts.map(([n, t, o, v]) => [n, t, o, v])).toEqual(whole.texts);
      }),
      { numRuns: 300 },
    );
  });
});
