// RFC 3986 §5.2 Relative Resolution: §5.2.1 base, §5.2.2 transform, §5.2.3 merge.

import { fail, failIn, ok, type Result } from './result.js';
import { parseUriReference } from './parse.js';
import { hasDotSegments, removeDotSegments } from './remove-dot-segments.js';
import type { AbsoluteUri, UriReference } from './uri-reference.js';

export interface ResolveOptions {
  /**
   * RFC 3986 §5.2.2 strict parsing. `false` enables the RFC 1808 loophole that
   * backward-compatible parsers allow: a reference whose scheme equals the base's
   * (`http:g` against an `http` base) is read as relative (`http://a/b/c/g`).
   * @default true
   */
  readonly strict?: boolean;
}

/**
 * RFC 3986 §5.1, §5.2.1: a base URI must be absolute. A fragment on it is allowed
 * and kept in the record; §5.2.2 never reads `Base.fragment`, so it has no effect.
 */
export function parseBase(base: string): Result<AbsoluteUri> {
  const parsed = parseUriReference(base);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (value.scheme === undefined) return fail('ERR_URI_NOT_ABSOLUTE', 0);
  return ok(value as AbsoluteUri);
}

/** RFC 3986 §5.2.3 Merge Paths */
export function mergePaths(Base: UriReference, referencePath: string): string {
  if (Base.host !== undefined && Base.path === '') return '/' + referencePath;
  const lastSlash = Base.path.lastIndexOf('/');
  return lastSlash === -1 ? referencePath : Base.path.slice(0, lastSlash + 1) + referencePath;
}

/**
 * RFC 3986 §5.2.2 Transform References: the target URI T of reference R against
 * base URI Base. Pure; both are already parsed.
 */
export function transformReference(R: UriReference, Base: AbsoluteUri, options?: ResolveOptions): AbsoluteUri {
  let scheme = R.scheme;
  // DEVIATION(§5.2.2): opt-in RFC 1808 loophole (non-strict); schemes compare case-insensitively (§3.1).
  if (options?.strict === false && scheme !== undefined && scheme.toLowerCase() === Base.scheme.toLowerCase()) {
    scheme = undefined;
  }
  let T: AbsoluteUri;
  if (scheme !== undefined) {
    T = {
      scheme,
      userinfo: R.userinfo,
      host: R.host,
      port: R.port,
      path: removeDotSegments(R.path),
      query: R.query,
      fragment: R.fragment,
    };
  } else if (R.host !== undefined) {
    T = {
      scheme: Base.scheme,
      userinfo: R.userinfo,
      host: R.host,
      port: R.port,
      path: removeDotSegments(R.path),
      query: R.query,
      fragment: R.fragment,
    };
  } else {
    let path: string;
    let query: string | undefined;
    if (R.path === '') {
      path = Base.path;
      query = R.query !== undefined ? R.query : Base.query;
    } else {
      path = R.path.charCodeAt(0) === 0x2f ? removeDotSegments(R.path) : removeDotSegments(mergePaths(Base, R.path));
      query = R.query;
    }
    T = {
      scheme: Base.scheme,
      userinfo: Base.userinfo,
      host: Base.host,
      port: Base.port,
      path,
      query,
      fragment: R.fragment,
    };
  }
  return guardPathWithoutAuthority(T);
}

/**
 * DEVIATION(§5.3): a target without authority whose path starts with "//" (from
 * `f:/a` + `.//g`) would recompose as `f://g`, which reads back with authority
 * `g`. RFC 3986 §3.3 forbids that path there; like uriparser and WHATWG we write
 * it `/.//g`, which denotes the same path and survives a round trip.
 */
export function guardPathWithoutAuthority<T extends UriReference>(ref: T): T {
  if (ref.host === undefined && ref.path.startsWith('//')) return { ...ref, path: '/.' + ref.path };
  return ref;
}

/** RFC 3986 §5.2: parse both strings and transform. For many references against one base, use `ReferenceResolver`. */
export function resolveReference(ref: string, base: string, options?: ResolveOptions): Result<AbsoluteUri> {
  const parsedBase = parseBase(base);
  if (!parsedBase.ok) return failIn(parsedBase.error, 'base');
  const R = parseUriReference(ref);
  if (!R.ok) return failIn(R.error, 'reference');
  return ok(transformReference(R.value, parsedBase.value, options));
}

/**
 * RFC 3986 §5.2 bound to one base (a page's): the base is parsed and checked once,
 * then each parsed reference costs one §5.2.2 transform. Immutable; no state
 * beyond the base it was built with.
 */
export class ReferenceResolver {
  /** The base, without its fragment (§5.1). */
  readonly base: AbsoluteUri;
  readonly #options: ResolveOptions | undefined;
  /** RFC 3986 §5.2.3: what a relative-path reference's path is appended to. */
  readonly #directory: string;
  /**
   * When the merge prefix starts with "/" and has no dot segment: it and each of
   * its ancestors, `/a/b/`, `/a/`, `/` — where leading "../" of a reference lead.
   */
  readonly #ancestors: readonly string[] | undefined;

  constructor(base: AbsoluteUri, options?: ResolveOptions) {
    this.base = base.fragment === undefined ? base : { ...base, fragment: undefined };
    this.#options = options?.strict === false ? options : undefined;
    this.#directory = mergePaths(this.base, '');
    this.#ancestors = ancestorsOf(this.#directory);
  }

  /** A resolver for `base` (a string), or the reason it is no base. */
  static forBase(base: string, options?: ResolveOptions): Result<ReferenceResolver> {
    const parsed = parseBase(base);
    return parsed.ok ? ok(new ReferenceResolver(parsed.value, options)) : failIn(parsed.error, 'base');
  }

  // RFC 3986 §5.2.3 merge then §5.2.4 remove_dot_segments, for a relative path
  // under a dot-free directory: its leading "../" and "./" climb the directory (never
  // above "/", as rule C has it); if no other dot segment follows, the rest is
  // appended as it is. Anything else takes the general algorithm.
  #mergeUnderDotFreeDirectory(referencePath: string, ancestors: readonly string[]): string {
    let i = 0;
    let up = 0;
    for (;;) {
      if (referencePath.startsWith('../', i)) {
        up++;
        i += 3;
      } else if (referencePath.startsWith('./', i)) i += 2;
      else break;
    }
    const rest = i === 0 ? referencePath : referencePath.slice(i);
    if (hasDotSegments(rest)) return removeDotSegments(this.#directory + referencePath);
    return ancestors[Math.min(up, ancestors.length - 1)]! + rest;
  }

  /** RFC 3986 §5.2.2: the target URI of the parsed reference `R`, as `transformReference` gives it. */
  resolve(R: UriReference): AbsoluteUri {
    if (R.scheme !== undefined || R.host !== undefined) return transformReference(R, this.base, this.#options);
    // §5.2.2, the branch most links take (no scheme, no authority), with §5.2.3's
    // merge prefix computed once per base.
    const Base = this.base;
    let path: string;
    let query: string | undefined;
    if (R.path === '') {
      path = Base.path;
      query = R.query !== undefined ? R.query : Base.query;
    } else {
      if (R.path.charCodeAt(0) === 0x2f) path = removeDotSegments(R.path);
      // §5.2.3 merge: the directory ends in "/", so the merged path has a dot
      // segment only where the directory or the reference has one.
      else if (this.#ancestors !== undefined) path = this.#mergeUnderDotFreeDirectory(R.path, this.#ancestors);
      else path = removeDotSegments(this.#directory + R.path);
      query = R.query;
    }
    const T: AbsoluteUri = {
      scheme: Base.scheme,
      userinfo: Base.userinfo,
      host: Base.host,
      port: Base.port,
      path,
      query,
      fragment: R.fragment,
    };
    // Only a base without authority can give a path that needs the guard (and reading
    // a merged path here would flatten it before anyone needs its characters).
    return Base.host === undefined ? guardPathWithoutAuthority(T) : T;
  }
}

function ancestorsOf(directory: string): string[] | undefined {
  if (directory.charCodeAt(0) !== 0x2f || hasDotSegments(directory)) return undefined;
  const ancestors = [directory];
  let end = directory.length - 1;
  while (end > 0) {
    end = directory.lastIndexOf('/', end - 1);
    ancestors.push(directory.slice(0, end + 1));
  }
  return ancestors;
}
