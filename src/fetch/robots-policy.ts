// RFC 9309 Robots Exclusion Protocol: one robots.txt per origin, fetched once,
// shared by concurrent callers, cached (in memory, and across runs in a RobotsCache
// when given), parsed with robots-parser.
// https://www.rfc-editor.org/rfc/rfc9309

import robotsModule from 'robots-parser';
import type { FetchErrorCode } from '../errors.js';
import { HttpClient, type RetrievePolicy } from './http-client.js';
import { toRequestTarget } from './request-target.js';
import { sitemapsFromRobots } from './sitemap.js';
import { isFetchErrorCode, readRobotsCacheEntry, robotsFacts } from './robots-cache.js';
import { validateRobotsPolicyOptions, type RobotsPolicyOptions, type ValidRobotsPolicyOptions } from './robots-options.js';
import type { FetchedResponse, RobotsCacheEntry, RobotsCallOptions, RobotsFileState, RobotsPolicy } from './types.js';

// robots-parser is CommonJS whose typings say `export default`: Node hands ESM the
// function itself as the default, TypeScript (nodenext) expects it under `.default`.
type RobotsParser = typeof robotsModule.default;
type Robot = ReturnType<RobotsParser>;
const loaded: unknown = robotsModule;
const robotsParser = (typeof loaded === 'function' ? loaded : (loaded as { default: unknown }).default) as RobotsParser;

/**
 * RFC 9309 §2.3.1: what became of an origin's robots.txt.
 * - `parsed`: it was read (2xx); its rules apply.
 * - `unavailable` (§2.3.1.3): 4xx, or more redirects than allowed, or a redirect
 *   that leads nowhere: everything is allowed.
 * - `unreachable` (§2.3.1.4): 5xx, 429, or a network failure, a timeout, a body cut
 *   off: everything is disallowed ("complete disallow").
 */
export type RobotsVerdict = 'parsed' | 'unavailable' | 'unreachable';

/** What is known of one origin's robots.txt. */
export interface RobotsFile extends RobotsFileState {
  /** `scheme://host[:port]/robots.txt` */
  readonly url: string;
  readonly verdict: RobotsVerdict;
  /** The status of the last response, `undefined` when none came. */
  readonly status: number | undefined;
  /** Why the fetch failed or was cut (`ERR_FETCH_BODY_TOO_LARGE`: rules past `maxBytes` were not read). */
  readonly errorCode: FetchErrorCode | undefined;
  /** The Crawl-delay for the product token, in ms (a non-standard line, RFC 9309 §2.2.4). */
  readonly crawlDelayMs: number | undefined;
  readonly fetchedAt: number;
  /** The absolute URLs of its `Sitemap:` lines (sitemaps.org protocol), each once, in order. */
  readonly sitemaps: readonly string[];
}

/** A RobotsPolicy that owns a connection pool. */
export interface HttpRobotsPolicy extends RobotsPolicy {
  /**
   * Whether the product token may fetch `url`. URLs robots.txt does not govern
   * (not http: or https:, or not a valid URI) are allowed: the fetcher refuses them itself.
   * `/robots.txt` is implicitly allowed (RFC 9309 §2.2.2).
   */
  isAllowed(url: string, options?: RobotsCallOptions): Promise<boolean>;
  /** The Crawl-delay in ms of `url`'s origin, once its robots.txt has been read; else `undefined`. */
  crawlDelayMs(url: string): number | undefined;
  /** What is known of `url`'s origin's robots.txt, once it has been read; else `undefined`. */
  robotsFile(url: string): RobotsFile | undefined;
  /** Close the connection pool. */
  close(): Promise<void>;
}

interface CacheEntry {
  readonly file: RobotsFile;
  readonly robot: Robot | undefined;
}

interface Slot {
  readonly loading: Promise<CacheEntry>;
  entry: CacheEntry | undefined;
}

/** Create a robots.txt policy. Throws `OptionError` for a bad option, and nothing else, ever. */
export function createRobotsPolicy(options?: RobotsPolicyOptions): HttpRobotsPolicy {
  return new OriginRobotsPolicy(validateRobotsPolicyOptions(options));
}

class OriginRobotsPolicy implements HttpRobotsPolicy {
  readonly #options: ValidRobotsPolicyOptions;
  readonly #client: HttpClient;
  readonly #policy: RetrievePolicy;
  /** By origin, least recently used first. */
  readonly #slots = new Map<string, Slot>();

  constructor(options: ValidRobotsPolicyOptions) {
    this.#options = options;
    this.#client = new HttpClient(options);
    this.#policy = Object.freeze({
      maxRedirects: options.maxRedirects,
      maxBodyBytes: options.maxBytes,
      maxDecodedBytes: options.maxBytes,
      bodyTimeoutMs: options.bodyTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs,
      minBytesPerSecond: options.minBytesPerSecond,
      rateWindowMs: options.rateWindowMs,
      accept: 'text/plain,*/*;q=0.8',
      decode: 'utf-8',
      purpose: 'robots',
    });
  }

  async isAllowed(url: string, options?: RobotsCallOptions): Promise<boolean> {
    const parsed = toRequestTarget(url);
    if (!parsed.ok) return true;
    const { origin, path } = parsed.target;
    if (path === '/robots.txt') return true;
    const entry = await this.#load(origin, options);
    switch (entry.file.verdict) {
      case 'unavailable':
        return true;
      case 'unreachable':
        return false;
      case 'parsed':
        // The origin as normalized here, so robots-parser's own origin check always agrees.
        return entry.robot?.isAllowed(origin + path, this.#options.productToken) ?? true;
    }
  }

  crawlDelayMs(url: string): number | undefined {
    return this.robotsFile(url)?.crawlDelayMs;
  }

  robotsFile(url: string): RobotsFile | undefined {
    const parsed = toRequestTarget(url);
    if (!parsed.ok) return undefined;
    return this.#slots.get(parsed.target.origin)?.entry?.file;
  }

  close(): Promise<void> {
    return this.#client.close();
  }

  /** The origin's entry: cached, being fetched (shared: `onRequest` and `onExchange` of the caller that fetches it is told), or fetched now. */
  #load(origin: string, call: RobotsCallOptions | undefined): Promise<CacheEntry> {
    const slot = this.#slots.get(origin);
    if (slot !== undefined) {
      this.#slots.delete(origin);
      const { entry } = slot;
      // §2.3.1.4: unreachable is a fact of the moment, shared by the callers that asked
      // while it was fetched; the next one asks again (the caller paces that: the crawler
      // backs off per host).
      if (entry === undefined || (entry.file.verdict !== 'unreachable' && this.#isFresh(entry.file.fetchedAt))) {
        this.#slots.set(origin, slot);
        return slot.loading;
      }
    }
    const fresh: Slot = {
      loading: this.#obtain(origin, call).then((entry) => {
        fresh.entry = entry;
        return entry;
      }),
      entry: undefined,
    };
    this.#slots.set(origin, fresh);
    if (this.#slots.size > this.#options.maxCachedOrigins) {
      const oldest = this.#slots.keys().next();
      if (oldest.done !== true) this.#slots.delete(oldest.value);
    }
    return fresh.loading;
  }

  /** RFC 9309 §2.4: a cached robots.txt is used for `cacheTtlMs` at most (an entry from the future has no known age). */
  #isFresh(fetchedAt: number): boolean {
    const age = this.#options.now() - fetchedAt;
    return age >= 0 && age < this.#options.cacheTtlMs;
  }

  /** The origin's robots.txt: from the RobotsCache while fresh there, else fetched (and stored). */
  async #obtain(origin: string, call: RobotsCallOptions | undefined): Promise<CacheEntry> {
    const stored = await this.#readStored(origin);
    if (stored !== undefined && this.#isFresh(stored.fetchedAt)) return this.#entryOf(origin, stored);
    const response = await this.#client.retrieve(`${origin}/robots.txt`, this.#policy, { onRequest: call?.onRequest, onExchange: call?.onExchange });
    const facts = robotsFacts(response, robotsVerdict(response) === 'parsed');
    await this.#store(origin, facts);
    return this.#entryOf(origin, facts);
  }

  async #readStored(origin: string): Promise<RobotsCacheEntry | undefined> {
    const { cache, maxBytes } = this.#options;
    if (cache === undefined) return undefined;
    try {
      return readRobotsCacheEntry(await cache.get(origin), maxBytes);
    } catch {
      return undefined;
    }
  }

  async #store(origin: string, facts: RobotsCacheEntry): Promise<void> {
    const { cache } = this.#options;
    // §2.3.1.4: unreachable says nothing of the file, only of the moment; the next run asks again.
    if (cache === undefined || robotsVerdict(facts) === 'unreachable') return;
    // A refusal of this run's settings, not a fact about the file: a run with `allowPrivate` asks.
    if (facts.errorCode === 'ERR_FETCH_PRIVATE_ADDRESS') return;
    try {
      await cache.set(origin, facts);
    } catch {
      // Not kept: the next run fetches it again. The decision stands.
    }
  }

  /** The decision rebuilt from the facts of a fetch, this one's or a stored one's. */
  #entryOf(origin: string, facts: RobotsCacheEntry): CacheEntry {
    const url = `${origin}/robots.txt`;
    const verdict = robotsVerdict(facts);
    const robot = verdict === 'parsed' ? robotsParser(url, facts.body ?? '') : undefined;
    const seconds = robot?.getCrawlDelay(this.#options.productToken);
    const crawlDelayMs =
      typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : undefined;
    const file: RobotsFile = Object.freeze({
      url,
      verdict,
      status: facts.status,
      errorCode: isFetchErrorCode(facts.errorCode) ? facts.errorCode : undefined,
      crawlDelayMs,
      fetchedAt: facts.fetchedAt,
      sitemaps: verdict === 'parsed' ? sitemapsFromRobots(facts.body ?? '', url).urls : [],
    });
    return { file, robot };
  }
}

/** Redirects that lead to no robots.txt: RFC 9309 §2.3.1.2 lets them count as unavailable. */
const REDIRECT_FAILURES: ReadonlySet<string> = new Set<FetchErrorCode>([
  'ERR_FETCH_TOO_MANY_REDIRECTS',
  'ERR_FETCH_REDIRECT_LOOP',
  'ERR_FETCH_REDIRECT_WITHOUT_LOCATION',
  'ERR_FETCH_BAD_LOCATION',
  'ERR_FETCH_UNSUPPORTED_SCHEME',
  'ERR_FETCH_INVALID_URL',
]);

const CERTIFICATE_FAILURES: ReadonlySet<string> = new Set([
  'ERR_FETCH_TLS_CERT_EXPIRED',
  'ERR_FETCH_TLS_SELF_SIGNED',
  'ERR_FETCH_TLS_HOSTNAME',
  'ERR_FETCH_TLS_UNTRUSTED',
]);

/** RFC 9309 §2.3.1: the verdict a robots.txt response gives. */
export function robotsVerdict(response: Pick<FetchedResponse, 'status' | 'errorCode'>): RobotsVerdict {
  const { status, errorCode } = response;
  if (errorCode !== undefined && REDIRECT_FAILURES.has(errorCode)) return 'unavailable';
  // Not asked: the fetcher refuses the host's own URLs alike, and says why.
  if (errorCode === 'ERR_FETCH_PRIVATE_ADDRESS') return 'unavailable';
  // Nor is a host whose certificate is refused: its pages fail the same handshake, each
  // with the certificate's code, before any request is sent.
  if (errorCode !== undefined && CERTIFICATE_FAILURES.has(errorCode)) return 'unavailable';
  // §2.3.1.4: no response at all (network error, timeout) is unreachable.
  if (status === undefined) return 'unreachable';
  if (status >= 200 && status < 300) {
    // §2.5: a file past the size limit is parsed up to it; a body cut for any other reason is not trusted.
    return errorCode === undefined || errorCode === 'ERR_FETCH_BODY_TOO_LARGE' ? 'parsed' : 'unreachable';
  }
  // DEVIATION(RFC 9309 §2.3.1.3): 429 Too Many Requests is a 4xx, yet it says "not now", not
  // "there is none": taken as unreachable, as Google's crawler does.
  if (status === 429 || status >= 500) return 'unreachable';
  // §2.3.1.3: 400–499 is unavailable; so is any other final status (1xx, an unfollowed 3xx).
  return 'unavailable';
}

/**
 * RFC 9309 §2.2.2: the rule of a robots.txt that decides `url` for `productToken`
 * (the longest match), as written on its line (`Disallow: /private/`); `undefined`
 * when none matches or `url` is no http(s) URL. For saying why a URL was refused.
 */
export function robotsRuleFor(body: string, url: string, productToken: string): string | undefined {
  const parsed = toRequestTarget(url);
  if (!parsed.ok) return undefined;
  const { origin, path } = parsed.target;
  const line = robotsParser(`${origin}/robots.txt`, body).getMatchingLineNumber(origin + path, productToken);
  if (line < 1) return undefined;
  return body.split(/\r\n|\r|\n/)[line - 1]?.trim();
}
