// The targets of `check` made into roots and seeds: folders (each its own origin),
// files and globs under one root, --site-url and --map, and what is refused.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILES_ORIGIN, TargetError, localOrigin, pageUrl, planCheck } from '../../src/cli/check-targets.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-targets-'));
const put = (file: string, text = 'x'): void => {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
};
const options = { cwd: dir, indexFiles: ['index.html', 'index.htm'] };

beforeAll(() => {
  put('a/index.html');
  put('a/sub/index.htm');
  put('a/x y@1.html');
  put('a/.git/HEAD.html');
  put('a/notes.txt');
  put('b/page.md');
  put('docs/one.md');
  put('docs/two.markdown');
  put('docs/skip.txt');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('planCheck', () => {
  it('gives each folder its own .invalid origin, every page a seed, an index file by its folder', async () => {
    const plan = await planCheck(['a', 'b'], options);
    expect(plan.roots.map((r) => [r.prefix, path.relative(dir, r.dir)]).sort()).toEqual([
      ['http://site.invalid/', 'a'],
      ['http://site2.invalid/', 'b'],
    ]);
    expect(plan.seeds).toEqual(['http://site.invalid/', 'http://site.invalid/sub/', 'http://site.invalid/x%20y@1.html', 'http://site2.invalid/page.md']);
    expect(plan.givenFiles).toBeUndefined();
  });

  it('takes a folder of Markdown only, or files given, as a repository\'s (a folder is a page there)', async () => {
    expect((await planCheck(['docs'], options)).isRepository).toBe(true);
    expect((await planCheck(['a'], options)).isRepository).toBe(false);
    expect((await planCheck(['a', 'docs/one.md'], options)).isRepository).toBe(true);
  });

  it('publishes the one folder at --site-url, with a trailing slash', async () => {
    const plan = await planCheck(['a'], { ...options, siteUrl: 'https://example.com/docs' });
    expect(plan.roots[0]!.prefix).toBe('https://example.com/docs/');
    expect(plan.seeds[0]).toBe('https://example.com/docs/');
  });

  it('reads files and globs under the root, and names them as given', async () => {
    const plan = await planCheck(['docs/*', 'b/page.md'], options);
    expect(plan.seeds).toEqual([`${FILES_ORIGIN}docs/one.md`, `${FILES_ORIGIN}docs/two.markdown`, `${FILES_ORIGIN}b/page.md`]);
    expect([...plan.givenFiles!].map((f) => path.relative(dir, f))).toEqual(['docs/one.md', 'docs/two.markdown', 'b/page.md']);
    expect(plan.hasFileTargets).toBe(true);
  });

  it('adds --map roots, longest prefix first', async () => {
    const plan = await planCheck(['a'], { ...options, maps: ['https://example.com/=b', 'https://example.com/docs/=docs'] });
    expect(plan.roots.map((r) => r.prefix)).toEqual(['https://example.com/docs/', 'http://site.invalid/', 'https://example.com/']);
    expect([...plan.mapPrefixes]).toEqual(['https://example.com/', 'https://example.com/docs/']);
  });

  it.each([
    [['missing'], /no such file or folder/],
    [['a/notes.txt'], /not an \.html/],
    [['mailto:x@example.com'], /only http and https/],
    [['docs/*.txt'], /matches no/],
  ])('refuses %j', async (targets, message) => {
    await expect(planCheck(targets, options)).rejects.toThrow(message);
    await expect(planCheck(targets, options)).rejects.toBeInstanceOf(TargetError);
  });

  it('refuses --site-url for no folder or two, a file outside --root, a --map without a folder', async () => {
    await expect(planCheck(['a', 'b'], { ...options, siteUrl: 'https://example.com/' })).rejects.toThrow(/2 folders/);
    await expect(planCheck(['docs/one.md'], { ...options, root: 'a' })).rejects.toThrow(/outside the root/);
    await expect(planCheck(['a'], { ...options, maps: ['https://example.com/=nowhere'] })).rejects.toThrow(/not a folder/);
    await expect(planCheck(['a'], { ...options, maps: ['example.com=b'] })).rejects.toThrow(/expected <URL prefix>=<folder>/);
  });
});

describe('pageUrl', () => {
  it('keeps what a path segment may hold, encodes the rest', () => {
    expect(pageUrl('http://site.invalid/', '/s', '/s/a b/c#d?.html', [])).toBe('http://site.invalid/a%20b/c%23d%3F.html');
    expect(pageUrl('http://site.invalid/', '/s', '/s/a:b@c,d;e=f+g$&.html', [])).toBe('http://site.invalid/a:b@c,d;e=f+g$&.html');
    expect(pageUrl('http://site.invalid/', '/s', '/s/dir/index.html', ['index.html'])).toBe('http://site.invalid/dir/');
  });

  it('names the folders of several targets apart', () => {
    expect([0, 1, 2].map(localOrigin)).toEqual(['http://site.invalid/', 'http://site2.invalid/', 'http://site3.invalid/']);
  });
});
