// Reading a response body under two caps: bytes on the wire, and bytes once the
// content codings (RFC 9110 §8.4) are undone. Decompression is streamed, so a
// compression bomb is stopped after `maxDecodedBytes` of output, never inflated whole.

import { Readable, pipeline, type Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { FetchErrorCode } from '../errors.js';
import { classifyError } from './classify-error.js';
import type { WireBody } from './response-sink.js';

export interface BodyLimits {
  readonly maxBodyBytes: number;
  readonly maxDecodedBytes: number;
}

export interface BodyRead {
  /** The decoded bytes read, at most `maxDecodedBytes`. */
  readonly data: Buffer;
  /** `ERR_FETCH_BODY_TOO_LARGE` when a cap cut the body, else the code of a failure, else `undefined`. */
  readonly errorCode: FetchErrorCode | undefined;
}

/** RFC 9110 §8.4.1 content codings this reader undoes (and the fetcher asks for). */
export const CONTENT_CODINGS: ReadonlySet<string> = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/**
 * RFC 9110 §8.4 Content-Encoding: the codings in the order they were applied,
 * `identity` and empty members dropped, lower-cased. `undefined` when one of them
 * is not in `CONTENT_CODINGS`.
 */
export function parseContentEncoding(value: string | undefined): readonly string[] | undefined {
  if (value === undefined) return [];
  const codings = value
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  return codings.every((coding) => CONTENT_CODINGS.has(coding)) ? codings : undefined;
}

// DEVIATION(RFC 9110 §8.4): like browsers and undici's fetch, a compressed stream cut
// short is no error: what decodes is kept.
const ZLIB_OPTIONS = { finishFlush: constants.Z_SYNC_FLUSH } as const;
const BROTLI_OPTIONS = { finishFlush: constants.BROTLI_OPERATION_FLUSH } as const;

function createDecoder(coding: string, firstByte: number | undefined): Transform {
  switch (coding) {
    case 'br':
      return createBrotliDecompress(BROTLI_OPTIONS);
    case 'deflate':
      // DEVIATION(RFC 9110 §8.4.1.2): "deflate" means zlib-wrapped, yet some servers send
      // raw deflate; browsers and undici's fetch decode both. A zlib header's first byte
      // has compression method 8 in its low nibble.
      return firstByte === undefined || (firstByte & 0x0f) === 0x08
        ? createInflate(ZLIB_OPTIONS)
        : createInflateRaw(ZLIB_OPTIONS);
    default:
      return createGunzip(ZLIB_OPTIONS);
  }
}

/**
 * An uncoded body as read off the wire (the sink stopped at the smaller cap): what
 * came is kept when a cap or a failure stopped it; a failure of the wire is
 * ERR_FETCH_BODY_TRUNCATED (or its timeout's code).
 */
export function plainBody(wire: WireBody): BodyRead {
  const { chunks, wireBytes } = wire;
  const data = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, wireBytes);
  if (wire.isCapped) return { data, errorCode: 'ERR_FETCH_BODY_TOO_LARGE' };
  return { data, errorCode: wire.error === undefined ? undefined : classifyWireError(wire.error) };
}

/**
 * Undo the content codings of a body as it comes off the wire (`source`: its
 * chunks, then how the wire ended), under `maxDecodedBytes`: decoding is streamed,
 * so a compression bomb is stopped after that much output and its connection
 * closed, never inflated whole. What decoded is kept when a cap or a failure stops it.
 */
export async function decodeBody(
  source: AsyncGenerator<Buffer, WireBody>,
  codings: readonly string[],
  limits: BodyLimits,
  closeWire: () => void,
): Promise<BodyRead> {
  let ending: WireBody | undefined;
  const first = await source.next();
  if (first.done === true) ending = first.value;
  const firstChunk = first.done === true ? undefined : first.value;
  async function* wire(): AsyncGenerator<Buffer> {
    if (firstChunk === undefined) return;
    yield firstChunk;
    for (;;) {
      const next = await source.next();
      if (next.done === true) {
        ending = next.value;
        return;
      }
      yield next.value;
    }
  }
  const decoded: Buffer[] = [];
  let decodedBytes = 0;
  let isCut = false;
  let decodeError: unknown;
  try {
    // Codings are undone in the reverse of the order they were applied in.
    const decoders = [...codings].reverse().map((coding, i) => createDecoder(coding, i === 0 ? firstChunk?.[0] : undefined));
    const stream = pipeline([Readable.from(wire(), { objectMode: false }), ...decoders], () => {
      /* errors surface through the iteration below */
    }) as unknown as AsyncIterable<Buffer>;
    for await (const chunk of stream) {
      const room = limits.maxDecodedBytes - decodedBytes;
      if (chunk.length > room) {
        if (room > 0) decoded.push(chunk.subarray(0, room));
        decodedBytes += room;
        isCut = true;
        break;
      }
      decoded.push(chunk);
      decodedBytes += chunk.length;
    }
  } catch (error) {
    decodeError = error;
  } finally {
    // Stopped before the wire's end (a cap, a corrupt body): the connection is closed.
    closeWire();
  }
  let errorCode: FetchErrorCode | undefined;
  if (isCut || ending?.isCapped === true) errorCode = 'ERR_FETCH_BODY_TOO_LARGE';
  // A body cut short on the wire keeps the wire's code, whatever the decoder made of the rest.
  else if (ending?.error !== undefined) errorCode = classifyWireError(ending.error);
  else if (decodeError !== undefined) errorCode = classifyDecodeError(decodeError);
  return { data: Buffer.concat(decoded, decodedBytes), errorCode };
}

/** A failure that did not come from the wire came from a decoder: corrupt compressed data. */
function classifyDecodeError(error: unknown): FetchErrorCode {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && code.startsWith('UND_ERR') ? classifyWireError(error) : 'ERR_FETCH_CONTENT_ENCODING';
}

/**
 * A failure of the wire once the headers came: the body is cut short. A reset, a
 * close before the last chunk, fewer bytes than Content-Length (undici's
 * UND_ERR_SOCKET, UND_ERR_RES_CONTENT_LENGTH_MISMATCH, a parser error mid-body) is
 * ERR_FETCH_BODY_TRUNCATED; a timeout keeps its own code.
 */
function classifyWireError(error: unknown): FetchErrorCode {
  const code = classifyError(error);
  return code === 'ERR_FETCH_NETWORK' || code === 'ERR_FETCH_PROTOCOL' ? 'ERR_FETCH_BODY_TRUNCATED' : code;
}

/**
 * The codes that, on a response that came (it has a status), say its body is
 * incomplete: cut short on the wire, by a deadline, by a too slow transfer or an
 * abort. `ERR_FETCH_NETWORK` is one in indexes written before
 * ERR_FETCH_BODY_TRUNCATED existed. The cap of `maxBodyBytes` is not: a body cut
 * there is kept on purpose.
 */
export const BODY_CUT_CODES: ReadonlySet<string> = new Set<FetchErrorCode>([
  'ERR_FETCH_BODY_TRUNCATED',
  'ERR_FETCH_BODY_TIMEOUT',
  'ERR_FETCH_REQUEST_TIMEOUT',
  'ERR_FETCH_TOO_SLOW',
  'ERR_FETCH_NETWORK',
  'ERR_FETCH_ABORTED',
]);

export function isBodyCut(errorCode: string | undefined): boolean {
  return errorCode !== undefined && BODY_CUT_CODES.has(errorCode);
}
