import { describe, expect, test } from 'vitest';
import { formatCheckMarkdown, GITHUB_COMMENT_MAX_LENGTH, markdownText } from '../../../src/report/check/index.js';
import type { CheckFinding } from '../../../src/report/check/index.js';
import { BROKEN, checkFinding, HOSTILE, LIVE, NO_LINE, REDIRECT, UNVERIFIED } from './check-findings.js';

const COUNTS = { ok: 120, broken: 4, unverified: 1, pages: 14 };

/** Our own tags; any other `<` would be markup from the input. */
const OWN_TAGS = /<\/?(code|em|details|summary)>/g;

function decode(text: string): string {
  return text.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
}

/** A table row's cells, split where GFM splits them: at every `|` (none is escaped, none is in a cell). */
function cells(row: string): string[] {
  expect(row.startsWith('| ') && row.endsWith(' |')).toBe(true);
  return row.slice(2, -2).split(' | ');
}

function rows(markdown: string): string[] {
  return markdown.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Where') && !line.startsWith('| ---'));
}

describe('formatCheckMarkdown', () => {
  test('a verdict line, a table of broken links, unverified ones folded, the rest counted by code', () => {
    const md = formatCheckMarkdown([BROKEN, UNVERIFIED, REDIRECT, NO_LINE], COUNTS);
    expect(md).toBe(
      [
        '### ❌ linkladder check: 4 broken, 1 unverified, 120 ok links on 14 pages',
        '',
        '#### Broken links',
        '',
        '| Where | Link | Target | Why |',
        '| --- | --- | --- | --- |',
        '| <code>docs/guide&#46;md&#58;3</code> | <code>&#46;&#46;/missing&#46;md</code> | <code>file&#58;///site/missing&#46;md</code> | the target answered 404 |',
        '| <code>index&#46;html</code> | <code>&#35;nowhere</code> | <code>file&#58;///site/index&#46;html&#35;nowhere</code> | no element with id or name &#34;nowhere&#34; in the target page |',
        '',
        '<details><summary>1 unverified link (the target could not be verified)</summary>',
        '',
        '| Where | Link | Target | Why |',
        '| --- | --- | --- | --- |',
        '| <code>docs/guide&#46;md&#58;9</code> | <code>https&#58;//slow&#46;example/</code> | <code>https&#58;//slow&#46;example/</code> | the target did not answer in time |',
        '',
        '</details>',
        '',
        'Other findings: LINK_REDIRECT × 1 (warning).',
        '',
      ].join('\n'),
    );
  });

  test('✅ when nothing is at or above --fail-on; ❌ for a warning under --fail-on warning', () => {
    expect(formatCheckMarkdown([UNVERIFIED], { ok: 3, broken: 0, unverified: 1 }).split('\n')[0]).toBe('### ✅ linkladder check: 0 broken, 1 unverified, 3 ok links');
    expect(formatCheckMarkdown([UNVERIFIED], { ok: 1, broken: 0, unverified: 1, failOn: 'warning' }).split('\n')[0]).toBe('### ❌ linkladder check: 0 broken, 1 unverified, 1 ok link');
  });

  test('no findings: the verdict line alone', () => {
    expect(formatCheckMarkdown([], { ok: 0, broken: 0, unverified: 0, pages: 1 })).toBe('### ✅ linkladder check: 0 broken, 0 unverified, 0 ok links on 1 page\n');
  });

  test('pipes, backticks, newlines, HTML, Markdown and autolink punctuation, controls: each cell is literal text on one line', () => {
    const md = formatCheckMarkdown([HOSTILE, LIVE], COUNTS);
    const [hostile, live] = rows(md);
    for (const row of [hostile!, live!]) {
      expect(cells(row)).toHaveLength(4);
      expect(row.replace(OWN_TAGS, '')).not.toMatch(/[<>`*_[\]\\$:@.]/);
    }
    const [where, link, target, why] = cells(hostile!).map((cell) => decode(cell.replace(OWN_TAGS, '')));
    expect(where).toBe('a,b/c:d 100% .md:7');
    expect(link).toBe('x|y`z`<b>&"\' %0A*_[l](u)\\u{7}\\u{202e}');
    expect(target).toBe(HOSTILE.target);
    expect(why).toBe('line one line two, 50% done: <script>alert(1)</script> \\u{0}\\u{1}\uFFFE end');
    expect(md).not.toContain('<script>');
    expect(md).not.toContain('<b>');
    // Unicode is kept; the live page (no file) is named by its URL.
    expect(cells(live!).map((cell) => decode(cell.replace(OWN_TAGS, '')))).toEqual([
      'https://example.org/über/:40',
      'naïve/😀.html',
      LIVE.target,
      'the target answered 404',
    ]);
  });

  test('other findings are counted by code, in the order met; a code of no catalog shape is escaped', () => {
    const odd = checkFinding({ code: '<b>X|Y</b>', severity: 'info', message: 'm' });
    const md = formatCheckMarkdown([REDIRECT, odd, REDIRECT], COUNTS);
    expect(md.split('\n').at(-2)).toBe('Other findings: LINK_REDIRECT × 2 (warning), &#60;b&#62;X&#124;Y&#60;/b&#62; × 1 (info).');
    expect(md.split('\n')[0]).toBe('### ✅ linkladder check: 4 broken, 1 unverified, 120 ok links on 14 pages');
  });

  test('an empty href is shown as such; a missing target leaves its cell empty', () => {
    const f = checkFinding({ code: 'LINK_BROKEN', file: 'a.md', rawHref: '', verdict: 'broken', message: 'm' });
    expect(rows(formatCheckMarkdown([f], COUNTS))).toEqual(['| <code>a&#46;md</code> | <em>(empty)</em> |  | m |']);
  });

  test('a kilobyte-long href is cut in its cell, on a character boundary', () => {
    const long = '😀'.repeat(1000);
    const f = checkFinding({ code: 'LINK_BROKEN', file: 'a.md', rawHref: long, verdict: 'broken', message: 'm' });
    const link = cells(rows(formatCheckMarkdown([f], COUNTS))[0]!)[1]!;
    expect(link).toBe(`<code>${'😀'.repeat(199)}…</code>`);
  });

  test("stays within a GitHub comment's 65,536 characters, saying how many rows were left out", () => {
    const many = (verdict: 'broken' | 'unverified', n: number): CheckFinding[] =>
      Array.from({ length: n }, (_, i) =>
        checkFinding({ code: 'LINK_BROKEN', verdict, file: `docs/page-${String(i).padStart(5, '0')}.md`, line: i + 1, rawHref: `../x/${i}|y.md`, target: `file:///site/x/${i}|y.md`, message: 'the target answered 404' }),
      );
    const md = formatCheckMarkdown([...many('broken', 3000), ...many('unverified', 500)], { ok: 1, broken: 3000, unverified: 500 });
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_MAX_LENGTH);
    expect(md.length).toBeGreaterThan(GITHUB_COMMENT_MAX_LENGTH - 400);
    const shown = rows(md).length;
    expect(md).toContain(`_…and ${3000 - shown} more broken links not shown: the summary would be too long._`);
    expect(md).toContain('<details><summary>500 unverified links (the target could not be verified)</summary>\n\n_…and 500 more unverified links not shown');
    expect(md.trimEnd().endsWith('</details>')).toBe(true);
    // Broken links first, in file order.
    expect(decode(cells(rows(md)[0]!)[0]!.replace(OWN_TAGS, ''))).toBe('docs/page-00000.md:1');

    const small = formatCheckMarkdown([...many('broken', 3), ...many('unverified', 500)], { ok: 1, broken: 3, unverified: 500, maxLength: 4000 });
    expect(small.length).toBeLessThanOrEqual(4000);
    expect(rows(small).length).toBeGreaterThan(3);
    expect(small).not.toContain('more broken links');
    expect(small).toMatch(/_…and \d+ more unverified links not shown/);
    expect(small.trimEnd().endsWith('</details>')).toBe(true);
  });

  test('the counts are checked', () => {
    expect(() => formatCheckMarkdown([], { ok: -1, broken: 0, unverified: 0 })).toThrow('Expected `ok` to be an integer >= 0, got `-1` (number)');
    expect(() => formatCheckMarkdown([], { ok: 0, broken: 0, unverified: 0, maxLength: 10 })).toThrow('Expected `maxLength` to be an integer >= 1024, got `10` (number)');
  });
});

describe('markdownText', () => {
  test('plain words stay as they are', () => {
    expect(markdownText('the target answered 404, see /docs?x=1;y=2 - 100%')).toBe('the target answered 404, see /docs?x=1;y=2 - 100%');
  });
});
