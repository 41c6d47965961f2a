// Sitemaps: the URLs a site lists for crawlers, in the sitemaps.org protocol 0.9
// (https://www.sitemaps.org/protocol.html) — a `<urlset>` of `<url>` entries, or a
// `<sitemapindex>` of `<sitemap>` entries naming further sitemaps — plain or gzipped,
// and the `Sitemap:` lines of robots.txt (the protocol's "Specifying the Sitemap
// location in your robots.txt file"; not part of RFC 9309, which leaves other
// records to extensions, §2.2.4).
//
// Pure parsing: the caller fetches. XML is read with saxes, a streaming,
// non-validating parser that stops at nothing (we stop at the first well-formedness
// error) and expands no entity but XML's five and character references, so no DTD
// trick reaches the network or blows up. Namespaces are strict: the protocol's
// elements are those in its namespace, so `<image:loc>` of an extension is never taken
// for a `<loc>`. They are resolved here, not by saxes: its namespace mode looks each
// prefix up through every open element, so nesting cost grows with the square of the
// depth (40,000 nested elements, 120 KB, took 97 s); a map of the prefixes in scope
// costs the same at any depth, and depth is capped besides. The text is fed in chunks
// with a turn of the event loop between them, so signals are heard and a read can be
// aborted. Never throws on bad input: what is wrong is a finding.

import { createGunzip } from 'node:zlib';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import robotsModule from 'robots-parser';
import { OptionError, describeValue } from '../errors.js';
import type { FindingCode } from '../findings.js';

/** The protocol's XML namespace; its root and entry elements must be in it. */
export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** The protocol's limits per file: 50,000 URLs and 50 MiB (52,428,800 bytes) uncompressed. */
export const SITEMAP_LIMITS = Object.freeze({ maxEntries: 50_000, maxBytes: 52_428_800 });

/** Elements open at once read at most (the protocol needs 3, its extensions a few more): past it, `SITEMAP_TOO_DEEP`. */
export const SITEMAP_MAX_DEPTH = 32;

/** Characters given to the XML parser between two turns of the event loop. */
const CHUNK_CHARS = 65_536;

/** Namespaces in Extensible Markup Language 1.0 (Third Edition) §3: the two prefixes bound by definition. */
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

/** `urlset` lists pages; `sitemapindex` lists sitemaps. */
export type SitemapKind = 'urlset' | 'sitemapindex';

export type SitemapFindingCode = Extract<FindingCode, `SITEMAP_${string}`>;

/** One `<url>` or `<sitemap>` entry with a `<loc>`. */
export interface SitemapEntry {
  /** The `<loc>` text, entities decoded, XML whitespace trimmed: an absolute URI as written (not normalized). */
  readonly loc: string;
  /** `<lastmod>` as written, trimmed (W3C Datetime by the protocol; not checked), or `undefined`. */
  readonly lastmod: string | undefined;
  /** 1-based line of the entry's `<loc>` start tag in the (uncompressed) XML. */
  readonly line: number;
}

/** Something wrong with the sitemap, with where it is when that is known. */
export interface SitemapFinding {
  readonly code: SitemapFindingCode;
  /** 1-based line in the (uncompressed) XML, when the finding has a place. */
  readonly line?: number;
  /** 1-based column (UTF-16 code units), when the finding has a place. */
  readonly column?: number;
  /** The XML error, or the `<loc>` / Sitemap: value concerned. */
  readonly detail?: string;
}

export interface ParsedSitemap {
  /** The root element's kind, or `undefined` when the root is not one of the protocol's. */
  readonly kind: SitemapKind | undefined;
  /** Entries with an absolute `<loc>`, in document order, at most `maxEntries`. */
  readonly entries: readonly SitemapEntry[];
  readonly findings: readonly SitemapFinding[];
  /** Whether the input was gzip (by its magic bytes, RFC 1952 §2.3.1), whatever its name or Content-Type. */
  readonly isGzip: boolean;
}

export interface SitemapOptions {
  /**
   * Entries read at most; past it, `SITEMAP_TOO_MANY_URLS` and the rest is not read.
   * @default 50000 (the protocol's limit)
   */
  readonly maxEntries?: number;
  /**
   * Uncompressed bytes read at most; past it, `SITEMAP_TOO_LARGE` and the rest is not read.
   * @default 52428800 (50 MiB, the protocol's limit)
   */
  readonly maxBytes?: number;
  /**
   * Elements open at once at most; past it, `SITEMAP_TOO_DEEP` and the rest is not read.
   * @default 32
   */
  readonly maxDepth?: number;
  /** Aborts the read: `parseSitemap` rejects with an `AbortError`. */
  readonly signal?: AbortSignal | undefined;
}

interface ValidSitemapOptions {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly signal: AbortSignal | undefined;
}

function validateSitemapOptions(options: SitemapOptions): ValidSitemapOptions {
  if (typeof options !== 'object' || options === null) {
    throw new OptionError(`Expected \`options\` to be an object, got ${describeValue(options)}`);
  }
  const valid = { ...SITEMAP_LIMITS, maxDepth: SITEMAP_MAX_DEPTH, ...options };
  for (const key of ['maxEntries', 'maxBytes', 'maxDepth'] as const) {
    const value: unknown = valid[key];
    if (!Number.isInteger(value) || (value as number) < 1) {
      throw new OptionError(`Expected \`${key}\` to be an integer >= 1, got ${describeValue(value)}`);
    }
  }
  const signal: unknown = valid.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new OptionError(`Expected \`signal\` to be an AbortSignal, got ${describeValue(signal)}`);
  }
  return Object.freeze({ maxEntries: valid.maxEntries, maxBytes: valid.maxBytes, maxDepth: valid.maxDepth, signal });
}

/** RFC 3986 §4.3 absolute-URI: it starts with a scheme (§3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )) and ":". */
const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** XML §2.3 S: space, tab, CR, LF — what the protocol's values are trimmed of. */
const XML_SPACE = /^[ \t\r\n]+|[ \t\r\n]+$/g;

/**
 * Parse a sitemap or sitemap index: bytes as fetched (gzip is detected by its magic
 * bytes and decompressed, up to `maxBytes` of output) or text already decoded.
 * Bytes are read as UTF-8, the protocol's only encoding. Throws `OptionError` for bad
 * options; never for bad input. Rejects with an `AbortError` when `signal` aborts.
 */
export async function parseSitemap(input: Uint8Array | string, options: SitemapOptions = {}): Promise<ParsedSitemap> {
  const limits = validateSitemapOptions(options);
  const signal = limits.signal;
  signal?.throwIfAborted();
  const findings: SitemapFinding[] = [];
  const reader = new SitemapReader(limits, findings);
  if (typeof input === 'string') {
    const text = input.length > limits.maxBytes ? cutText(input, limits.maxBytes, findings) : input;
    for (let start = 0; start < text.length && !reader.isDone; start += CHUNK_CHARS) {
      reader.write(text.slice(start, start + CHUNK_CHARS));
      await turn(signal);
    }
    return reader.end(false);
  }
  // RFC 1952 §2.3.1: ID1 = 31, ID2 = 139.
  const isGzip = input.length >= 2 && input[0] === 0x1f && input[1] === 0x8b;
  let chunks: Iterable<Uint8Array>;
  if (isGzip) {
    const inflated = await gunzipCapped(input, limits.maxBytes, signal);
    if (inflated === undefined) {
      findings.push({ code: 'SITEMAP_GZIP_INVALID' });
      return { kind: undefined, entries: [], findings, isGzip };
    }
    if (inflated.isCut) findings.push({ code: 'SITEMAP_TOO_LARGE' });
    chunks = inflated.chunks;
  } else {
    chunks = slices(input.length > limits.maxBytes ? tooLarge(input.subarray(0, limits.maxBytes), findings) : input);
  }
  const decoder = new TextDecoder('utf-8');
  for (const chunk of chunks) {
    if (reader.isDone) break;
    for (let start = 0; start < chunk.length && !reader.isDone; start += CHUNK_CHARS) {
      reader.write(decoder.decode(chunk.subarray(start, start + CHUNK_CHARS), { stream: true }));
      await turn(signal);
    }
  }
  if (!reader.isDone) reader.write(decoder.decode());
  return reader.end(isGzip);
}

/** `bytes` in pieces of CHUNK_CHARS bytes. */
function* slices(bytes: Uint8Array): Generator<Uint8Array> {
  for (let start = 0; start < bytes.length; start += CHUNK_CHARS) yield bytes.subarray(start, start + CHUNK_CHARS);
}

/** A turn of the event loop (timers and signal handlers run), then a check of `signal`. */
async function turn(signal: AbortSignal | undefined): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  signal?.throwIfAborted();
}

function tooLarge(bytes: Uint8Array, findings: SitemapFinding[]): Uint8Array {
  findings.push({ code: 'SITEMAP_TOO_LARGE' });
  return bytes;
}

/** The longest prefix of `text` whose UTF-8 form fits in `maxBytes`. */
function cutText(text: string, maxBytes: number, findings: SitemapFinding[]): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return text;
  findings.push({ code: 'SITEMAP_TOO_LARGE' });
  return new TextDecoder('utf-8').decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, '');
}

/**
 * Gunzip `input` (every member, RFC 1952 §2.2), keeping at most `maxBytes` of output.
 * `undefined` when it does not decompress (bad header, bad data, cut short).
 */
async function gunzipCapped(input: Uint8Array, maxBytes: number, signal: AbortSignal | undefined): Promise<{ chunks: Buffer[]; isCut: boolean } | undefined> {
  const gunzip = createGunzip();
  const chunks: Buffer[] = [];
  let total = 0;
  let isCut = false;
  gunzip.end(input);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      if (signal?.aborted === true) break;
      const room = maxBytes - total;
      if (chunk.length > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        isCut = true;
        break; // ends the iteration and destroys the stream: nothing more is inflated
      }
      chunks.push(chunk);
      total += chunk.length;
    }
  } catch {
    signal?.throwIfAborted();
    return undefined;
  }
  signal?.throwIfAborted();
  return { chunks, isCut };
}

/**
 * Where the reader is in the document: `outside` an entry (before the root, between
 * entries), in an `entry` (`<url>` / `<sitemap>`) but not in one of its fields, or in a
 * `field` (its `<loc>` or `<lastmod>`).
 */
type Place = 'outside' | 'entry' | 'field';

/** saxes events turned into entries, stopping at the first error or limit. */
class SitemapReader {
  readonly #limits: ValidSitemapOptions;
  readonly #findings: SitemapFinding[];
  readonly #parser = new SaxesParser<{ xmlns: false; position: true }>({ xmlns: false, position: true });
  readonly #entries: SitemapEntry[] = [];
  /** The namespace each prefix in scope is bound to (`''` the default namespace). */
  readonly #namespaces = new Map<string, string>([
    ['xml', XML_NAMESPACE],
    ['xmlns', XMLNS_NAMESPACE],
  ]);
  /** For each open element that declared namespaces, what its declarations hid (restored when it closes). */
  readonly #hidden: (readonly (readonly [string, string | undefined])[] | undefined)[] = [];
  #kind: SitemapKind | undefined;
  #isDone = false;
  #depth = 0;
  #place: Place = 'outside';
  #entryCount = 0;
  #field: 'loc' | 'lastmod' | undefined;
  #fieldText = '';
  #loc: string | undefined;
  #locLine = 0;
  #lastmod: string | undefined;

  constructor(limits: ValidSitemapOptions, findings: SitemapFinding[]) {
    this.#limits = limits;
    this.#findings = findings;
    const parser = this.#parser;
    parser.on('error', (error) => this.#onError(error));
    parser.on('opentag', (tag) => this.#onOpenTag(tag));
    parser.on('closetag', () => this.#onCloseTag());
    parser.on('text', (text) => this.#onText(text));
    parser.on('cdata', (text) => this.#onText(text));
  }

  get isDone(): boolean {
    return this.#isDone;
  }

  write(text: string): void {
    if (!this.#isDone && text !== '') this.#parser.write(text);
  }

  end(isGzip: boolean): ParsedSitemap {
    if (!this.#isDone) {
      this.#parser.close();
      this.#isDone = true;
    }
    return { kind: this.#kind, entries: this.#entries, findings: this.#findings, isGzip };
  }

  #stop(): void {
    this.#isDone = true;
  }

  #onError(error: Error): void {
    if (this.#isDone) return;
    // saxes reports 1-based lines and 0-based columns, in its message too ("1:5: …").
    this.#fail(error.message.replace(/^\d+:\d+: /, ''));
  }

  #fail(message: string): void {
    this.#findings.push({ code: 'SITEMAP_XML_INVALID', line: this.#parser.line, column: this.#parser.columnIndex + 1, detail: message });
    this.#stop();
  }

  // Namespaces in XML 1.0 §5 (scoping): a declaration holds for its element and what it contains.
  #declare(attributes: Readonly<Record<string, string>>): void {
    let hidden: [string, string | undefined][] | undefined;
    for (const name in attributes) {
      const prefix = name === 'xmlns' ? '' : name.startsWith('xmlns:') ? name.slice(6) : undefined;
      if (prefix === undefined) continue;
      (hidden ??= []).push([prefix, this.#namespaces.get(prefix)]);
      this.#namespaces.set(prefix, attributes[name]!);
    }
    this.#hidden.push(hidden);
  }

  /** The namespace and local name of an element named `name` (a QName, §4), or `undefined` after a failure. */
  #expand(name: string): { uri: string; local: string } | undefined {
    const colon = name.indexOf(':');
    if (colon === -1) return { uri: this.#namespaces.get('') ?? '', local: name };
    const prefix = name.slice(0, colon);
    const uri = this.#namespaces.get(prefix);
    if (uri === undefined || uri === '') {
      this.#fail(`unbound namespace prefix: ${JSON.stringify(prefix)}.`);
      return undefined;
    }
    return { uri, local: name.slice(colon + 1) };
  }

  #onOpenTag(tag: SaxesTagPlain): void {
    if (this.#isDone) return;
    this.#depth++;
    this.#declare(tag.attributes);
    if (this.#depth > this.#limits.maxDepth) {
      this.#findings.push({ code: 'SITEMAP_TOO_DEEP', line: this.#parser.line, detail: `more than ${this.#limits.maxDepth} nested elements` });
      this.#stop();
      return;
    }
    const name = this.#expand(tag.name);
    if (name === undefined) return;
    const isProtocol = name.uri === SITEMAP_NAMESPACE;
    if (this.#depth === 1) {
      // The root: <urlset> or <sitemapindex>, in the protocol's namespace.
      if (isProtocol && (name.local === 'urlset' || name.local === 'sitemapindex')) {
        this.#kind = name.local;
      } else {
        const found = name.uri === '' ? `<${name.local}> in no namespace` : `<${name.local}> in ${name.uri}`;
        this.#findings.push({ code: 'SITEMAP_ROOT_INVALID', line: this.#parser.line, detail: found });
        this.#stop();
      }
      return;
    }
    if (this.#depth === 2 && isProtocol && name.local === (this.#kind === 'urlset' ? 'url' : 'sitemap')) {
      this.#entryCount++;
      if (this.#entryCount > this.#limits.maxEntries) {
        this.#findings.push({ code: 'SITEMAP_TOO_MANY_URLS', line: this.#parser.line });
        this.#stop();
        return;
      }
      this.#place = 'entry';
      this.#loc = undefined;
      this.#lastmod = undefined;
      this.#locLine = this.#parser.line;
      return;
    }
    if (this.#depth === 3 && this.#place === 'entry' && isProtocol && (name.local === 'loc' || name.local === 'lastmod')) {
      this.#place = 'field';
      this.#field = name.local;
      this.#fieldText = '';
      if (name.local === 'loc') this.#locLine = this.#parser.line;
    }
  }

  #onText(text: string): void {
    if (this.#place === 'field' && !this.#isDone) this.#fieldText += text;
  }

  #onCloseTag(): void {
    if (this.#isDone) return;
    for (const [prefix, uri] of this.#hidden.pop() ?? []) {
      if (uri === undefined) this.#namespaces.delete(prefix);
      else this.#namespaces.set(prefix, uri);
    }
    if (this.#depth === 3 && this.#place === 'field') {
      const value = this.#fieldText.replace(XML_SPACE, '');
      // Of repeated fields the first is kept.
      if (this.#field === 'loc') this.#loc ??= value;
      else this.#lastmod ??= value;
      this.#place = 'entry';
      this.#field = undefined;
    } else if (this.#depth === 2 && this.#place === 'entry') {
      this.#endEntry();
      this.#place = 'outside';
    }
    this.#depth--;
  }

  #endEntry(): void {
    const loc = this.#loc;
    if (loc === undefined || loc === '') {
      this.#findings.push({ code: 'SITEMAP_LOC_MISSING', line: this.#parser.line });
    } else if (!ABSOLUTE.test(loc)) {
      this.#findings.push({ code: 'SITEMAP_LOC_NOT_ABSOLUTE', line: this.#locLine, detail: loc });
    } else {
      this.#entries.push({ loc, lastmod: this.#lastmod === '' ? undefined : this.#lastmod, line: this.#locLine });
    }
  }
}

// robots-parser is CommonJS whose typings say `export default` (see robots-policy.ts).
type RobotsParser = typeof robotsModule.default;
const loaded: unknown = robotsModule;
const robotsParser = (typeof loaded === 'function' ? loaded : (loaded as { default: unknown }).default) as RobotsParser;

/** The sitemaps a robots.txt names. */
export interface RobotsSitemaps {
  /** The absolute URLs of its `Sitemap:` lines, as written, each once, in order. */
  readonly urls: readonly string[];
  /** `SITEMAP_LOC_NOT_ABSOLUTE` for each line that is not an absolute URI (the protocol asks for the full URL). */
  readonly findings: readonly SitemapFinding[];
}

/**
 * The `Sitemap:` lines of a robots.txt (sitemaps.org protocol; any group, case-insensitive
 * field name), read with robots-parser. `robotsUrl` is where it was fetched. Never throws.
 */
export function sitemapsFromRobots(robotsText: string, robotsUrl: string): RobotsSitemaps {
  let values: string[];
  try {
    values = robotsParser(robotsUrl, robotsText).getSitemaps();
  } catch {
    values = [];
  }
  const urls: string[] = [];
  const findings: SitemapFinding[] = [];
  for (const value of values) {
    const url = value.trim();
    if (!ABSOLUTE.test(url)) findings.push({ code: 'SITEMAP_LOC_NOT_ABSOLUTE', detail: url });
    else if (!urls.includes(url)) urls.push(url);
  }
  return { urls, findings };
}
