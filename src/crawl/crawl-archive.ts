// The run's archive (`warc`): a WARC series the crawl's every request goes into. Opened
// when the run starts — a resumed run first trims the torn tail a killed run may have
// left, and learns from the earlier files which payloads are archived already (written
// again as revisits) and what each URL's last capture was (what a 304 confirms) — fed
// by the fetcher's and robots.txt's `onExchange`, closed when the run ends, with the
// series' CDXJ index. An archive that fails to write never stops or slows the crawl:
// the first failure is kept for the summary, and the crawl goes on.

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  WarcWriter,
  cdxjEntryOf,
  existingWarcSerials,
  readArchivedCaptures,
  trimTornTail,
  warcBase,
  warcFileName,
  writeCdxjIndex,
  type ArchivedCapture,
  type CdxjEntry,
  type PayloadCapture,
  type SeriesWacz,
  type WarcExchange,
  type WarcRecordLocation,
} from '../archive/index.js';
import { ArchiveError } from '../errors.js';
import type { ArchivedRecord } from '../store/index.js';
import { headerNameOf, splitHeaderFor, type Fetcher, type OnExchange, type RobotsPolicy, type WireExchange, type WireField } from '../fetch/index.js';

/** One record written, as the index keeps it: which record stands for which URL (the run is the store's). */
export type ArchivedRecordData = Omit<ArchivedRecord, 'runId'>;

/** What the archive did in one run. */
export interface ArchiveSummary {
  /** The WARC files this run wrote, in order (paths as given). */
  readonly files: readonly string[];
  /** The series' CDXJ index (`X.cdxj`); empty when it could not be written. */
  readonly index: string;
  /** Response records written (their request records not counted). */
  readonly responses: number;
  /** Revisit records written (identical payload, or a 304). */
  readonly revisits: number;
  /** Request records written alone: the request went out, no response came. */
  readonly requestsAlone: number;
  /** Bytes a killed run's torn tail lost, trimmed when this run started. */
  readonly trimmedBytes: number;
  /** The first failure to write (the crawl went on without archiving what failed); `undefined` when none. */
  readonly error: string | undefined;
  /** With `wacz`: the package written at the end of the run. */
  readonly wacz?: SeriesWacz | undefined;
  /** With `wacz`: why the package could not be written (the WARC files stay). */
  readonly waczError?: string | undefined;
}

export interface CrawlArchiveOptions {
  /** The first file of the series (`crawl.warc.gz`). */
  readonly path: string;
  readonly maxBytes: number;
  /** linkladder's version, for each warcinfo. */
  readonly version: string;
  /** The run's settings, without secrets, for each warcinfo. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** Header names the user gave (`header`, `headerFor`): never written, whatever their value. */
  readonly secretHeaderNames: readonly string[];
  /** Told of each response, revisit and lone request record once it is written. */
  readonly onArchived?: ((record: ArchivedRecordData) => void) | undefined;
}

/** Records waiting to be written, at most, before a new request waits for the archive. */
const MAX_PENDING_WRITES = 8;

/** Request fields that carry credentials: never written in a record. */
const CREDENTIAL_REQUEST_FIELDS = ['authorization', 'proxy-authorization', 'cookie'];
/** Response fields that carry credentials (a session set by the site): never written either. */
const CREDENTIAL_RESPONSE_FIELDS = ['set-cookie', 'set-cookie2'];

/** The header names to leave out of records, lower-cased: the credential fields and those the user gave. */
export function secretHeaderNamesOf(settings: { readonly header: readonly string[]; readonly headerFor: readonly string[] }): string[] {
  const names = [...settings.header.map((field) => headerNameOf(field)), ...settings.headerFor.map((line) => headerNameOf(splitHeaderFor(line).field))];
  return names.filter((name): name is string => name !== undefined);
}

export class CrawlArchive {
  readonly #writer: WarcWriter;
  readonly #options: CrawlArchiveOptions;
  readonly #requestDrop: ReadonlySet<string>;
  /** Each URL's last capture with a 2xx payload (earlier files, then this run): what a 304 confirms. */
  readonly #lastCapture: Map<string, { readonly uri: string; readonly date: Date }>;
  /** Index lines of earlier files the series' index lacks (a killed run wrote none). */
  readonly #missingEntries: readonly CdxjEntry[];
  readonly #trimmedBytes: number;
  #pending = new Set<Promise<void>>();
  #responses = 0;
  #revisits = 0;
  #requestsAlone = 0;
  #error: string | undefined;
  #closed: Promise<ArchiveSummary> | undefined;

  private constructor(writer: WarcWriter, options: CrawlArchiveOptions, lastCapture: Map<string, { uri: string; date: Date }>, missingEntries: readonly CdxjEntry[], trimmedBytes: number) {
    this.#writer = writer;
    this.#options = options;
    this.#requestDrop = new Set([...CREDENTIAL_REQUEST_FIELDS, ...options.secretHeaderNames.map((name) => name.toLowerCase())]);
    this.#lastCapture = lastCapture;
    this.#missingEntries = missingEntries;
    this.#trimmedBytes = trimmedBytes;
  }

  /**
   * Opens the series at `path`. Its earlier files (a resumed or repeated run) are
   * never appended to: the last one is trimmed back to its last whole record, then all
   * are read back for their payloads, captures and index lines. Throws
   * `ERR_ARCHIVE_OPEN` when the new file cannot be created.
   */
  static async open(options: CrawlArchiveOptions): Promise<CrawlArchive> {
    const base = warcBase(options.path);
    let trimmedBytes = 0;
    let captures: ArchivedCapture[] = [];
    const unreadable: string[] = [];
    try {
      const files = (await existingWarcSerials(base)).map((serial) => warcFileName(base, serial));
      const last = files.at(-1);
      if (last !== undefined) trimmedBytes = await trimTornTail(last);
      for (const file of files) {
        try {
          captures = captures.concat(await readArchivedCaptures([file]));
        } catch {
          unreadable.push(basename(file));
        }
      }
    } catch (error) {
      throw new ArchiveError('ERR_ARCHIVE_OPEN', `the WARC archive ${options.path} could not be opened: ${messageOf(error)}`, { cause: error });
    }
    const knownPayloads = new Map<string, PayloadCapture>();
    const lastCapture = new Map<string, { uri: string; date: Date }>();
    for (const capture of captures) {
      if (capture.type === 'response' && capture.payloadDigest !== undefined && !knownPayloads.has(capture.payloadDigest)) {
        knownPayloads.set(capture.payloadDigest, { digest: capture.payloadDigest, uri: capture.uri, date: capture.date });
      }
      if (capture.type !== 'request' && isSuccess(capture.status)) lastCapture.set(capture.uri, { uri: capture.uri, date: capture.date });
    }
    const indexed = await indexedFiles(`${base}.cdxj`);
    const missingEntries = captures.filter((capture) => !indexed.has(capture.file)).map(cdxjEntryOf).filter((entry): entry is CdxjEntry => entry !== undefined);
    let writer: WarcWriter;
    try {
      writer = await WarcWriter.open(options.path, { version: options.version, settings: options.settings, maxBytes: options.maxBytes, knownPayloads: knownPayloads.values() });
    } catch (error) {
      throw new ArchiveError('ERR_ARCHIVE_OPEN', `the WARC archive ${options.path} could not be opened: ${messageOf(error)}`, { cause: error });
    }
    const archive = new CrawlArchive(writer, options, lastCapture, missingEntries, trimmedBytes);
    if (unreadable.length > 0) archive.#error = `earlier WARC files could not be read back (${unreadable.join(', ')}): their payloads are written again, not as revisits`;
    return archive;
  }

  /** The hook for the fetcher and robots.txt: archives each exchange, never throws. */
  readonly onExchange: OnExchange = (exchange) => {
    if (this.#closed !== undefined) return;
    try {
      this.#archive(exchange);
    } catch (error) {
      this.#fail(error);
    }
  };

  /** `fetcher`, with every request it sends archived (and the caller's own `onExchange` still told). */
  wrapFetcher(fetcher: Fetcher): Fetcher {
    const onExchange = this.onExchange;
    const wrapped: Fetcher = {
      fetch: async (url, signal, options) => {
        await this.#room(signal);
        return fetcher.fetch(url, signal, { ...options, onExchange: both(onExchange, options?.onExchange) });
      },
    };
    if (fetcher.isLocal !== undefined) wrapped.isLocal = (url) => fetcher.isLocal!(url);
    return wrapped;
  }

  /** `robots`, with every robots.txt request archived. */
  wrapRobots(robots: RobotsPolicy | undefined): RobotsPolicy | undefined {
    if (robots === undefined) return undefined;
    const onExchange = this.onExchange;
    const wrapped: RobotsPolicy = {
      isAllowed: (url, options) => robots.isAllowed(url, { ...options, onExchange: both(onExchange, options?.onExchange) }),
      crawlDelayMs: (url) => robots.crawlDelayMs(url),
    };
    if (robots.robotsFile !== undefined) wrapped.robotsFile = (url) => robots.robotsFile!(url);
    return wrapped;
  }

  /**
   * Waits for the records still being written, closes the file and writes the series'
   * CDXJ index (`X.cdxj`, merged with the lines earlier runs wrote, and those of files
   * a killed run left unindexed). Once; never throws.
   */
  close(): Promise<ArchiveSummary> {
    this.#closed ??= this.#close();
    return this.#closed;
  }

  async #close(): Promise<ArchiveSummary> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
    try {
      await this.#writer.close();
    } catch (error) {
      this.#fail(error);
    }
    let index = `${this.#writer.base}.cdxj`;
    try {
      await writeCdxjIndex(index, [...this.#missingEntries, ...this.#writer.cdxjEntries]);
    } catch (error) {
      this.#fail(error);
      index = '';
    }
    return {
      files: [...this.#writer.files],
      index,
      responses: this.#responses,
      revisits: this.#revisits,
      requestsAlone: this.#requestsAlone,
      trimmedBytes: this.#trimmedBytes,
      error: this.#error,
    };
  }

  #archive(exchange: WireExchange): void {
    // Never written: nothing went over the wire to keep.
    if (exchange.httpVersion === undefined) return;
    const isH2 = exchange.httpVersion === '2';
    const uri = withoutUserinfo(exchange.url);
    const common = {
      method: exchange.method,
      uri,
      requestHeaderLines: this.#requestLines(exchange.requestHeaders, isH2),
      // HTTP/2 is written in its HTTP/1.1 form and named by WARC-Protocol, as readers expect
      // (IIPC's WARC extensions for HTTP/2): pywb and warcio read no `HTTP/2` message.
      httpVersion: '1.1',
      ...(isH2 ? { protocol: 'h2' } : {}),
      ...(exchange.remoteAddress !== undefined ? { remoteIp: exchange.remoteAddress } : {}),
      date: new Date(exchange.startedAt),
    };
    if (exchange.status === undefined) {
      this.#track(this.#writer.writeRequest(common), uri, common.date, undefined);
      return;
    }
    const responseHeaderLines = exchange.responseHeaders
      .filter(([name]) => !CREDENTIAL_RESPONSE_FIELDS.includes(name.toLowerCase()) && !name.startsWith(':'))
      .map(([name, value]) => `${name}: ${value}`);
    const transferCoding = exchange.responseHeaders.find(([name]) => name.toLowerCase() === 'transfer-encoding')?.[1];
    const earlier = exchange.status === 304 ? this.#lastCapture.get(uri) : undefined;
    const record: WarcExchange = {
      ...common,
      status: exchange.status,
      reason: exchange.statusText ?? '',
      responseHeaderLines,
      body: exchange.body,
      // RFC 9112 §6.1: chunked is the last transfer coding; undici hands the body de-chunked.
      ...(!isH2 && transferCoding !== undefined && /(?:^|,)\s*chunked\s*$/i.test(transferCoding) ? { isChunked: true } : {}),
      ...(exchange.isCut ? { isTruncated: true } : {}),
      // A 304 confirms the last capture of the URL: without one it is kept as it came.
      ...(earlier !== undefined ? { notModified: true, refersTo: earlier } : {}),
    };
    this.#track(this.#writer.write(record), uri, common.date, exchange.status);
  }

  #requestLines(fields: readonly WireField[], isH2: boolean): string[] {
    const lines: string[] = [];
    for (const [name, value] of fields) {
      const lower = name.toLowerCase();
      if (this.#requestDrop.has(lower)) continue;
      if (name.startsWith(':')) {
        // RFC 9113 §8.3.1: `:authority` stands for Host; the other pseudo-fields are the request line's.
        if (isH2 && lower === ':authority') lines.unshift(`host: ${value}`);
        continue;
      }
      lines.push(`${name}: ${value}`);
    }
    return lines;
  }

  /**
   * Resolves once fewer than MAX_PENDING_WRITES records wait to be written: a request
   * starts only then, so that a disk slower than the network bounds what waits in
   * memory, and what a kill can lose of the archive (those records were answered, the
   * index will not ask for them again).
   */
  async #room(signal: AbortSignal | undefined): Promise<void> {
    while (this.#pending.size >= MAX_PENDING_WRITES && signal?.aborted !== true && this.#closed === undefined) {
      await Promise.race([...this.#pending]);
    }
  }

  #track(write: Promise<WarcRecordLocation>, uri: string, date: Date, status: number | undefined): void {
    const done = write.then(
      (location) => {
        if (location.type === 'response') this.#responses++;
        else if (location.type === 'revisit') this.#revisits++;
        else this.#requestsAlone++;
        if (location.type !== 'request' && isSuccess(status)) this.#lastCapture.set(uri, { uri, date });
        const record: ArchivedRecordData = { uri, file: basename(location.file), offset: location.offset, length: location.length, type: location.type, payloadDigest: location.payloadDigest, date, status };
        try {
          this.#options.onArchived?.(record);
        } catch (error) {
          this.#fail(error);
        }
      },
      (error: unknown) => this.#fail(error),
    );
    this.#pending.add(done);
    void done.then(() => this.#pending.delete(done));
  }

  #fail(error: unknown): void {
    this.#error ??= `the WARC archive stopped keeping some of what was fetched: ${messageOf(error)}`;
  }
}

function both(first: OnExchange, second: OnExchange | undefined): OnExchange {
  return second === undefined
    ? first
    : (exchange) => {
        first(exchange);
        second(exchange);
      };
}

function isSuccess(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

/** A URL's userinfo is a credential (Basic auth): never in a record. */
function withoutUserinfo(url: string): string {
  const at = url.indexOf('@');
  if (at === -1) return url;
  const match = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i.exec(url);
  return match === null ? url : match[1]! + url.slice(match[0].length);
}

/** The WARC files an index names already (its lines' `filename`). */
async function indexedFiles(index: string): Promise<Set<string>> {
  const files = new Set<string>();
  let text: string;
  try {
    text = await readFile(index, 'utf8');
  } catch {
    return files;
  }
  for (const line of text.split('\n')) {
    const json = line.indexOf('{');
    if (json === -1) continue;
    try {
      const filename = (JSON.parse(line.slice(json)) as { filename?: unknown }).filename;
      if (typeof filename === 'string') files.add(filename);
    } catch {
      // A line not ours: it names no file.
    }
  }
  return files;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
