// One HTTP exchange as it went over the wire, for whoever keeps an archive of them
// (a WARC file: request and response records, ISO 28500 §6.3, §6.4). Kept only when
// a caller asks for it (`onExchange`): nothing of this is collected otherwise.

/** The protocol version of the exchange, as an archive's request and status lines name it. */
export type WireHttpVersion = '1.1' | '2';

/** A header field as sent or received: its name as on the wire, its value. */
export type WireField = readonly [name: string, value: string];

/**
 * One request and its response, hop by hop (a redirect's hop is an exchange of its
 * own). The request's fields are those sent, credentials included (`authorization`,
 * `cookie`): whoever writes them anywhere decides what to keep of them.
 */
export interface WireExchange {
  readonly method: string;
  readonly url: string;
  /** `undefined` when the request was never written (the connection failed first). */
  readonly httpVersion: WireHttpVersion | undefined;
  /**
   * The fields as written, in order: with HTTP/1.1 `host` and `connection` included,
   * with HTTP/2 the pseudo-header fields (`:method`, `:path`…) first (RFC 9113 §8.3.1).
   * When the request was never written, the fields it was given.
   */
  readonly requestHeaders: readonly WireField[];
  /** `undefined` when no response came (a network error, a timeout before the head). */
  readonly status: number | undefined;
  /** The reason phrase (RFC 9112 §4); HTTP/2 has none: `''`. */
  readonly statusText: string | undefined;
  /** The response's fields in the order received, names as sent, repeats kept apart. */
  readonly responseHeaders: readonly WireField[];
  /**
   * The body as received, before any content coding is undone (gzip stays gzip),
   * up to what was read of it: the body cap, or for a body not wanted (a redirect's,
   * an image's) the few KiB read to keep the connection; none for HEAD.
   */
  readonly body: Uint8Array;
  /** The body was not read to its end: a cap, a deadline, a reset, or not wanted. */
  readonly isCut: boolean;
  /** The peer's IP address (the proxy's, through a proxy). */
  readonly remoteAddress: string | undefined;
  /** When the request was sent (the fetcher's clock, ms since the epoch). */
  readonly startedAt: number;
  /** The hop's ERR_FETCH_* code when it failed. */
  readonly errorCode: string | undefined;
}

/** Told of each exchange once it is over; a hook that throws does not stop the fetch. */
export type OnExchange = (exchange: WireExchange) => void;

/**
 * The header block undici wrote (`undici:client:sendHeaders`): HTTP/1.1's starts with
 * the request line, dropped here; HTTP/2's names start with `:` for pseudo-fields.
 */
export function parseSentHeaders(block: string, isH2: boolean): WireField[] {
  const lines = block.split('\r\n');
  const fields: WireField[] = [];
  for (let index = isH2 ? 0 : 1; index < lines.length; index++) {
    const line = lines[index]!;
    const colon = line.indexOf(':', 1);
    if (colon === -1) continue;
    fields.push([line.slice(0, colon), line.slice(colon + 1).replace(/^[ \t]+/, '')]);
  }
  return fields;
}

/** undici's raw header list (name, value, name, value… as Buffers) as pairs. */
export function pairRawHeaders(raw: readonly (Buffer | string | readonly (Buffer | string)[])[] | undefined): WireField[] {
  const fields: WireField[] = [];
  if (raw === undefined) return fields;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = String(raw[index]);
    const value = raw[index + 1]!;
    if (Array.isArray(value)) for (const one of value) fields.push([name, latin1(one as Buffer | string)]);
    else fields.push([name, latin1(value as Buffer | string)]);
  }
  return fields;
}

function latin1(value: Buffer | string): string {
  return typeof value === 'string' ? value : value.toString('latin1');
}
