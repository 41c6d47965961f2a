// What resolving one reference (RFC 3986 §5.2) against its base says about the
// reference as written: findings for the audit, never exceptions.
// https://www.rfc-editor.org/rfc/rfc3986#section-5.2.4

import { FINDINGS, findingCodesWith, type FindingCode } from '../findings.js';
import { normalizeSyntax, resourceKey } from '../ladder/index.js';
import { hasDotSegments, mergePaths, removeDotSegments, serialize, type AbsoluteUri, type UriReference } from '../uri/index.js';

export type ReferenceFindingCode = Extract<FindingCode, `REF_${string}`>;

/** Every code `referenceFindings` returns, in catalog order (src/findings.ts has their summaries). */
export const REFERENCE_FINDING_CODES: readonly ReferenceFindingCode[] = findingCodesWith('REF_');

/** Each code with its one-line summary (a view of the catalog, not a second registry). */
export const REFERENCE_FINDINGS: Readonly<Record<ReferenceFindingCode, string>> = Object.fromEntries(
  REFERENCE_FINDING_CODES.map((code) => [code, FINDINGS[code].summary]),
) as Record<ReferenceFindingCode, string>;

const SLASH = 0x2f;
const DOT = 0x2e;

/**
 * RFC 3986 §5.2.4 remove_dot_segments, counting instead of rewriting: how many
 * ".." segments of `path` find no segment before them to remove (rule A's leading
 * "../", rule D's lone "..", rule C with an empty output buffer). `/a/../../b` → 1,
 * `../../g` → 2, `/a/b/../../c` → 0. Steps as in `removeDotSegments` (src/uri).
 */
export function countDotSegmentsAboveRoot(path: string): number {
  if (path.indexOf('..') === -1) return 0;
  const n = path.length;
  let above = 0;
  // How many pieces the output buffer holds ("/segment", or a first "segment").
  let depth = 0;
  let i = 0;
  // A. remove each leading "../" or "./"
  for (;;) {
    if (path.startsWith('../', i)) {
      above++;
      i += 3;
    } else if (path.startsWith('./', i)) i += 2;
    else break;
  }
  // D. the input is exactly "." or ".."
  const rest = n - i;
  if (rest === 2 && path.startsWith('..', i)) return above + 1;
  if (rest === 1 && path.charCodeAt(i) === DOT) return above;
  // E. a first segment without a leading "/"
  if (i < n && path.charCodeAt(i) !== SLASH) {
    const end = path.indexOf('/', i);
    depth = 1;
    i = end === -1 ? n : end;
  }
  while (i < n) {
    let end = path.indexOf('/', i + 1);
    if (end === -1) end = n;
    const length = end - i - 1;
    if (length === 1 && path.charCodeAt(i + 1) === DOT) {
      // B. "/./" or a final "/."
    } else if (length === 2 && path.charCodeAt(i + 1) === DOT && path.charCodeAt(i + 2) === DOT) {
      // C. "/../" or a final "/..": the last output segment goes, if there is one
      if (depth === 0) above++;
      else depth--;
    } else {
      // E. "/segment" moves to the output
      depth++;
    }
    i = end;
  }
  return above;
}

/**
 * The path that RFC 3986 §5.2.2 hands to remove_dot_segments when `R` is resolved
 * against `Base` (strict parsing), or `undefined` when it hands none (`R.path` empty
 * and relative: the base path is taken as it is).
 */
export function pathToRemoveDotsFrom(R: UriReference, Base: AbsoluteUri): string | undefined {
  if (R.scheme !== undefined || R.host !== undefined) return R.path;
  if (R.path === '') return undefined;
  // §5.2.3 merge paths for a relative-path reference
  return R.path.charCodeAt(0) === SLASH ? R.path : mergePaths(Base, R.path);
}

/**
 * The findings about reference `R` (a valid URI-reference, cleaned as browsers
 * clean it) resolved against `Base` into `T`, in the order of `REFERENCE_FINDING_CODES`:
 *
 * - `REF_ABOVE_ROOT` when §5.2.4 dropped ".." segments above the root (`../../../g`
 *   from `/b/c/d;p`): the link works by accident, and resolvers that keep the ".."
 *   (RFC 2396 §C.2 allowed it) name another URI.
 * - `REF_FOLDED_SYNTAX` / `REF_FOLDED_SCHEME` when the target as the reference spells
 *   it is not its normal form (§6.2.2–§6.2.3; fragment aside): `%7Euser`, `HTTP://Host`,
 *   `:80`, an empty path. The rung named is the lowest at which the spelling meets
 *   its normal form. A relative-path reference spells its target as resolved (its
 *   dot segments are how it climbs); any other reference spells its own path, so
 *   `/a/./b` and `http://h/x/../y` count (§6.2.2.3) — but the dot segments of a
 *   reference above the root count only as REF_ABOVE_ROOT. Only for http and https.
 *
 * `targetKey`, when given, must be `resourceKey(T)`.
 */
export function referenceFindings(R: UriReference, Base: AbsoluteUri, T: AbsoluteUri, targetKey?: string): ReferenceFindingCode[] {
  const codes: ReferenceFindingCode[] = [];
  const path = pathToRemoveDotsFrom(R, Base);
  const isAboveRoot = path !== undefined && countDotSegmentsAboveRoot(path) > 0;
  if (isAboveRoot) codes.push('REF_ABOVE_ROOT');
  const spelling = spellingOf(R, Base, T);
  // The dot segments of a reference above the root are told by REF_ABOVE_ROOT already.
  const judged = isAboveRoot ? { ...spelling, path: removeDotSegments(spelling.path) } : spelling;
  // A relative-path reference spells T itself: a caller that has T's key saves normalizing again.
  const rung = foldingRung(judged, isRelativePath(R) ? targetKey : undefined);
  if (rung === 'syntax') codes.push('REF_FOLDED_SYNTAX');
  else if (rung === 'scheme') codes.push('REF_FOLDED_SCHEME');
  return codes;
}

function isRelativePath(R: UriReference): boolean {
  return R.scheme === undefined && R.host === undefined && R.path.charCodeAt(0) !== SLASH;
}

/** The target URI as `R` writes it: `T`, or the reference's own components over the base's (fragment dropped). */
function spellingOf(R: UriReference, Base: AbsoluteUri, T: AbsoluteUri): AbsoluteUri {
  if (R.scheme !== undefined) return { ...(R as AbsoluteUri), fragment: undefined };
  if (R.host !== undefined) return { ...R, scheme: Base.scheme, fragment: undefined };
  if (!isRelativePath(R)) {
    return { scheme: Base.scheme, userinfo: Base.userinfo, host: Base.host, port: Base.port, path: R.path, query: R.query, fragment: undefined };
  }
  return T.fragment === undefined ? T : { ...T, fragment: undefined };
}

/** RFC 3986 §6.2: the lowest rung at which `uri` meets its normal form (`string` when it is one). */
function foldingRung(uri: AbsoluteUri, knownKey: string | undefined): 'string' | 'syntax' | 'scheme' | undefined {
  const scheme = uri.scheme;
  if (scheme !== 'http' && scheme !== 'https' && scheme.toLowerCase() !== 'http' && scheme.toLowerCase() !== 'https') return undefined;
  if (isPlainlyNormal(uri)) return 'string';
  const key = knownKey ?? resourceKey(uri);
  const spelled = serialize(uri);
  if (spelled === key) return 'string';
  return serialize(normalizeSyntax(uri)) === key ? 'syntax' : 'scheme';
}

const UPPER_OR_PERCENT = /[A-Z%]/;

/**
 * A quick sufficient test that an http(s) URI is its own normal form, without
 * normalizing: nothing for §6.2.2 to change (scheme and host in lower case, no
 * percent-encoding anywhere, no dot segment) nor for §6.2.3 (no port, a path, a
 * host that is no IP literal). Most hrefs pass it.
 */
function isPlainlyNormal(uri: AbsoluteUri): boolean {
  const { scheme, userinfo, host, port, path, query } = uri;
  return (
    (scheme === 'http' || scheme === 'https') &&
    host !== undefined &&
    host !== '' &&
    !UPPER_OR_PERCENT.test(host) &&
    host.charCodeAt(0) !== 0x5b &&
    port === undefined &&
    path !== '' &&
    path.indexOf('%') === -1 &&
    !hasDotSegments(path) &&
    (userinfo === undefined || userinfo.indexOf('%') === -1) &&
    (query === undefined || query.indexOf('%') === -1)
  );
}
