/**
 * The error code registry and the error classes of every layer.
 *
 * Codes are stable: callers match on `code`, never on the message or the class.
 * `docs/errors.md` lists every code; a table-driven test keeps the two in step.
 * This file is pure and may be imported from any layer.
 */

/** Every code with its default message. */
export const ERROR_MESSAGES = {
  // uri — RFC 3986 syntax (returned in results by the core, thrown as UriError by the API)
  ERR_URI_BAD_SCHEME:
    'a colon appears before any "/", "?" or "#", but what precedes it is not a scheme (RFC 3986 §3.1, §4.2)',
  ERR_URI_BAD_USERINFO: 'character not allowed in userinfo (RFC 3986 §3.2.1)',
  ERR_URI_BAD_HOST: 'character not allowed in host (RFC 3986 §3.2.2)',
  ERR_URI_BAD_IP_LITERAL: 'IP literal is not "[" ( IPv6address / IPvFuture ) "]" (RFC 3986 §3.2.2)',
  ERR_URI_BAD_PORT: 'port is not *DIGIT (RFC 3986 §3.2.3)',
  ERR_URI_BAD_PATH: 'character not allowed in path (RFC 3986 §3.3)',
  ERR_URI_BAD_QUERY: 'character not allowed in query (RFC 3986 §3.4)',
  ERR_URI_BAD_FRAGMENT: 'character not allowed in fragment (RFC 3986 §3.5)',
  ERR_URI_BAD_PERCENT: '"%" not followed by two hexadecimal digits (RFC 3986 §2.1)',
  ERR_URI_NOT_ABSOLUTE: 'a base URI must be absolute: it needs a scheme (RFC 3986 §5.1, §4.3)',
  ERR_URI_BAD_IRI: 'lone UTF-16 surrogate: not a character, cannot be UTF-8 encoded (RFC 3987 §3.1)',
  // options given to the public API
  ERR_API_BAD_OPTION: 'invalid option',
  // fetch — returned in FetchedResponse.errorCode, never thrown
  ERR_FETCH_INVALID_URL: 'the URL to fetch is not an absolute RFC 3986 URI with a host',
  ERR_FETCH_UNSUPPORTED_SCHEME: 'only http: and https: URLs are fetched',
  ERR_FETCH_TOO_MANY_REDIRECTS: 'the redirect chain is longer than `maxRedirects`',
  ERR_FETCH_REDIRECT_LOOP: 'a redirect leads back to a URL already in the chain (compared by resource key)',
  ERR_FETCH_REDIRECT_WITHOUT_LOCATION: 'a redirect status came without a Location header',
  ERR_FETCH_BAD_LOCATION: 'the Location header is not a URI-reference, even after browser-style clean-up',
  ERR_FETCH_REDIRECT_HOOK_FAILED: 'the `beforeRedirect` hook threw, rejected or answered neither "follow" nor "stop": the chain was stopped there',
  ERR_FETCH_CONNECT_TIMEOUT: 'no connection (TCP and TLS) within `connectTimeoutMs`',
  ERR_FETCH_HEADERS_TIMEOUT: 'no complete response headers within `headersTimeoutMs`',
  ERR_FETCH_BODY_TIMEOUT: 'the body was not read to its end within `bodyTimeoutMs`',
  ERR_FETCH_REQUEST_TIMEOUT: 'the request, its redirect hops and its body were not done within `requestTimeoutMs`',
  ERR_FETCH_TOO_SLOW: 'the body came slower than `minBytesPerSecond` over a `rateWindowMs` window: it was cut there',
  ERR_FETCH_DNS: 'DNS: the host name does not exist (NXDOMAIN), or has no address',
  ERR_FETCH_DNS_TEMPORARY: 'DNS: the resolver failed or did not answer; whether the host name exists is not known',
  ERR_FETCH_CONNECTION_REFUSED: 'connection refused: nothing listens on the host and port',
  ERR_FETCH_NETWORK: 'network error: connection reset, host unreachable, socket closed early',
  ERR_FETCH_TLS: 'TLS handshake error: no protocol, cipher or version in common, or not TLS at all',
  ERR_FETCH_TLS_CERT_EXPIRED: 'the certificate has expired (or is not valid yet): renew it; `--insecure` skips the check',
  ERR_FETCH_TLS_SELF_SIGNED: 'the certificate is self-signed, or signed by a root not trusted: trust its CA with `--ca-file`, or skip the check with `--insecure`',
  ERR_FETCH_TLS_HOSTNAME: "the certificate is not for this host name: its names (subjectAltName) do not include the URL's host",
  ERR_FETCH_TLS_UNTRUSTED: 'the certificate chain cannot be verified (an unknown issuer, a missing intermediate, a bad signature): trust its CA with `--ca-file`, or skip the check with `--insecure`',
  ERR_FETCH_PROXY: 'the proxy could not be reached, or refused the request (407 Proxy Authentication Required, 403, 502 to CONNECT): nothing came from the target',
  ERR_FETCH_PROTOCOL: 'the response is not valid HTTP/1.1',
  ERR_FETCH_UNSOLICITED_NOT_MODIFIED: 'a 304 Not Modified answered a request that sent no validators: there is no representation it could keep',
  ERR_FETCH_BODY_TRUNCATED: 'the body ended before it was complete: the connection closed or was reset mid-body, or fewer bytes came than Content-Length said',
  ERR_FETCH_BODY_TOO_LARGE: 'the body passed `maxBodyBytes` on the wire or `maxDecodedBytes` decompressed; it is cut there',
  ERR_FETCH_CONTENT_ENCODING: 'the Content-Encoding is unknown or the compressed body is corrupt',
  ERR_FETCH_ABORTED: "the caller's AbortSignal aborted the fetch",
  ERR_FETCH_PRIVATE_ADDRESS: 'the host is, or resolves to, a loopback, private or link-local address and `refusePrivate` is set: not connected to',
  ERR_FETCH_NO_ROOT: 'the file fetcher was asked for a URL under none of its folders, and has no fallback fetcher',
  ERR_FETCH_FILE_UNREADABLE: 'the file (or a directory on its path) exists but could not be read: permission denied, a symlink loop, an I/O error',
  ERR_FETCH_FILE_NOT_REGULAR: 'the path names a FIFO, a socket or a device, not a file: not read (a read could block or never end)',
  // crawl — recorded in a URL's fetch row, or (ERR_CRAWL_STOPPED) thrown by crawl()
  ERR_CRAWL_ROBOTS_DISALLOWED: "robots.txt disallows this URL for the crawler's user-agent: it was not fetched",
  ERR_CRAWL_ROBOTS_UNREACHABLE:
    "the host's robots.txt is unreachable (5xx, 429, network failure): its URLs are left queued, not fetched, until it answers (RFC 9309 §2.3.1.4)",
  ERR_CRAWL_HOST_UNREACHABLE:
    'not checked: its host did not answer the requests before it (DNS, refused, timeouts) and was paused for the run; the failure that paused it is in the summary',
  ERR_CRAWL_PRIVATE_ADDRESS: 'the URL or a redirect it made leads to a loopback, private or link-local address (as written, or as DNS resolved it): not requested there',
  ERR_CRAWL_FETCHER_THREW: 'the fetcher threw instead of returning a result: recorded as a failed fetch',
  ERR_CRAWL_STOPPED: 'the crawl stopped on a fatal error (the cause says which)',
  // store
  // archive — thrown by the WARC writer
  ERR_ARCHIVE_CLOSED: 'the WARC writer is closed: nothing more can be written to it',
  ERR_ARCHIVE_OPEN: 'the WARC archive could not be opened',
  ERR_ARCHIVE_MISSING_FILE: 'no WARC file was given, or a file to package (a WARC file, the CDXJ index) is missing or not a regular file',
  ERR_ARCHIVE_NOT_WARC: 'the file is not a WARC file: its first record does not parse as WARC/1.0 or WARC/1.1',
  ERR_ARCHIVE_DUPLICATE_NAME: 'two WARC files to package have the same base name: they would be one file in the package',
  ERR_ARCHIVE_WACZ_WRITE: 'the WACZ package could not be written (its folder is missing or not writable, the disk is full, or a WARC file changed while it was read)',
  ERR_STORE_OPEN: 'cannot open the index database',
  ERR_STORE_MIGRATION_NAME: 'a migration file name is not NNN_snake_name.sql, or the numbers are not contiguous from 001',
  ERR_STORE_MIGRATION_UNKNOWN: 'the database has a migration this program does not know (it is newer, or another database)',
  ERR_STORE_MIGRATION_ALTERED: 'an applied migration file was changed after it was applied',
  ERR_STORE_MIGRATION_FAILED: 'a migration would leave the database inconsistent, and was rolled back',
  ERR_STORE_NOT_FOUND: 'no URL with that id in the index',
  ERR_STORE_CLAIM_LOST: 'a unit settled a claim that is not this worker\'s any more (its lease lapsed): the unit was rolled back',
  ERR_STORE_WRITE_FAILED: 'a commit of the index failed (disk full, locked, I/O error): the writes since the last commit are lost',
  ERR_STORE_NOT_INDEX: 'the file is not a linkladder index: not a SQLite database, an empty file, or the database of another program',
  ERR_STORE_CORRUPT: 'the index database is corrupt: truncated, damaged pages, or a stored value that does not parse',
  ERR_STORE_OUTDATED: 'the index was written by an older linkladder: migrate it (linkladder db migrate, or a crawl) before reading it',
  ERR_STORE_CONNECTION_LOST: 'the connection to the PostgreSQL server was lost while a unit was written: the unit was rolled back, and the server answers again',
  ERR_STORE_PARTITIONS: 'the PostgreSQL index cannot be partitioned so: it holds crawl data, or it is partitioned with another number of partitions',
  ERR_STORE_LOCKED: 'another process is writing the index (one writer per index); the message names it: pid, host, since when',
  // config — the settings of a command, from a config file and LINKLADDER_* variables
  ERR_CONFIG_INVALID: 'the configuration is invalid: a config file that cannot be read or holds an unknown key or a bad value, or such a LINKLADDER_* variable',
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

/** Which of two inputs an error is in: resolve's `base` or `reference`, compare's `a` or `b`. */
export type ErrorSubject = 'base' | 'reference' | 'a' | 'b';

/** The codes the URI core returns. */
export type UriErrorCode = Extract<ErrorCode, `ERR_URI_${string}`>;

/** Base class of every error linkladder throws. Match on `code`. */
export class LinkladderError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message?: string, options?: { cause?: unknown }) {
    super(message ?? ERROR_MESSAGES[code], options);
    this.code = code;
    this.name = 'LinkladderError';
  }
}

/** Invalid URI syntax, thrown by the throwing forms of the API (`parse`, `resolve`, …). */
export class UriError extends LinkladderError {
  declare readonly code: UriErrorCode;
  /** Index (UTF-16 code unit) of the first character that breaks the grammar. */
  readonly index: number;
  /** The string that was rejected. */
  readonly input: string;
  /** Which argument it was, where there are two: `base` or `reference` (resolve), `a` or `b` (compare). */
  readonly subject: ErrorSubject | undefined;

  constructor(code: UriErrorCode, index: number, input: string, subject?: ErrorSubject) {
    super(code, `${ERROR_MESSAGES[code]}, at index ${index}${subject === undefined ? '' : ` of ${subject}`}`);
    this.index = index;
    this.input = input;
    this.subject = subject;
    this.name = 'UriError';
  }
}

/** An option passed to the public API failed validation. */
export class OptionError extends LinkladderError {
  declare readonly code: 'ERR_API_BAD_OPTION';

  constructor(message: string) {
    super('ERR_API_BAD_OPTION', message);
    this.name = 'OptionError';
  }
}

/** The WARC writer refused a write. */
export class ArchiveError extends LinkladderError {
  declare readonly code: Extract<ErrorCode, `ERR_ARCHIVE_${string}`>;

  constructor(code: Extract<ErrorCode, `ERR_ARCHIVE_${string}`>, message?: string, options?: { cause?: unknown }) {
    super(code, message ?? ERROR_MESSAGES[code], options);
    this.name = 'ArchiveError';
  }
}

/** A store failed: it cannot open, migrate or find what it was asked for. */
export class StoreError extends LinkladderError {
  declare readonly code: Extract<ErrorCode, `ERR_STORE_${string}`>;

  constructor(code: Extract<ErrorCode, `ERR_STORE_${string}`>, message?: string, options?: { cause?: unknown }) {
    super(code, message ?? ERROR_MESSAGES[code], options);
    this.name = 'StoreError';
  }
}

/** The codes a fetch can end with (`FetchedResponse.errorCode`). */
export type FetchErrorCode = Extract<ErrorCode, `ERR_FETCH_${string}`>;

/** Describe a value for messages of the form ``got `0` (number)``. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `\`${value}\` (string)`;
  if (value === null) return '`null`';
  if (typeof value === 'object') return `an ${Array.isArray(value) ? 'array' : 'object'}`;
  return `\`${String(value)}\` (${typeof value})`;
}
