// Where two URLs differ, as whole segments: `/manual/de/x.html.en` and
// `/manual/x.html.en` differ in the prefixes `/manual/de/` ↔ `/manual/` and share
// `x.html.en`. What DUPLICATE_REPRESENTATION reports, and the shape of
// a rewrite rule between URL prefixes (DUST). Pure: strings in, strings out.

/** The two prefixes two URLs differ in, and the suffix they share. */
export interface UrlDifference {
  /** The start of the first URL, up to the shared suffix: its path from `/` (the whole URL when the origins differ). */
  readonly from: string;
  /** The start of the second URL, likewise. */
  readonly to: string;
  /**
   * What both URLs end with: whole segments, starting after a `/` (or at `?`, `#`);
   * `''` when their last segments differ.
   */
  readonly suffix: string;
}

// RFC 3986 Appendix B: a URI reference's components by regular expression.
// https://www.rfc-editor.org/rfc/rfc3986#appendix-B
const COMPONENTS = /^(([^:/?#]+):)?(\/\/([^/?#]*))?([^?#]*)(\?[^#]*)?(#.*)?$/s;

/**
 * The segment-aligned prefixes in which `a` and `b` differ and the suffix they share;
 * `undefined` when they are the same string. The prefixes keep the path from its
 * start (`/manual/de/`, not `de/`) and the shared suffix never takes the path's first
 * segment, so a prefix is never empty for an absolute path; the scheme and authority
 * are part of the prefixes only when they differ.
 */
export function urlDifference(a: string, b: string): UrlDifference | undefined {
  if (a === b) return undefined;
  const x = partsOf(a);
  const y = partsOf(b);
  let shared = 0;
  const most = Math.min(x.tokens.length, y.tokens.length) - 1;
  while (shared < most && x.tokens[x.tokens.length - 1 - shared] === y.tokens[y.tokens.length - 1 - shared]) shared++;
  const sameOrigin = x.origin === y.origin;
  const start = (parts: UriParts): string => (sameOrigin ? '' : parts.origin) + parts.tokens.slice(0, parts.tokens.length - shared).join('');
  return { from: start(x), to: start(y), suffix: x.tokens.slice(x.tokens.length - shared).join('') };
}

interface UriParts {
  /** `scheme:` and `//authority`, as written. */
  readonly origin: string;
  /** The path's segments, each with the `/` that ends it, then `?query` and `#fragment` when present. */
  readonly tokens: readonly string[];
}

function partsOf(uri: string): UriParts {
  const match = COMPONENTS.exec(uri);
  // The expression matches every string; the guard is for the type checker.
  if (match === null) return { origin: '', tokens: [uri] };
  const segments = (match[5] ?? '').split('/');
  const tokens = segments.map((segment, i) => (i < segments.length - 1 ? `${segment}/` : segment));
  if (match[6] !== undefined) tokens.push(match[6]);
  if (match[7] !== undefined) tokens.push(match[7]);
  return { origin: (match[1] ?? '') + (match[3] ?? ''), tokens };
}
