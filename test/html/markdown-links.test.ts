import fc from 'fast-check';
import { decodeString } from 'micromark-util-decode-string';
import { describe, expect, it } from 'vitest';
import { createMarkdownExtractor, extractLinks, extractMarkdownLinks, LineIndex, type ExtractedLinks } from '../../src/html/index.js';

/** Each reference as `element attribute raw @line:column`. */
function placed(markdown: string, extracted: ExtractedLinks = extractMarkdownLinks(markdown)): string[] {
  const lines = new LineIndex(markdown);
  return extracted.references.map((r) => {
    const { line, column } = lines.position(r.valueOffset);
    return `${r.element} ${r.attribute} ${r.raw} @${line}:${column}`;
  });
}

/** `@line:column` of the n-th (0-based) occurrence of `written` in the text, counted by hand-free search. */
function at(markdown: string, written: string, nth = 0): string {
  let index = -1;
  for (let i = 0; i <= nth; i++) index = markdown.indexOf(written, index + 1);
  expect(index, written).toBeGreaterThanOrEqual(0);
  const { line, column } = new LineIndex(markdown).position(index);
  return `@${line}:${column}`;
}

describe('extractMarkdownLinks', () => {
  it('reads inline links and images, with the destination as the Markdown means it, placed where it is written', () => {
    const md = [
      '# Title',
      '',
      'See [the guide](./guide.md#setup "Guide") and ![logo](img/logo.png).',
      'An [escaped](a\\(b\\).md) one, an [entity](a&amp;b.md), a [pointy](<my file.md>) one.',
      '  Indented [x](../up.md).',
    ].join('\n');
    expect(placed(md)).toEqual([
      `a href ./guide.md#setup ${at(md, './guide.md')}`,
      `img src img/logo.png ${at(md, 'img/logo')}`,
      `a href a(b).md ${at(md, 'a\\(b')}`,
      `a href a&b.md ${at(md, 'a&amp;b')}`,
      `a href my file.md ${at(md, 'my file')}`,
      `a href ../up.md ${at(md, '../up')}`,
    ]);
    expect(at(md, './guide.md')).toBe('@3:17');
    const links = extractMarkdownLinks(md).references;
    expect(links.map((r) => [r.kind, r.isFollowed])).toEqual([
      ['navigation', true],
      ['resource', false],
      ['navigation', true],
      ['navigation', true],
      ['navigation', true],
      ['navigation', true],
    ]);
    expect(links[0]!.offset).toBe(md.indexOf('[the guide]'));
  });

  it('records a definition once, at its destination, used or not; an undefined reference is text', () => {
    const md = [
      'A [full][Ref], a [collapsed][], a [shortcut] and [ref] again, and [nowhere][none].',
      'An image ![pic][p].',
      '',
      '[ref]: https://example.com/ref',
      '[collapsed]: <./c d.md> "title"',
      '[shortcut]: s.md',
      '[REF]: https://example.com/second-definition-ignored',
      '[p]: pic.png',
      '[unused]: https://example.com/unused',
    ].join('\n');
    expect(placed(md)).toEqual([
      `a href https://example.com/ref ${at(md, 'https://example.com/ref')}`,
      `a href ./c d.md ${at(md, './c d')}`,
      `a href s.md ${at(md, 's.md')}`,
      `img src pic.png ${at(md, 'pic.png')}`,
      `a href https://example.com/unused ${at(md, 'https://example.com/unused')}`,
    ]);
  });

  it('reads autolinks, GFM literal autolinks (www. as http://) and e-mail autolinks as mailto:', () => {
    const md = 'Go <https://a.example/x?y=1> or www.b.example/path or https://c.example/z. Mail <me@d.example> or you@e.example.';
    expect(placed(md)).toEqual([
      `a href https://a.example/x?y=1 ${at(md, 'https://a.')}`,
      `a href http://www.b.example/path ${at(md, 'www.b')}`,
      `a href https://c.example/z ${at(md, 'https://c.')}`,
      `a href mailto:me@d.example ${at(md, 'me@')}`,
      `a href mailto:you@e.example ${at(md, 'you@')}`,
    ]);
  });

  it('reads nothing in code spans, indented code and fenced code', () => {
    const md = [
      'Text `[a](in-span.md)` here.',
      '',
      '    [b](indented.md)',
      '',
      '```md',
      '[c](fenced.md) <https://fenced.example> <a href="fenced.html">',
      '```',
      '',
      '~~~',
      '# not a heading',
      '~~~',
      '[d](real.md)',
    ].join('\n');
    expect(placed(md)).toEqual(['a href real.md @12:5']);
    expect([...extractMarkdownLinks(md).anchors]).toEqual([]);
  });

  it('reads raw HTML (blocks and inline) with the HTML extractor, offsets in the Markdown, ids and names as anchors', () => {
    const md = [
      'Inline <a href="inline.md" id="here">x</a> and <img src="i.png">.',
      '',
      '<div id="block">',
      '  <a name="old-anchor" href="block.html">y</a>',
      '</div>',
      '',
      '> <p><a href="quoted.md"',
      '> title="t">z</a></p>',
    ].join('\n');
    expect(placed(md)).toEqual([
      `a href inline.md ${at(md, 'inline.md')}`,
      `img src i.png ${at(md, 'i.png')}`,
      `a href block.html ${at(md, 'block.html')}`,
      `a href quoted.md ${at(md, 'quoted.md')}`,
    ]);
    expect([...extractMarkdownLinks(md).anchors].sort()).toEqual(['block', 'here', 'old-anchor']);
  });

  it('ignores <base href> in raw HTML: the base of a Markdown page is its URL', () => {
    const extracted = extractMarkdownLinks('<base href="https://elsewhere.example/">\n\n[a](a.md)\n');
    expect(extracted.base).toBeUndefined();
    expect(extracted.findings).toEqual([]);
    expect(extracted.references.map((r) => r.raw)).toEqual(['a.md']);
  });

  it('gives each heading its GitHub slug: ATX and setext, inline code, links and emphasis by their text, repeats numbered', () => {
    const md = [
      '# Getting Started',
      '## Getting Started',
      'Getting started',
      '===============',
      '### The `run()` *method* and [its options](opts.md)!',
      '#### Ünïcode ✓ héllo',
      '## With ![an image](i.png) alt',
      '## Closing hashes ##',
      'Multi',
      'line',
      '---',
      '## <span>Html</span> text',
    ].join('\n');
    expect([...extractMarkdownLinks(md).anchors]).toEqual([
      'getting-started',
      'getting-started-1',
      'getting-started-2',
      'the-run-method-and-its-options',
      'ünïcode--héllo',
      'with--alt',
      'closing-hashes',
      'multiline',
      'html-text',
    ]);
  });

  it('reads a document in pieces with the same result as whole, an open fence or HTML block read across the cut', () => {
    const block = (i: number): string => `## Part ${i}\n\nA [link ${i}](p${i}.md) and a [ref][r${i % 7}].\n\n`;
    let md = '';
    for (let i = 0; i < 3000; i++) {
      md += block(i);
      if (i === 900) md += '```\n' + '[in fence](no.md)\n\n'.repeat(3000) + '```\n\n';
      if (i === 1800) md += '<!--\n' + '[in comment](no.md)\n\n'.repeat(3000) + '-->\n\n';
      if (i === 2500) md += '<pre>\n' + '<a href="pre.html">x</a>\n\n'.repeat(3000) + '</pre>\n\n';
    }
    for (let r = 0; r < 7; r++) md += `[r${r}]: https://example.com/${r}\n`;
    const extracted = extractMarkdownLinks(md);
    const raws = extracted.references.map((r) => r.raw);
    expect(raws.filter((raw) => raw === 'no.md')).toEqual([]);
    expect(raws.filter((raw) => raw === 'pre.html')).toHaveLength(3000);
    expect(raws.filter((raw) => /^p\d+\.md$/.test(raw))).toHaveLength(3000);
    expect(raws.filter((raw) => raw.startsWith('https://example.com/'))).toHaveLength(7);
    expect(extracted.anchors.size).toBe(3000);
    for (const reference of extracted.references) {
      expect(md.slice(reference.valueOffset, reference.valueOffset + reference.raw.length)).toBe(reference.raw);
    }
    let steps = 0;
    const extractor = createMarkdownExtractor(md);
    while (!extractor.step()) steps++;
    expect(steps).toBeGreaterThan(4);
  });

  it('caps the text it reads with HTML_MARKDOWN_CAPPED, and references with maxReferences (all counted)', () => {
    const md = '[a](a.md) [b](b.md)\n\n[c](c.md)\n';
    const capped = extractMarkdownLinks(md, { maxLength: 12 });
    expect(capped.references.map((r) => r.raw)).toEqual(['a.md']);
    expect(capped.findings).toEqual([{ code: 'HTML_MARKDOWN_CAPPED', offset: 12 }]);
    const counted = extractMarkdownLinks(md, { maxReferences: 2 });
    expect(counted.references.map((r) => r.raw)).toEqual(['a.md', 'b.md']);
    expect(counted.referenceCount).toBe(3);
  });

  it('places links exactly with CRLF line breaks, tabs and a byte order mark', () => {
    const md = '\ufeff# T\r\n\r\n-\t[a](a.md)\r\n> [b](<b c.md>)\r\n\r\n\t[indented](code.md)\r\n';
    expect(placed(md)).toEqual(['a href a.md @3:7', 'a href b c.md @4:8']);
    expect([...extractMarkdownLinks(md).anchors]).toEqual(['t']);
  });

  it('reads deep nesting as text past 32 levels, in bounded time, links still found', () => {
    const md = '> '.repeat(5000) + '[deep](deep.md)\n' + '- '.repeat(5000) + '[list](list.md)\n\n' +
      Array.from({ length: 3000 }, (_, i) => ' '.repeat(i * 2) + `- [n${i}](n${i}.md)`).join('\n');
    const started = performance.now();
    const extracted = extractMarkdownLinks(md);
    expect(performance.now() - started).toBeLessThan(60_000);
    const raws = extracted.references.map((r) => r.raw);
    expect(raws.slice(0, 2)).toEqual(['deep.md', 'list.md']);
    for (const reference of extracted.references) {
      expect(md.slice(reference.valueOffset, reference.valueOffset + reference.raw.length)).toBe(reference.raw);
    }
  });

  it('hostile text is bounded: 100k links on one line, pathological emphasis and brackets, a 10 MB text (capped)', () => {
    const cases: [string, string][] = [
      ['100k links, one line', Array.from({ length: 100_000 }, (_, i) => `[l](/p${i})`).join(' ')],
      ['emphasis', '*a **a _a __a '.repeat(10_000)],
      ['brackets', '[' .repeat(40_000) + 'a' + ']('.repeat(40_000)],
      ['angle brackets', '<a <b <!-- <? <![CDATA[ '.repeat(5_000)],
      ['10 MB', 'word '.repeat(2_000_000)],
    ];
    for (const [name, md] of cases) {
      const started = performance.now();
      let steps = 0;
      const extractor = createMarkdownExtractor(md, { maxReferences: 10 });
      while (!extractor.step()) steps++;
      const extracted = extractor.end();
      expect(performance.now() - started, name).toBeLessThan(150_000);
      // Read a piece per step: the caller's event loop turns between them.
      if (md.length > 1024 * 1024) expect(steps, name).toBeGreaterThan(30);
      expect(extracted.references.length, name).toBeLessThanOrEqual(10);
      expect(extracted.findings.some((f) => f.code === 'HTML_MARKDOWN_CAPPED'), name).toBe(md.length > 1024 * 1024);
      if (name.startsWith('100k')) expect(extracted.referenceCount).toBeGreaterThan(70_000);
    }
  }, 600_000);

  it('property: never throws, and each destination written as is sits at valueOffset (decoded, it is raw)', () => {
    const piece = fc.constantFrom(
      '[', ']', '(', ')', '<', '>', '!', '*', '_', '`', '\\', '&amp;', '&#x41;', '#', '\n', '\n\n', ' ', '\t', '> ', '- ', '1. ',
      '[a](b)', '[a]: c', '[a]', '![i](j.png)', '<https://x.example>', 'www.y.example', 'https://z.example/p', 'm@n.example',
      '```', '~~~', '    ', '<a href="h">', '<!--', '-->', 'x', 'é', '\r\n', '"t"', '\ufeff',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string({ maxLength: 4 })), { maxLength: 40 }), (pieces) => {
        const md = pieces.join('');
        const extracted = extractMarkdownLinks(md);
        for (const r of extracted.references) {
          expect(r.valueOffset).toBeGreaterThanOrEqual(0);
          expect(r.valueOffset).toBeLessThanOrEqual(md.length);
          if (r.raw === '') continue;
          if (md.startsWith(r.raw, r.valueOffset)) continue;
          // E-mail autolinks and GFM www. links: their scheme is not written.
          const unwritten = /^(?:mailto:|http:\/\/(?=www\.))/.exec(r.raw)?.[0];
          if (unwritten !== undefined && md.startsWith(r.raw.slice(unwritten.length), r.valueOffset)) continue;
          // Escapes and character references: some text written from valueOffset on decodes to raw.
          const written = md.slice(r.valueOffset, r.valueOffset + r.raw.length * 10 + 10);
          let decodes = false;
          for (let k = 1; k <= written.length && !decodes; k++) decodes = decodeString(written.slice(0, k)) === r.raw;
          // Raw HTML: an attribute value, character references decoded as HTML does.
          if (!decodes) decodes = extractLinks(`<a href="${written.split('"')[0]}">`).references[0]?.raw === r.raw;
          expect(decodes, `${JSON.stringify(md)} ${JSON.stringify(r)}`).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });
});
