// One page's references, resolved against its RFC 3986 §5.1 base (§5.2) into the
// record every later step reads: target, key, fragment, same-document flag (§4.4),
// resolution findings and the target under the other base mode. Built once per
// page; each reference is parsed once, by the caller, and never parsed again.

import { ladderForms, normalKeyPrefix, resourceKey, type LadderForms } from '../ladder/index.js';
import {
  ReferenceResolver,
  hasDotSegments,
  mergePaths,
  parseUriReference,
  serialize,
  type AbsoluteUri,
  type UriReference,
} from '../uri/index.js';
import type { BaseChoice } from './compute-base-chain.js';
import { referenceFindings, type ReferenceFindingCode } from './reference-findings.js';

/** What one reference on the page resolves to. */
export interface ResolvedReference {
  /** The reference as parsed (RFC 3986 §4.1 `R`). */
  readonly reference: UriReference;
  /** Its target URI (§5.2.2 `T`), fragment included. */
  readonly target: AbsoluteUri;
  /**
   * What the link points at, as text with its fragment: `T` serialized (§5.3), or,
   * for a same-document reference, the page's URL with `T`'s fragment.
   */
  readonly targetText: string;
  /** The resource key of `targetText` (scheme rung, no fragment; `resourceKey`). */
  readonly key: string;
  /** The ladder forms of `targetText` without its fragment; `undefined` only when the page URL is no URI. */
  readonly forms: LadderForms | undefined;
  readonly fragment: string | undefined;
  /** RFC 3986 §4.4: the target minus its fragment is the base, or the page itself. */
  readonly isSameDocument: boolean;
  /** What resolving says about the reference as written (`REF_*`). */
  readonly findings: readonly ReferenceFindingCode[];
  /** The target under the other base mode, when it names another resource. */
  readonly alternateTarget: string | undefined;
}

const NO_FINDINGS: readonly ReferenceFindingCode[] = Object.freeze([]);
const SLASH = 0x2f;

/** One base choice, bound: its resolver and the key of the base itself. */
interface BoundBase {
  readonly resolver: ReferenceResolver;
  readonly baseKey: string;
  readonly baseText: string;
  /** `normalKeyPrefix` of the base: relative references in normal form are keyed by concatenation. */
  readonly keyPrefix: string | undefined;
  /** Whether the base path is its own normal form (not empty, no "%", no dot segment), for references with an empty path. */
  readonly isBasePathNormal: boolean;
  /** Whether the base query holds no "%" (`undefined` counts). */
  readonly isBaseQueryPercentFree: boolean;
  /** Whether the §5.2.3 merge prefix holds no "%". */
  readonly isDirectoryPercentFree: boolean;
  /** How many segments the §5.2.3 merge prefix has: how many ".." a relative path may climb. */
  readonly directoryDepth: number;
}

function bind(choice: BaseChoice | undefined): BoundBase | undefined {
  if (choice?.base === undefined) return undefined;
  const resolver = new ReferenceResolver(choice.base);
  const path = resolver.base.path;
  return {
    resolver,
    baseKey: resourceKey(resolver.base),
    baseText: choice.baseText ?? serialize(resolver.base),
    keyPrefix: normalKeyPrefix(resolver.base),
    isBasePathNormal: path !== '' && path.indexOf('%') === -1 && !hasDotSegments(path),
    isBaseQueryPercentFree: resolver.base.query === undefined || resolver.base.query.indexOf('%') === -1,
    isDirectoryPercentFree: mergePaths(resolver.base, '').indexOf('%') === -1,
    directoryDepth: depthOf(mergePaths(resolver.base, '')),
  };
}

/**
 * Whether the target of the relative reference `R` (no scheme, no authority) has a
 * path that is not empty and holds no "%", and a query without "%" (RFC 3986
 * §5.2.2: the path is the base's, R's with dots removed, or R's merged under the
 * base directory; the query is R's or, with an empty path, maybe the base's).
 */
function isPercentFree(R: UriReference, main: BoundBase): boolean {
  if (R.query !== undefined ? R.query.indexOf('%') !== -1 : R.path === '' && !main.isBaseQueryPercentFree) return false;
  if (R.path === '') return main.isBasePathNormal;
  if (R.path.indexOf('%') !== -1) return false;
  return R.path.charCodeAt(0) === SLASH || main.isDirectoryPercentFree;
}

// The segments of a directory ("/a/b/" has 2); -1 when its own dot segments or a
// rootless form make counting no proof (the full check then runs).
function depthOf(directory: string): number {
  if (directory.charCodeAt(0) !== SLASH || hasDotSegments(directory)) return -1;
  let count = -1;
  for (let i = directory.indexOf('/'); i !== -1; i = directory.indexOf('/', i + 1)) count++;
  return count;
}

/**
 * Whether a relative path merged under a directory of `depth` segments may have
 * ".." above the root (RFC 3986 §5.2.4; REF_ABOVE_ROOT): not when it holds no
 * more ".." than the directory has segments (a false "yes" only costs the full check).
 */
function mayClimbAboveRoot(path: string, depth: number): boolean {
  if (depth < 0) return true;
  let count = 0;
  for (let i = path.indexOf('..'); i !== -1; i = path.indexOf('..', i + 2)) {
    if (++count > depth) return true;
  }
  return false;
}

/**
 * The resolver of one page: bound to the base its mode chose (and to the other
 * mode's base, for `alternateTarget`) and to the page's own URL. Pure: the same
 * reference always gives the same record.
 */
export class PageResolver {
  readonly #main: BoundBase | undefined;
  readonly #other: BoundBase | undefined;
  readonly #pageUrl: string;
  readonly #pageKey: string | undefined;
  readonly #pageForms: LadderForms | undefined;

  /**
   * @param choice the base chosen for the page (`BaseChain`), with the other mode's
   *   choice as `alternate` when there is one.
   * @param pageUrl the retrieval URL: where same-document references point.
   */
  constructor(choice: BaseChoice & { readonly alternate?: BaseChoice | undefined }, pageUrl: string) {
    this.#main = bind(choice);
    const other = choice.alternate;
    this.#other = other !== undefined && other.baseText !== choice.baseText ? bind(other) : undefined;
    this.#pageUrl = pageUrl;
    const page = parseUriReference(pageUrl);
    if (page.ok && page.value.scheme !== undefined) {
      const pageRef = page.value as AbsoluteUri;
      this.#pageForms = pageRef.fragment === undefined ? ladderForms(pageRef, pageUrl) : ladderForms(pageRef);
      this.#pageKey = this.#pageForms.key;
    }
  }

  /** Whether the page has a base at all (§5.1); without one, `resolve` gives `undefined`. */
  get hasBase(): boolean {
    return this.#main !== undefined;
  }

  /** The key of the page's URL (`resourceKey`), or `undefined` when it is no absolute URI. */
  get pageKey(): string | undefined {
    return this.#pageKey;
  }

  /** RFC 3986 §5.2 and §4.4 for the parsed reference `R`; `undefined` when the page has no base. */
  resolve(R: UriReference): ResolvedReference | undefined {
    const main = this.#main;
    if (main === undefined) return undefined;
    // RFC 3986 §5.2.2
    const T = main.resolver.resolve(R);
    const fragment = T.fragment;
    const isRelative = R.scheme === undefined && R.host === undefined;
    if (isRelative && R.path === '' && R.query === undefined) {
      // "" and "#x": T minus its fragment is the base itself (§4.4), whatever the base.
      return this.#sameDocument(R, T, this.#emptyPathFindings(main, R, T));
    }
    let forms: LadderForms;
    let findings: readonly ReferenceFindingCode[];
    const prefix = main.keyPrefix;
    const { path, query } = T;
    // Whether T's path and query hold no "%", judged from R's (flat) text and the base's:
    // T's path may be a fresh concatenation that reading would flatten.
    if (isRelative && prefix !== undefined && isPercentFree(R, main)) {
      // §6.2.2–§6.2.3 leave T as it is (see normalKeyPrefix): its text is its key.
      const text = query === undefined ? prefix + path : `${prefix}${path}?${query}`;
      forms = { string: text, syntax: text, key: text, scheme: T.scheme, host: T.host, keyReference: T };
      // A reference spelling its target in normal form has no REF_FOLDED_*; only ".." can be above the root.
      const isPlain = R.path === '' || R.path === path || (R.path.charCodeAt(0) !== SLASH && !mayClimbAboveRoot(R.path, main.directoryDepth));
      findings = isPlain ? NO_FINDINGS : referenceFindings(R, main.resolver.base, T, text);
    } else {
      forms = ladderForms(T);
      const refCodes = referenceFindings(R, main.resolver.base, T, forms.key);
      findings = refCodes.length === 0 ? NO_FINDINGS : refCodes;
    }
    // RFC 3986 §4.4: the base minus its fragment, or the page itself (a <base href>
    // elsewhere does not make a link to the page another document).
    if (forms.key === main.baseKey || forms.key === this.#pageKey) return this.#sameDocument(R, T, findings, forms.key);
    const text = forms.string;
    return {
      reference: R,
      target: T,
      targetText: fragment === undefined ? text : `${text}#${fragment}`,
      key: forms.key,
      forms,
      fragment,
      isSameDocument: false,
      findings,
      alternateTarget: this.#other === undefined ? undefined : this.#alternateOf(R, forms.key),
    };
  }

  #sameDocument(R: UriReference, T: AbsoluteUri, findings: readonly ReferenceFindingCode[], targetKey?: string): ResolvedReference {
    const fragment = T.fragment;
    const key = this.#pageKey ?? targetKey ?? this.#main!.baseKey;
    return {
      reference: R,
      target: T,
      targetText: fragment === undefined ? this.#pageUrl : `${this.#pageUrl}#${fragment}`,
      key,
      forms: this.#pageForms,
      fragment,
      isSameDocument: true,
      findings,
      alternateTarget: this.#other === undefined ? undefined : this.#alternateOf(R, key),
    };
  }

  // The findings of "" and "#x" depend on the base alone: computed once.
  #emptyPathCodes: readonly ReferenceFindingCode[] | undefined;
  #emptyPathFindings(main: BoundBase, R: UriReference, T: AbsoluteUri): readonly ReferenceFindingCode[] {
    if (this.#emptyPathCodes === undefined) {
      const codes = referenceFindings(R, main.resolver.base, T);
      this.#emptyPathCodes = codes.length === 0 ? NO_FINDINGS : Object.freeze(codes);
    }
    return this.#emptyPathCodes;
  }

  // The audit shows links that resolve differently in the two base modes: the
  // target under the other base mode's chain, when it names
  // another resource (compared by key, RFC 3986 §6.2.3).
  #alternateOf(R: UriReference, key: string): string | undefined {
    const other = this.#other;
    if (other === undefined) return undefined;
    const T = other.resolver.resolve(R);
    const otherKey = resourceKey(T);
    if (otherKey === other.baseKey || otherKey === this.#pageKey) {
      if ((this.#pageKey ?? otherKey) === key) return undefined;
      return T.fragment === undefined ? this.#pageUrl : `${this.#pageUrl}#${T.fragment}`;
    }
    return otherKey === key ? undefined : serialize(T);
  }
}
