import { describe, expect, test } from 'vitest';
import { formatCheckGithub, githubCommand } from '../../../src/report/check/index.js';
import { BROKEN, checkFinding, HOSTILE, LIVE, NO_LINE, REDIRECT, UNVERIFIED } from './check-findings.js';

interface WorkflowCommand {
  readonly command: string;
  readonly properties: Readonly<Record<string, string>>;
  readonly message: string;
}

// As the runner reads a line (actions/runner ActionCommand.TryParseV2): `::name props::data`,
// properties split at `,` and `=`, then unescaped, `%25` last.
function unescape(text: string, isProperty: boolean): string {
  let out = text.replaceAll('%0D', '\r').replaceAll('%0A', '\n');
  if (isProperty) out = out.replaceAll('%3A', ':').replaceAll('%2C', ',');
  return out.replaceAll('%25', '%');
}

function readCommand(line: string): WorkflowCommand {
  expect(line.startsWith('::')).toBe(true);
  const end = line.indexOf('::', 2);
  expect(end).toBeGreaterThan(2);
  const head = line.slice(2, end);
  const space = head.indexOf(' ');
  const command = space === -1 ? head : head.slice(0, space);
  const properties: Record<string, string> = {};
  if (space !== -1) {
    for (const pair of head.slice(space + 1).split(',')) {
      const eq = pair.indexOf('=');
      properties[pair.slice(0, eq)] = unescape(pair.slice(eq + 1), true);
    }
  }
  return { command, properties, message: unescape(line.slice(end + 2), false) };
}

describe('formatCheckGithub', () => {
  test('one workflow command per finding: file, line, col and the code as title', () => {
    expect(formatCheckGithub([BROKEN, UNVERIFIED, REDIRECT])).toBe(
      [
        '::error file=docs/guide.md,line=3,col=5,title=LINK_BROKEN::"../missing.md" → file:///site/missing.md: the target answered 404',
        '::warning file=docs/guide.md,line=9,col=1,title=LINK_UNVERIFIED::"https://slow.example/": the target did not answer in time',
        `::warning file=index.html,line=12,title=LINK_REDIRECT::"/old" → file:///site/old: ${REDIRECT.message}`,
        '',
      ].join('\n'),
    );
  });

  test('no findings: no output', () => {
    expect(formatCheckGithub([])).toBe('');
  });

  test('severities: at or above --fail-on is an error; below, a warning stays a warning and info is a notice', () => {
    const info = checkFinding({ code: 'LINK_COULD_BE_RELATIVE', severity: 'info', file: 'a.md', message: 'm' });
    expect([BROKEN, UNVERIFIED, info].map((f) => readCommand(githubCommand(f)).command)).toEqual(['error', 'warning', 'notice']);
    expect([BROKEN, UNVERIFIED, info].map((f) => readCommand(githubCommand(f, 'warning')).command)).toEqual(['error', 'error', 'notice']);
    expect([BROKEN, UNVERIFIED, info].map((f) => readCommand(githubCommand(f, 'info')).command)).toEqual(['error', 'error', 'error']);
  });

  test("GitHub's escaping: %, CR and LF in the message; also : and , in properties; the runner reads back the file as it is", () => {
    const line = githubCommand(HOSTILE);
    expect(line).not.toMatch(/[\r\n]/);
    expect(line.startsWith('::error file=a%2Cb/c%3Ad 100%25%0A.md,line=7,col=2,title=LINK_BROKEN::')).toBe(true);
    const read = readCommand(line);
    expect(read.properties).toEqual({ file: HOSTILE.file, line: '7', col: '2', title: 'LINK_BROKEN' });
    expect(read.message).toContain('line one\nline two, 50% done: <script>alert(1)</script>');
    // The href is JSON-quoted: its CR, LF and BEL stay visible; %0A in it is not a line break.
    expect(read.message).toContain('"x|y`z`<b>&\\"\'\\r\\n%0A*_[l](u)\\u0007');
    // Controls and bidi overrides are shown, not obeyed.
    expect(read.message).toContain('\\u{202e}');
    expect(read.message).toContain('\\u{0}\\u{1}');
    expect(read.message).not.toMatch(/[\u0000-\u0008\u202e]/);
  });

  test('a live page has no file to annotate: no file, line or col; the message names the page and the position', () => {
    const read = readCommand(githubCommand(LIVE));
    expect(read.properties).toEqual({ title: 'LINK_BROKEN' });
    expect(read.message).toBe(`https://example.org/über/ (line 40, column 8): "naïve/😀.html" → ${LIVE.target}: the target answered 404`);
  });

  test('a finding with a file but no line annotates the file; a site-wide one names the site', () => {
    expect(githubCommand(NO_LINE)).toBe(`::error file=index.html,title=LINK_FRAGMENT_MISSING::"#nowhere" → ${NO_LINE.target}: ${NO_LINE.message}`);
    const site = checkFinding({ code: 'SITE_X', severity: 'warning', message: 'about, the site: 100%' });
    expect(githubCommand(site)).toBe('::warning title=SITE_X::(the site as a whole): about, the site: 100%25');
  });

  test('a line without a column, and a message without an href', () => {
    const f = checkFinding({ code: 'PAGE_X', file: 'a.md', line: 4, message: 'plain' });
    expect(githubCommand(f)).toBe('::error file=a.md,line=4,title=PAGE_X::plain');
  });

  test('--fail-on is checked', () => {
    expect(() => formatCheckGithub([], { failOn: 'none' as 'error' })).toThrow('Expected `failOn` to be one of error, warning, info, got `none` (string)');
  });
});
