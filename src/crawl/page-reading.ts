// A page's references read off the main thread (parse-pool.ts): the body goes to a
// worker, which extracts and resolves its references exactly as the crawl does in
// its own thread (`PageLinkReader#reads`), and what comes back is packed so that the
// main thread pays little to receive it: one table of the page's distinct strings
// (a target, its key and its forms are mostly one string) and one Int32Array with a
// row of indexes per reference, transferred, not copied. Structured clone of the
// records themselves cost more than it saved (thousands of small objects a page).

import type { BaseChain, BaseMode, ResolvedReference } from '../base/index.js';
import type { FetchedResponse } from '../fetch/index.js';
import type { ExtractedLinks, LinkKind, PageFinding } from '../html/index.js';
import type { LadderForms } from '../ladder/index.js';
import type { UriReference } from '../uri/index.js';
import { digestOf } from './fetch-record.js';
import type { LinkUse } from './link-role.js';
import { LINK_HEADER_ELEMENT, PageLinkReader, extractPageReferences, type LinkResolver, type ReadReference } from './page-links.js';

/** What a worker needs to read a page: the response's facts and the crawl's reading options. */
export interface PageReadRequest {
  /** The URL same-document references point at: the page's retrieval URL. */
  readonly pageUrl: string;
  readonly finalUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly contentType: string | undefined;
  readonly charset: string | undefined;
  readonly body: string;
  readonly baseMode: BaseMode;
  readonly follow: readonly LinkKind[];
  readonly maxLinks: number;
}

/** A page read by a worker, packed (see the file's head). */
export interface PackedReading {
  readonly strings: readonly string[];
  readonly ints: Int32Array;
  /** The body's digest (`bodyDigest`), hashed by the worker too. */
  readonly digest: string;
}

/** A page read by a worker, unpacked: what `PageLinkReader` takes instead of reading it again. */
export interface PageReading {
  readonly pageUrl: string;
  /** What the extractor found, its `references` left out (`reads` stand for them); `undefined`: not a page it reads. */
  readonly extracted: ExtractedLinks | undefined;
  readonly reads: readonly ReadReference[];
}

/** The request for a response, as the crawl reads it at `pageUrl` (`PageAdmission#pageLinks`). */
export function readRequestOf(response: FetchedResponse, options: Omit<PageReadRequest, 'finalUrl' | 'headers' | 'contentType' | 'charset' | 'body'>): PageReadRequest {
  return {
    ...options,
    finalUrl: response.finalUrl,
    headers: response.headers,
    contentType: response.contentType,
    charset: response.charset,
    body: response.body ?? '',
  };
}

/** The response a request stands for, as `PageLinkReader` reads it. */
function responseOf(request: PageReadRequest): FetchedResponse {
  return {
    requestUrl: request.finalUrl,
    finalUrl: request.finalUrl,
    hops: [],
    status: 200,
    headers: request.headers,
    contentType: request.contentType,
    charset: request.charset,
    body: request.body,
    bytes: request.body.length,
    startedAt: 0,
    durationMs: 0,
    errorCode: undefined,
  };
}

const noPause = (): Promise<void> => Promise.resolve();

/** Read a page (in a worker): extract and resolve as the crawl's own thread does, then pack. */
export async function readPage(request: PageReadRequest): Promise<PackedReading> {
  const response = responseOf(request);
  const page = {
    id: 0,
    url: request.pageUrl,
    depth: 0,
    baseMode: request.baseMode,
    follow: request.follow,
    maxLinks: request.maxLinks,
    mayFollow: () => false,
  };
  const extracted = await extractPageReferences(response, page, noPause);
  return { ...packReading(extracted, new PageLinkReader(response, page, extracted).reads()), digest: digestOf(request.body) };
}

// The page's row of ints, then one row of READ_STRIDE per reference.
const PAGE_IS_EXTRACTED = 0;
const PAGE_REFERENCE_COUNT = 1;
const PAGE_BASE = 2;
const PAGE_BASE_OFFSET = 3;
const PAGE_CANONICAL = 4;
const PAGE_CANONICAL_OFFSET = 5;
const PAGE_ANCHORS_START = 6;
const PAGE_ANCHORS_COUNT = 7;
const PAGE_FINDINGS = 8;
const PAGE_FINDINGS_START = 9;
const PAGE_READS = 10;
const PAGE_STRIDE = 11;

const RAW = 0;
const CLEANED = 1;
const ELEMENT = 2;
const ATTRIBUTE = 3;
const FLAGS = 4;
const BASE_LEVEL = 5;
const HREFLANG = 6;
const LINE = 7;
const COLUMN = 8;
const HREF_CODES = 9;
const ERROR = 10;
const FINDINGS = 11;
const TARGET_TEXT = 12;
const KEY = 13;
const FRAGMENT = 14;
const REF_FINDINGS = 15;
const ALTERNATE = 16;
const FORMS_STRING = 17;
const FORMS_SYNTAX = 18;
const FORMS_KEY = 19;
const FORMS_SCHEME = 20;
const FORMS_HOST = 21;
const KEY_SCHEME = 22;
const KEY_USERINFO = 23;
const KEY_HOST = 24;
const KEY_PORT = 25;
/** With `IS_KEY_SLICED`: where the path starts in `forms.key`; else the path's string. */
const KEY_PATH = 26;
/** With `IS_KEY_SLICED`: where the query starts in `forms.key` (after "?"), or -1; else the query's string. */
const KEY_QUERY = 27;
const KEY_FRAGMENT = 28;
const READ_STRIDE = 29;

const IS_FOLLOWED = 1;
const IS_CANONICAL = 2;
const IS_RESOLVED = 4;
const IS_SAME_DOCUMENT = 8;
const HAS_FORMS = 16;
const IS_KEY_SLICED = 32;
/** From the HTTP Link header: resolved without the page's `<base>` (RFC 8288 §3.1). */
const IS_HEADER = 64;
const USE_SHIFT = 8;
const USES: readonly LinkUse[] = ['follow', 'resource', 'other'];

/** Strings by first appearance; -1 stands for `undefined`. */
class StringTable {
  readonly strings: string[] = [];
  readonly #index = new Map<string, number>();

  of(text: string | undefined): number {
    if (text === undefined) return -1;
    let index = this.#index.get(text);
    if (index === undefined) {
      index = this.strings.length;
      this.strings.push(text);
      this.#index.set(text, index);
    }
    return index;
  }

  /**
   * A string most likely not in the table yet (an href, a target): added without
   * looking it up, as hashing each long string cost the worker more than sending a
   * repeat costs (the equal strings of one link are shared by the caller).
   */
  add(text: string | undefined): number {
    if (text === undefined) return -1;
    this.strings.push(text);
    return this.strings.length - 1;
  }

  /** A list of codes (no spaces in a code), -1 when empty. */
  codes(codes: readonly string[]): number {
    return codes.length === 0 ? -1 : this.of(codes.join(' '));
  }
}

/** Pack what a worker read: the extractor's facts and the references resolved, in order. */
export function packReading(extracted: ExtractedLinks | undefined, reads: Iterable<ReadReference>): Omit<PackedReading, 'digest'> {
  const table = new StringTable();
  const rows: number[] = [];
  for (const read of reads) packRead(table, rows, read);
  const page = new Int32Array(PAGE_STRIDE + rows.length);
  if (extracted !== undefined) {
    page[PAGE_IS_EXTRACTED] = 1;
    page[PAGE_REFERENCE_COUNT] = extracted.referenceCount;
    page[PAGE_BASE] = table.of(extracted.base?.raw);
    page[PAGE_BASE_OFFSET] = extracted.base?.offset ?? -1;
    page[PAGE_CANONICAL] = table.of(extracted.canonical?.raw);
    page[PAGE_CANONICAL_OFFSET] = extracted.canonical?.offset ?? -1;
    page[PAGE_ANCHORS_START] = table.strings.length;
    // Each anchor once in the table, in order: a set has no two alike.
    for (const anchor of extracted.anchors) table.strings.push(anchor);
    page[PAGE_ANCHORS_COUNT] = extracted.anchors.size;
    page[PAGE_FINDINGS] = table.codes(extracted.findings.map((finding) => finding.code));
    page[PAGE_FINDINGS_START] = table.strings.length;
    for (const finding of extracted.findings) table.strings.push(String(finding.offset));
  }
  page[PAGE_READS] = rows.length / READ_STRIDE;
  page.set(rows, PAGE_STRIDE);
  return { strings: table.strings, ints: page };
}

function packRead(table: StringTable, rows: number[], read: ReadReference): void {
  const link = read.link;
  const resolved = link.resolved;
  const forms = resolved?.forms;
  let flags = (read.isFollowed ? IS_FOLLOWED : 0) | (read.isCanonical ? IS_CANONICAL : 0) | (USES.indexOf(read.use) << USE_SHIFT);
  if (read.element === LINK_HEADER_ELEMENT && read.line === undefined) flags |= IS_HEADER;
  const raw = table.add(read.raw);
  // Most of a link's strings are another of its strings (a target in normal form is
  // its own key and forms): those are looked up once.
  const cleaned = link.cleaned === read.raw ? raw : table.add(link.cleaned);
  let targetText = -1;
  let key = -1;
  let fragment = -1;
  let refFindings = -1;
  let alternate = -1;
  if (resolved !== undefined) {
    flags |= IS_RESOLVED | (resolved.isSameDocument ? IS_SAME_DOCUMENT : 0);
    targetText = resolved.targetText === read.raw ? raw : table.add(resolved.targetText);
    fragment = table.add(resolved.fragment);
    refFindings = table.codes(resolved.findings);
    alternate = table.add(resolved.alternateTarget);
  }
  let string = -1;
  let syntax = -1;
  let formsKey = -1;
  let path = -1;
  let query = -1;
  let keyFragment = -1;
  if (forms !== undefined) {
    flags |= HAS_FORMS;
    string = forms.string === resolved!.targetText ? targetText : table.add(forms.string);
    syntax = forms.syntax === forms.string ? string : table.add(forms.syntax);
    formsKey = forms.key === forms.syntax ? syntax : forms.key === forms.string ? string : table.add(forms.key);
    const uri = forms.keyReference;
    const keyText = forms.key;
    // The key is the key reference serialized without fragment (RFC 3986 §5.3): its
    // path and query are the key's tail, sent as where they start in it.
    const queryStart = uri.query === undefined ? -1 : keyText.length - uri.query.length;
    const pathStart = (queryStart === -1 ? keyText.length : queryStart - 1) - uri.path.length;
    const isSliced =
      pathStart >= 0 &&
      keyText.startsWith(uri.path, pathStart) &&
      (uri.query === undefined || (keyText.charCodeAt(queryStart - 1) === 0x3f && keyText.endsWith(uri.query)));
    if (isSliced) {
      flags |= IS_KEY_SLICED;
      path = pathStart;
      query = queryStart;
    } else {
      path = table.add(uri.path);
      query = table.add(uri.query);
    }
    keyFragment = uri.fragment === resolved!.fragment ? fragment : table.add(uri.fragment);
  }
  if (resolved !== undefined) key = forms !== undefined && resolved.key === forms.key ? formsKey : table.add(resolved.key);
  rows.push(
    raw,
    cleaned,
    table.of(read.element),
    table.of(read.attribute),
    flags,
    table.of(read.baseLevel),
    table.add(read.hreflang),
    read.line ?? -1,
    read.column ?? -1,
    table.codes(link.hrefCodes),
    table.of(link.error),
    link.findings === link.hrefCodes ? -2 : table.codes(link.findings),
    targetText,
    key,
    fragment,
    refFindings,
    alternate,
    string,
    syntax,
    formsKey,
    table.of(forms?.scheme),
    table.of(forms?.host),
    table.of(forms?.keyReference.scheme),
    table.of(forms?.keyReference.userinfo),
    table.of(forms?.keyReference.host),
    table.of(forms?.keyReference.port),
    path,
    query,
    keyFragment,
  );
}

const NO_CODES: readonly string[] = Object.freeze([]);

/**
 * A worker's reading of the page at `pageUrl`, unpacked. `resolverOf` (the page's
 * `PageLinkReader#resolverOf`) gives what a reference's `reference` and `target` (the
 * parsed `R` and `T`, which the crawl itself does not read) are computed with, if asked.
 */
export function unpackReading(packed: PackedReading, pageUrl: string, resolverOf: (isHeader: boolean) => LinkResolver): PageReading {
  const { strings, ints } = packed;
  const text = (index: number): string | undefined => (index === -1 ? undefined : strings[index]);
  const lists = new Map<number, readonly string[]>();
  const codes = (index: number): readonly string[] => {
    if (index === -1) return NO_CODES;
    let list = lists.get(index);
    if (list === undefined) {
      list = Object.freeze(strings[index]!.split(' '));
      lists.set(index, list);
    }
    return list;
  };
  let extracted: ExtractedLinks | undefined;
  if (ints[PAGE_IS_EXTRACTED] === 1) {
    const base = text(ints[PAGE_BASE]!);
    const canonical = text(ints[PAGE_CANONICAL]!);
    const anchorsStart = ints[PAGE_ANCHORS_START]!;
    const findingsStart = ints[PAGE_FINDINGS_START]!;
    const findings: PageFinding[] = codes(ints[PAGE_FINDINGS]!).map((code, i) => ({
      code: code as PageFinding['code'],
      offset: Number(strings[findingsStart + i]),
    }));
    extracted = {
      references: [],
      referenceCount: ints[PAGE_REFERENCE_COUNT]!,
      base: base === undefined ? undefined : { raw: base, offset: ints[PAGE_BASE_OFFSET]! },
      canonical: canonical === undefined ? undefined : { raw: canonical, offset: ints[PAGE_CANONICAL_OFFSET]! },
      anchors: new Set(strings.slice(anchorsStart, anchorsStart + ints[PAGE_ANCHORS_COUNT]!)),
      findings,
    };
  }
  const count = ints[PAGE_READS]!;
  const reads: ReadReference[] = new Array<ReadReference>(count);
  for (let i = 0, at = PAGE_STRIDE; i < count; i++, at += READ_STRIDE) {
    const flags = ints[at + FLAGS]!;
    const raw = strings[ints[at + RAW]!]!;
    let resolved: ResolvedReference | undefined;
    if ((flags & IS_RESOLVED) !== 0) {
      let forms: LadderForms | undefined;
      if ((flags & HAS_FORMS) !== 0) {
        const key = strings[ints[at + FORMS_KEY]!]!;
        let path: string;
        let query: string | undefined;
        if ((flags & IS_KEY_SLICED) !== 0) {
          const pathStart = ints[at + KEY_PATH]!;
          const queryStart = ints[at + KEY_QUERY]!;
          path = key.slice(pathStart, queryStart === -1 ? key.length : queryStart - 1);
          query = queryStart === -1 ? undefined : key.slice(queryStart);
        } else {
          path = strings[ints[at + KEY_PATH]!]!;
          query = text(ints[at + KEY_QUERY]!);
        }
        const keyReference: UriReference = {
          scheme: text(ints[at + KEY_SCHEME]!),
          userinfo: text(ints[at + KEY_USERINFO]!),
          host: text(ints[at + KEY_HOST]!),
          port: text(ints[at + KEY_PORT]!),
          path,
          query,
          fragment: text(ints[at + KEY_FRAGMENT]!),
        };
        forms = {
          string: strings[ints[at + FORMS_STRING]!]!,
          syntax: strings[ints[at + FORMS_SYNTAX]!]!,
          key,
          scheme: strings[ints[at + FORMS_SCHEME]!]!,
          host: text(ints[at + FORMS_HOST]!),
          keyReference,
        };
      }
      resolved = new ReadTarget(
        raw,
        (flags & IS_HEADER) !== 0,
        resolverOf,
        strings[ints[at + TARGET_TEXT]!]!,
        strings[ints[at + KEY]!]!,
        forms,
        text(ints[at + FRAGMENT]!),
        (flags & IS_SAME_DOCUMENT) !== 0,
        codes(ints[at + REF_FINDINGS]!) as ResolvedReference['findings'],
        text(ints[at + ALTERNATE]!),
      );
    }
    const line = ints[at + LINE]!;
    const hrefCodes = codes(ints[at + HREF_CODES]!);
    const findings = ints[at + FINDINGS]!;
    reads[i] = {
      raw,
      element: strings[ints[at + ELEMENT]!]!,
      attribute: strings[ints[at + ATTRIBUTE]!]!,
      isFollowed: (flags & IS_FOLLOWED) !== 0,
      use: USES[flags >>> USE_SHIFT]!,
      isCanonical: (flags & IS_CANONICAL) !== 0,
      hreflang: text(ints[at + HREFLANG]!),
      line: line === -1 ? undefined : line,
      column: line === -1 ? undefined : ints[at + COLUMN]!,
      baseLevel: text(ints[at + BASE_LEVEL]!) as BaseChain['level'],
      link: {
        raw,
        cleaned: text(ints[at + CLEANED]!),
        hrefCodes,
        resolved,
        error: text(ints[at + ERROR]!),
        findings: findings === -2 ? hrefCodes : codes(findings),
      },
    };
  }
  return { pageUrl, extracted, reads };
}

/**
 * A resolved reference as a worker sent it. Its parsed `reference` and `target`
 * are not sent (nothing in the crawl reads them): asked for, they are computed
 * here as the crawl's own thread would have.
 */
class ReadTarget implements ResolvedReference {
  readonly #raw: string;
  readonly #isHeader: boolean;
  readonly #resolverOf: (isHeader: boolean) => LinkResolver;
  #again: ResolvedReference | undefined;

  constructor(
    raw: string,
    isHeader: boolean,
    resolverOf: (isHeader: boolean) => LinkResolver,
    readonly targetText: string,
    readonly key: string,
    readonly forms: LadderForms | undefined,
    readonly fragment: string | undefined,
    readonly isSameDocument: boolean,
    readonly findings: ResolvedReference['findings'],
    readonly alternateTarget: string | undefined,
  ) {
    this.#raw = raw;
    this.#isHeader = isHeader;
    this.#resolverOf = resolverOf;
  }

  get reference(): UriReference {
    return this.#resolved().reference;
  }

  get target(): ResolvedReference['target'] {
    return this.#resolved().target;
  }

  #resolved(): ResolvedReference {
    return (this.#again ??= this.#resolverOf(this.#isHeader).resolve(this.#raw).resolved!);
  }
}
