import { SaxesParser } from 'saxes';
import { describe, expect, test } from 'vitest';
import { formatCheckJunit } from '../../../src/report/check/index.js';
import { BROKEN, checkFinding, HOSTILE, LIVE, NO_LINE, REDIRECT, UNVERIFIED } from './check-findings.js';

interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

/** The document parsed back by a conforming XML 1.0 parser: any well-formedness error throws. */
function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser();
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const element: XmlElement = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, children: [], text: '' };
    stack.at(-1)?.children.push(element);
    root ??= element;
    stack.push(element);
  });
  parser.on('text', (text) => {
    const top = stack.at(-1);
    if (top !== undefined) top.text += text;
  });
  parser.on('closetag', () => stack.pop());
  parser.write(xml).close();
  if (root === undefined) throw new Error('no root element');
  return root;
}

function suiteOf(xml: string): XmlElement {
  const root = parseXml(xml);
  expect(root.name).toBe('testsuites');
  expect(root.children.map((c) => c.name)).toEqual(['testsuite']);
  return root.children[0]!;
}

function cases(suite: XmlElement): XmlElement[] {
  return suite.children.filter((c) => c.name === 'testcase');
}

function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c) => c.name === name);
}

describe('formatCheckJunit', () => {
  test('one test case per checked file; those without findings pass; counts on the suite and the root', () => {
    const xml = formatCheckJunit([BROKEN, UNVERIFIED, REDIRECT], { checkedFiles: ['index.html', 'docs/guide.md', 'about.md'], toolVersion: '1.2.3', seconds: 1.5 });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    const root = parseXml(xml);
    const suite = suiteOf(xml);
    expect(root.attributes).toEqual({ name: 'linkladder check', tests: '3', failures: '1', errors: '0', time: '1.5' });
    expect(suite.attributes).toEqual({ name: 'linkladder check', tests: '3', failures: '1', errors: '0', skipped: '0', time: '1.5' });
    expect(child(suite, 'properties')?.children[0]?.attributes).toEqual({ name: 'linkladder.version', value: '1.2.3' });
    const [index, guide, about] = cases(suite);
    expect(cases(suite).map((c) => [c.attributes['name'], c.attributes['file'], c.attributes['classname']])).toEqual([
      ['index.html', 'index.html', 'linkladder.check'],
      ['docs/guide.md', 'docs/guide.md', 'linkladder.check'],
      ['about.md', 'about.md', 'linkladder.check'],
    ]);
    // A warning below --fail-on is output, not a failure.
    expect(child(index!, 'failure')).toBeUndefined();
    expect(child(index!, 'system-out')?.text).toBe('line 12: warning LINK_REDIRECT "/old" → file:///site/old: ' + REDIRECT.message);
    const failure = child(guide!, 'failure');
    expect(failure?.attributes).toEqual({
      type: 'LINK_BROKEN',
      message: '1 finding at or above error: "../missing.md" → file:///site/missing.md: the target answered 404',
    });
    expect(failure?.text).toBe('line 3, column 5: error LINK_BROKEN (broken) "../missing.md" → file:///site/missing.md: the target answered 404');
    expect(child(guide!, 'system-out')?.text).toBe('line 9, column 1: warning LINK_UNVERIFIED (unverified) "https://slow.example/": the target did not answer in time');
    // The XSD order: the failure before the output.
    expect(guide!.children.map((c) => c.name)).toEqual(['failure', 'system-out']);
    expect(about!.children).toEqual([]);
  });

  test('--fail-on warning: warnings fail their test case too, all listed in one failure in line order', () => {
    const suite = suiteOf(formatCheckJunit([UNVERIFIED, BROKEN], { checkedFiles: ['docs/guide.md'], failOn: 'warning' }));
    const [guide] = cases(suite);
    expect(suite.attributes['failures']).toBe('1');
    expect(child(guide!, 'failure')?.attributes['type']).toBe('LINK_BROKEN LINK_UNVERIFIED');
    expect(child(guide!, 'failure')?.attributes['message']).toBe('2 findings at or above warning: LINK_BROKEN LINK_UNVERIFIED');
    expect(child(guide!, 'failure')?.text.split('\n').map((line) => line.slice(0, 6))).toEqual(['line 3', 'line 9']);
    expect(child(guide!, 'system-out')).toBeUndefined();
  });

  test('commas, colons, percent, quotes, markup, newlines and controls survive escaping; what XML 1.0 forbids becomes U+FFFD', () => {
    const xml = formatCheckJunit([HOSTILE], { checkedFiles: [] });
    const [hostile] = cases(suiteOf(xml));
    expect(hostile!.attributes['name']).toBe(HOSTILE.file);
    expect(hostile!.attributes['file']).toBe(HOSTILE.file);
    const failure = child(hostile!, 'failure')!;
    const message = HOSTILE.message.replace(/[\u0000\u0001\uFFFE]/g, '\uFFFD');
    expect(failure.text).toBe(`line 7, column 2: error LINK_BROKEN (broken) ${JSON.stringify(HOSTILE.rawHref)} → ${HOSTILE.target}: ${message}`);
    expect(failure.attributes['message']).toContain(message);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\uFFFE\uFFFF]/);
    expect(xml).not.toContain('<script>');
  });

  test('a lone surrogate and a CR in a file name come back as U+FFFD and CR', () => {
    const f = checkFinding({ code: 'LINK_BROKEN', file: 'a\uD800b\rc.md', message: 'm', page: 'file:///x' });
    const [only] = cases(suiteOf(formatCheckJunit([f], { checkedFiles: [] })));
    expect(only!.attributes['name']).toBe('a\uFFFDb\rc.md');
  });

  test('live pages are test cases named by URL, with no file attribute; unicode stays as it is', () => {
    const page = 'https://example.org/ok/';
    const suite = suiteOf(formatCheckJunit([LIVE], { checkedFiles: [page, LIVE.page!] }));
    expect(cases(suite).map((c) => c.attributes)).toEqual([
      { classname: 'linkladder.check', name: page, time: '0' },
      { classname: 'linkladder.check', name: 'https://example.org/über/', time: '0' },
    ]);
    expect(child(cases(suite)[1]!, 'failure')?.text).toContain('"naïve/😀.html"');
  });

  test('a finding without a line, a site-wide finding, and a finding on a page not listed get their test cases', () => {
    const site = checkFinding({ code: 'SITE_SOMETHING', severity: 'info', message: 'about the whole site' });
    const suite = suiteOf(formatCheckJunit([site, NO_LINE], { checkedFiles: ['docs/guide.md'] }));
    expect(cases(suite).map((c) => [c.attributes['name'], c.attributes['file']])).toEqual([
      ['docs/guide.md', 'docs/guide.md'],
      ['(the site as a whole)', undefined],
      ['index.html', 'index.html'],
    ]);
    expect(child(cases(suite)[1]!, 'system-out')?.text).toBe('info SITE_SOMETHING about the whole site');
    expect(child(cases(suite)[2]!, 'failure')?.text).toBe(`error LINK_FRAGMENT_MISSING (broken) "#nowhere" → ${NO_LINE.target}: ${NO_LINE.message}`);
  });

  test('no findings and nothing checked: an empty suite that still parses', () => {
    const suite = suiteOf(formatCheckJunit([], { checkedFiles: [] }));
    expect(suite.attributes).toMatchObject({ tests: '0', failures: '0' });
    expect(cases(suite)).toEqual([]);
  });

  test('options are checked once, with the usual message', () => {
    expect(() => formatCheckJunit([], { checkedFiles: 'a.md' as unknown as string[] })).toThrow('Expected `checkedFiles` to be an array of strings, got `a.md` (string)');
    expect(() => formatCheckJunit([], { checkedFiles: [], failOn: 'fatal' as 'error' })).toThrow('Expected `failOn` to be one of error, warning, info, got `fatal` (string)');
    expect(() => formatCheckJunit([], { checkedFiles: [], seconds: -1 })).toThrow('Expected `seconds` to be a finite number >= 0, got `-1` (number)');
  });
});
