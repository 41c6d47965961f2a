// RFC 3986 §5.1 Establishing a Base URI — https://www.rfc-editor.org/rfc/rfc3986#section-5.1
// From facts about one response, innermost level first: §5.1.1 the <base> element,
// §5.1.2 the encapsulating entity (Content-Location, legacy Content-Base), §5.1.3 the
// retrieval URL, §5.1.4 a configured default. Pure; never throws on the facts.

import {
  isAbsoluteUri,
  parseBase,
  parseUriReference,
  serialize,
  transformReference,
  type AbsoluteUri,
  type UriSyntaxError,
} from '../uri/index.js';
import { trimAsciiWhitespace } from '../infra/index.js';
import { validateBaseChainOptions, type BaseChainOptions, type BaseMode } from './base-chain-options.js';
import type { BaseFinding, BaseFindingCode } from './base-findings.js';
import { BASE_LEVELS, type BaseLevel } from './base-level.js';
import { contentLocationScope } from './content-location-scope.js';

/**
 * What one response offers for its base, as received. `null` is taken as absent
 * too, so a `Headers#get()` result can be passed as it is.
 */
export interface ResponseFacts {
  /** RFC 3986 §5.1.3: the URL the representation came from — the last hop after all redirects, never the first. */
  readonly retrievalUrl?: string | undefined;
  /** RFC 3986 §5.1.2: the raw `Content-Location` header value. */
  readonly contentLocation?: string | undefined;
  /** RFC 2068 §14.11: the raw legacy `Content-Base` header value. */
  readonly contentBase?: string | undefined;
  /** RFC 3986 §5.1.1: the raw `href` of the first `<base>` element that has one. */
  readonly baseElementHref?: string | undefined;
}

/** One level that was present and valid, with the base it gives (serialized, no fragment). */
export interface BaseChainLevel {
  readonly level: BaseLevel;
  readonly uri: string;
}

/** The base one mode settles on. */
export interface BaseChoice {
  readonly mode: BaseMode;
  /** The base to resolve the page's references against (absolute, no fragment); `undefined` when no level gives one. */
  readonly base: AbsoluteUri | undefined;
  /** `base` serialized (RFC 3986 §5.3). */
  readonly baseText: string | undefined;
  /** Which level gave `base`. */
  readonly level: BaseLevel | undefined;
}

export interface BaseChain extends BaseChoice {
  /**
   * Every level that took part in this mode's chain and gave a valid base,
   * innermost first; the first one is `level`. Each is resolved against the next.
   */
  readonly levels: readonly BaseChainLevel[];
  /** What was skipped, tolerated or worth auditing, innermost level first (see `BASE_FINDINGS`). */
  readonly findings: readonly BaseFinding[];
  /** What the other mode would settle on (see `baseLevelsDiffer`). */
  readonly alternate: BaseChoice;
  /**
   * The `Content-Location` header resolved against the retrieval URL, without
   * fragment, in either mode: the URL whose representation the response says it
   * is (RFC 9110 §8.7), read here once for the base and for protocol evidence.
   */
  readonly contentLocation: AbsoluteUri | undefined;
}

/**
 * RFC 3986 §5.1: the base URI of a response and the level that gave it.
 *
 * Each level present is resolved against the next outer one that is valid: a
 * relative `<base href>` against the content-location level, else the retrieval
 * URL, else the default; a relative `Content-Location` against the retrieval URL,
 * else the default. An invalid value is skipped and recorded as a finding. Only a
 * bad option throws (`OptionError`), never the facts.
 */
export function computeBaseChain(facts: ResponseFacts, options?: BaseChainOptions): BaseChain {
  const { mode, defaultBase } = validateBaseChainOptions(options);
  const chosen = walkChain(facts, mode, defaultBase);
  const otherMode: BaseMode = mode === 'rfc3986' ? 'browser' : 'rfc3986';
  // The modes part only over the headers and the scheme of <base href>.
  const mayDiffer = isPresent(facts.contentLocation) || isPresent(facts.contentBase) || isPresent(facts.baseElementHref);
  const other = mayDiffer ? walkChain(facts, otherMode, defaultBase) : chosen;
  return Object.freeze({
    ...choice(mode, chosen),
    levels: Object.freeze(chosen.levels),
    findings: Object.freeze(chosen.findings),
    alternate: choice(otherMode, other),
    contentLocation: contentLocationOf(facts),
  });
}

// RFC 9110 §8.7: a relative Content-Location is resolved against the target URI (the retrieval URL).
function contentLocationOf(facts: ResponseFacts): AbsoluteUri | undefined {
  if (!isPresent(facts.contentLocation) || !isPresent(facts.retrievalUrl)) return undefined;
  const retrieval = parseBase(facts.retrievalUrl);
  if (!retrieval.ok) return undefined;
  const resolved = resolveValue(facts.contentLocation, retrieval.value);
  if (resolved.kind !== 'resolved') return undefined;
  return resolved.uri.fragment === undefined ? resolved.uri : { ...resolved.uri, fragment: undefined };
}

interface Walk {
  readonly base: AbsoluteUri | undefined;
  readonly level: BaseLevel | undefined;
  readonly levels: BaseChainLevel[];
  readonly findings: BaseFinding[];
}

function choice(mode: BaseMode, walk: Walk): BaseChoice {
  return Object.freeze({
    mode,
    base: walk.base,
    baseText: walk.base === undefined ? undefined : serialize(walk.base),
    level: walk.level,
  });
}

function isPresent(value: string | null | undefined): value is string {
  return value !== undefined && value !== null;
}

const HEADERS = [
  // DEVIATION(§5.1.2): RFC 2068 §14.11 gave Content-Base precedence over Content-Location;
  // RFC 2616 dropped the header. Both count as the content-location level, Content-Base first.
  { field: 'contentBase', invalid: 'BASE_CONTENT_BASE_INVALID', unresolved: 'BASE_CONTENT_BASE_UNRESOLVED', ignored: 'BASE_CONTENT_BASE_IGNORED' },
  { field: 'contentLocation', invalid: 'BASE_CONTENT_LOCATION_INVALID', unresolved: 'BASE_CONTENT_LOCATION_UNRESOLVED', ignored: 'BASE_CONTENT_LOCATION_IGNORED' },
] as const;

// HTML "set the frozen base URL": these schemes never become a document's base.
const BLOCKED_BASE_SCHEMES = new Set(['data', 'javascript']);

/** The chain of one mode, outermost level first, as §5.1 nests them. */
function walkChain(facts: ResponseFacts, mode: BaseMode, defaultBase: AbsoluteUri | undefined): Walk {
  const findings: BaseFinding[] = [];
  const levels: BaseChainLevel[] = [];
  const note = (code: BaseFindingCode, level: BaseLevel, value: string, error?: UriSyntaxError): void => {
    findings.push(Object.freeze(error === undefined ? { code, level, value } : { code, level, value, error }));
  };
  // The base the next inner level resolves against: the innermost accepted so far.
  let outer: AbsoluteUri | undefined;
  let outerLevel: BaseLevel | undefined;
  const accept = (level: BaseLevel, uri: AbsoluteUri, value: string | undefined): AbsoluteUri => {
    let base = uri;
    if (base.fragment !== undefined) {
      // §5.1: a base is "stripped of any fragment component prior to its use".
      if (value !== undefined) note('BASE_FRAGMENT_IGNORED', level, value);
      base = { ...base, fragment: undefined };
    }
    levels.push(Object.freeze({ level, uri: serialize(base) }));
    outer = base;
    outerLevel = level;
    return base;
  };

  // §5.1.3 Base URI from the Retrieval URI; §5.1.4 Default Base URI only when there is none.
  let retrieval: AbsoluteUri | undefined;
  const retrievalUrl = facts.retrievalUrl;
  if (!isPresent(retrievalUrl)) {
    if (defaultBase !== undefined) accept('default', defaultBase, undefined);
  } else {
    const parsed = parseBase(retrievalUrl);
    if (parsed.ok) retrieval = accept('retrieval', parsed.value, retrievalUrl);
    else note('BASE_RETRIEVAL_INVALID', 'retrieval', retrievalUrl, parsed.error);
  }

  // §5.1.2 Base URI from the Encapsulating Entity.
  let hasContentLocationLevel = false;
  for (const header of HEADERS) {
    const value = facts[header.field];
    if (!isPresent(value)) continue;
    if (mode === 'browser') {
      // DEVIATION(§5.1.2): browser mode, as browsers (and RFC 7231, RFC 9110) have it.
      note(header.ignored, 'content-location', value);
      continue;
    }
    if (hasContentLocationLevel) {
      note('BASE_CONTENT_LOCATION_SHADOWED', 'content-location', value);
      continue;
    }
    const resolved = resolveValue(value, outer);
    if (resolved.kind === 'invalid') {
      note(header.invalid, 'content-location', value, resolved.error);
    } else if (resolved.kind === 'unresolved') {
      note(header.unresolved, 'content-location', value);
    } else {
      hasContentLocationLevel = true;
      if (header.field === 'contentBase') note('BASE_CONTENT_BASE_USED', 'content-location', value);
      const uri = accept('content-location', resolved.uri, value);
      if (retrieval !== undefined) {
        const scope = contentLocationScope(uri, retrieval);
        if (scope.isOtherDirectory) note('BASE_CONTENT_LOCATION_OTHER_DIRECTORY', 'content-location', value);
        if (scope.isOtherOrigin) note('BASE_CONTENT_LOCATION_OTHER_ORIGIN', 'content-location', value);
      }
    }
  }

  // §5.1.1 Base URI Embedded in Content.
  const href = facts.baseElementHref;
  if (isPresent(href)) {
    const resolved = resolveValue(href, outer);
    if (resolved.kind === 'invalid') {
      note('BASE_HREF_INVALID', 'base-element', href, resolved.error);
    } else if (resolved.kind === 'unresolved') {
      note('BASE_HREF_UNRESOLVED', 'base-element', href);
    } else if (mode === 'browser' && BLOCKED_BASE_SCHEMES.has(resolved.uri.scheme.toLowerCase())) {
      // DEVIATION(§5.1.1): browser mode follows HTML, which falls back for data: and javascript:.
      note('BASE_HREF_SCHEME_BLOCKED', 'base-element', href);
    } else {
      if (resolved.isRelative) note('BASE_HREF_RELATIVE', 'base-element', href);
      accept('base-element', resolved.uri, href);
    }
  }

  if (outer === undefined) findings.push(Object.freeze({ code: 'BASE_NONE', level: undefined, value: undefined }));
  levels.reverse();
  findings.sort((a, b) => levelRank(a.level) - levelRank(b.level));
  return { base: outer, level: outerLevel, levels, findings };
}

function levelRank(level: BaseLevel | undefined): number {
  return level === undefined ? BASE_LEVELS.length : BASE_LEVELS.indexOf(level);
}

type Resolution =
  | { readonly kind: 'invalid'; readonly error: UriSyntaxError }
  | { readonly kind: 'unresolved' }
  | { readonly kind: 'resolved'; readonly uri: AbsoluteUri; readonly isRelative: boolean };

/**
 * RFC 3986 §5.1: a base obtained from a URI reference "must be converted to
 * absolute form" (§5.2, which also removes dot segments) before use. Surrounding
 * ASCII whitespace is trimmed first, as HTML and HTTP allow; the rest must be a
 * URI-reference (§4.1). An error index points into the untrimmed value.
 */
function resolveValue(value: string, outer: AbsoluteUri | undefined): Resolution {
  const { start, text } = trimAsciiWhitespace(value);
  const R = parseUriReference(text);
  if (!R.ok) return { kind: 'invalid', error: { code: R.error.code, index: R.error.index + start } };
  if (isAbsoluteUri(R.value)) return { kind: 'resolved', uri: transformReference(R.value, R.value), isRelative: false };
  if (outer === undefined) return { kind: 'unresolved' };
  return { kind: 'resolved', uri: transformReference(R.value, outer), isRelative: true };
}
