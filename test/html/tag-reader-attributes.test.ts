import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NameTable } from '../../src/html/name-table.js';
import { TagReader } from '../../src/html/tag-reader.js';

type Tag = readonly [string, Record<string, string>, number];

function startTags(chunks: readonly string[], attributes?: NameTable): Tag[] {
  const tags: Tag[] = [];
  const reader = new TagReader(
    {
      onStartTag: (name, map, offset) => tags.push([name, Object.fromEntries(map), offset]),
      onEndTag: () => {},
      onText: () => {},
    },
    attributes === undefined ? {} : { attributes },
  );
  for (const chunk of chunks) reader.write(chunk);
  reader.end();
  return tags;
}

const pick = (tags: readonly Tag[], names: readonly string[]): Tag[] =>
  tags.map(([name, map, offset]) => [name, Object.fromEntries(Object.entries(map).filter(([key]) => names.includes(key))), offset]);

describe('TagReader: the attributes option', () => {
  const wanted = ['href', 'id', 'src'];
  const table = new NameTable(wanted);
  const html =
    '<DIV CLASS=x ID="d&amp;1" class=y id=z><a title="t&lt;" Href=/a hRef=/b data-\u212A=k><IMG SRC=i.png alt><svg><title id=t></svg>' +
    '<p cla\u212Ass=c \u212Aid=q><a href=\'/&eacute;\'';

  it('reports only the attributes asked for, the first of duplicates, as the unfiltered reader does', () => {
    const all = startTags([html]);
    expect(startTags([html], table)).toEqual(pick(all, wanted));
    expect(startTags([html], table)[0]).toEqual(['div', { id: 'd&1' }, 0]);
  });

  it('gives the same tags however the input is chunked', () => {
    const whole = startTags([html], table);
    expect(startTags(html.split(''), table)).toEqual(whole);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: html.length }), { maxLength: 20 }), (cuts) => {
        const points = [0, ...[...cuts].sort((a, b) => a - b), html.length];
        expect(startTags(points.slice(1).map((end, i) => html.slice(points[i], end)), table)).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });
});
