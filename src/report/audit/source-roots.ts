// Page URLs mapped to the files they are served from, so that a code-scanning tool can
// annotate the HTML line: `http://127.0.0.1:8080/docs/=./site/` maps
// http://127.0.0.1:8080/docs/a/b.html to site/a/b.html, and a URL that ends in "/"
// to its index.html. Paths stay URI references (SARIF §3.4.3 `uri`): the URL's path
// is kept percent-encoded as the index holds it.

import { describeValue, OptionError } from '../../errors.js';
import { resourceKeyOf } from '../../ladder/index.js';

/** One mapping: pages whose URL starts with `urlPrefix` are files under `dir`. */
export interface SourceRoot {
  /** An absolute URL prefix, at the scheme rung as the index keys pages (`http://h:8080/docs/`). */
  readonly urlPrefix: string;
  /** The folder, as a relative (or absolute) URI reference ending in "/" (`site/`), or "" for the current one. */
  readonly dir: string;
}

/** The file a directory URL ("…/") is served from. */
export const DIRECTORY_INDEX = 'index.html';

/**
 * Read `<URL prefix>=<dir>`, split at the first "=" (a URL prefix with "=" in it
 * cannot be mapped). Throws `OptionError` when either side is missing or the prefix
 * is not an absolute URL.
 */
export function parseSourceRoot(text: string): SourceRoot {
  const at = typeof text === 'string' ? text.indexOf('=') : -1;
  if (at <= 0) {
    throw new OptionError(`Expected a source root as <URL prefix>=<dir> (e.g. http://127.0.0.1:8080/docs/=./site/), got ${describeValue(text)}`);
  }
  const prefix = text.slice(0, at);
  const key = resourceKeyOf(prefix);
  if (key === undefined || !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(prefix)) {
    throw new OptionError(`Expected the source root's URL prefix to be an absolute URL, got ${describeValue(prefix)}`);
  }
  // The scheme-rung key of "http://h" is "http://h/": keep the prefix's own end.
  const urlPrefix = key.endsWith('/') && !prefix.endsWith('/') ? key.slice(0, -1) : key;
  return { urlPrefix, dir: folderReference(text.slice(at + 1)) };
}

/** `dir` as a URI reference ending in "/": backslashes as "/", "./" dropped, other characters percent-encoded. */
function folderReference(dir: string): string {
  let path = dir.replaceAll('\\', '/');
  while (path.startsWith('./')) path = path.slice(2);
  if (path === '.' || path === '') return '';
  if (!path.endsWith('/')) path += '/';
  return encodeURI(path);
}

/**
 * The file `page` is served from under the longest matching root, or `undefined`.
 * A prefix not ending in "/" matches at a segment boundary only ("…/docs" matches
 * "…/docs/a" and "…/docs", not "…/docs2").
 */
export function sourceFileOf(page: string, roots: readonly SourceRoot[]): string | undefined {
  let best: SourceRoot | undefined;
  for (const root of roots) {
    if (!isUnder(page, root.urlPrefix)) continue;
    if (best === undefined || root.urlPrefix.length > best.urlPrefix.length) best = root;
  }
  if (best === undefined) return undefined;
  let rest = page.slice(best.urlPrefix.length);
  const end = rest.search(/[?#]/);
  if (end !== -1) rest = rest.slice(0, end);
  if (rest.startsWith('/')) rest = rest.slice(1);
  if (rest === '' || rest.endsWith('/')) rest += DIRECTORY_INDEX;
  return best.dir + rest;
}

function isUnder(page: string, prefix: string): boolean {
  if (!page.startsWith(prefix)) return false;
  if (prefix.endsWith('/') || page.length === prefix.length) return true;
  const next = page[prefix.length];
  return next === '/' || next === '?' || next === '#';
}
