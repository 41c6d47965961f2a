// The ground truth of a static site's links, read from its files rather than
// crawled: every URL attribute of every HTML page under a root folder (and every
// url() of its CSS files), resolved with WHATWG `URL` against the page's URL under
// a prefix, and checked against the file system. For bench/link-check.sh, which
// compares the broken links a checker reports against this list.
//
//   node dist/bench/support/link-truth.js <root dir> <URL prefix of the root>
//
// Prints one line per broken (page, target) pair, tab-separated, sorted: the page's
// URL and the target's URL without fragment. Targets outside the prefix are not
// judged (external). Pages not reachable from the seed are judged too: the bench
// restricts the list to pages the crawl fetched.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Parser } from 'htmlparser2';

/** Attributes that hold one URL (`srcset` is split below). */
const URL_ATTRIBUTES = new Set(['href', 'src', 'poster', 'data', 'background', 'cite', 'action', 'formaction', 'manifest', 'longdesc']);

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else yield full;
  }
}

function referencesOfHtml(text: string): string[] {
  const found: string[] = [];
  const parser = new Parser({
    onopentag: (name, attributes) => {
      for (const [attribute, value] of Object.entries(attributes)) {
        if (URL_ATTRIBUTES.has(attribute) && !(name === 'a' && attribute === 'href' && value.trim() === '')) found.push(value.trim());
        if (attribute === 'srcset') for (const candidate of value.split(',')) found.push(candidate.trim().split(/\s+/)[0] ?? '');
      }
    },
  });
  parser.end(text);
  return found.filter((href) => href !== '');
}

function referencesOfCss(text: string): string[] {
  return [...text.matchAll(/url\(\s*(['"]?)([^'")]+)\1\s*\)|@import\s+(['"])([^'"]+)\3/g)].map((m) => (m[2] ?? m[4] ?? '').trim());
}

/** The file a URL under the prefix names, or undefined when none. */
function fileOf(root: string, prefix: string, url: URL): string | undefined {
  let relative: string;
  try {
    relative = decodeURIComponent(url.pathname.slice(new URL(prefix).pathname.length));
  } catch {
    return undefined;
  }
  const file = path.join(root, relative);
  if (!existsSync(file)) return undefined;
  if (statSync(file).isDirectory()) return existsSync(path.join(file, 'index.html')) ? path.join(file, 'index.html') : undefined;
  return file;
}

function main(): void {
  const [root, prefix] = process.argv.slice(2);
  if (root === undefined || prefix === undefined || !prefix.endsWith('/')) {
    console.error('usage: link-truth <root dir> <URL prefix ending in />');
    process.exit(2);
  }
  const broken = new Set<string>();
  for (const file of filesUnder(root)) {
    const isHtml = /\.html?$/i.test(file);
    if (!isHtml && !/\.css$/i.test(file)) continue;
    const page: string = prefix + path.relative(root, file).split(path.sep).map(encodeURIComponent).join('/');
    const text = readFileSync(file, 'latin1');
    for (const href of isHtml ? referencesOfHtml(text) : referencesOfCss(text)) {
      if (!URL.canParse(href, page)) continue;
      const target: URL = new URL(href, page);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') continue;
      target.hash = '';
      if (!target.href.startsWith(prefix)) continue;
      if (fileOf(root, prefix, target) === undefined) broken.add(`${page}\t${target.href}`);
    }
  }
  for (const line of [...broken].sort()) console.log(line);
}

main();
