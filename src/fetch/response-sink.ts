// One HTTP exchange as undici's dispatcher hands it over: the status and header
// fields first, then the body's chunks, collected as they come. Reading through a
// dispatch handler, not `request()`'s body stream, costs a third of the CPU a
// request takes (no stream, no async iterator, no async resource per request).

import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { listenForProtocol, type ProtocolListener } from './negotiated-protocol.js';
import type { HttpProtocol } from './types.js';
import { pairRawHeaders, parseSentHeaders, type WireField } from './wire-exchange.js';

/** What a sink keeps for an exchange's archive, when asked to (`isCapturing`). */
export interface WireCapture {
  /** The request's fields as written; `undefined` when it never was. */
  requestHeaders: WireField[] | undefined;
  remoteAddress: string | undefined;
  status: number | undefined;
  statusText: string | undefined;
  responseHeaders: WireField[];
}

/** What came before the body: RFC 9110 §15 status, §6.3 header fields (names lower-cased, repeats as arrays). */
export interface ResponseHead {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
}

/** A body as read: its chunks, how many bytes came, and why reading stopped early, if it did. */
export interface WireBody {
  readonly chunks: readonly Buffer[];
  readonly wireBytes: number;
  /** The cap stopped it: the bytes past it were not read (the connection was closed). */
  readonly isCapped: boolean;
  /** The exchange failed after the head (a reset, a close, an abort): what came is in `chunks`. */
  readonly error: unknown;
}

/** Why the sink closed the connection itself: the rest of the body is not wanted (past a cap, or not read). */
class BodyNotWanted extends Error {
  constructor() {
    super('the rest of the body is not read');
    this.name = 'BodyNotWanted';
  }
}

/**
 * The handler of one dispatched request. `head` settles once the response starts
 * (or rejects with the error that prevented it); the body is kept up to `maxBytes`
 * on the wire, past which the connection is closed. Aborting `signal` aborts the
 * exchange at whatever stage it is. Given the request's method and path, it learns
 * the protocol of the connection the request is written to (`protocol`).
 */
export class ResponseSink implements Dispatcher.DispatchHandler {
  readonly head: Promise<ResponseHead>;
  /** The protocol the request went out on, once it was written; `undefined` before (or without `request`). */
  protocol: HttpProtocol | undefined;
  /** Kept only when the request asked for it (`isCapturing`). */
  readonly capture: WireCapture | undefined;
  readonly #listener: ProtocolListener | undefined;
  #resolveHead!: (head: ResponseHead) => void;
  #rejectHead!: (error: unknown) => void;
  #hasHead = false;
  readonly #signal: AbortSignal;
  readonly #onAbort = (): void => this.#abort(this.#signal.reason);
  #controller: Dispatcher.DispatchController | undefined;
  #maxBytes: number;
  readonly #chunks: Buffer[] = [];
  #wireBytes = 0;
  #isCapped = false;
  #isDone = false;
  #isClosedEarly = false;
  #error: unknown;
  #onWireBytes: ((bytes: number) => void) | undefined;
  #wake: (() => void) | undefined;
  #onChunk: (() => void) | undefined;

  constructor(
    signal: AbortSignal,
    maxBytes: number,
    request?: { readonly method: string; readonly path: string; readonly isCapturing?: boolean | undefined },
  ) {
    this.#signal = signal;
    const capture: WireCapture | undefined =
      request?.isCapturing === true ? { requestHeaders: undefined, remoteAddress: undefined, status: undefined, statusText: undefined, responseHeaders: [] } : undefined;
    this.capture = capture;
    this.#listener =
      request === undefined
        ? undefined
        : {
            method: request.method,
            path: request.path,
            onProtocol: (protocol) => {
              this.protocol = protocol;
            },
            onSent:
              capture === undefined
                ? undefined
                : (headers, remoteAddress) => {
                    capture.requestHeaders = parseSentHeaders(headers, this.protocol === 'h2');
                    capture.remoteAddress = remoteAddress;
                  },
          };
    this.#maxBytes = maxBytes;
    this.head = new Promise<ResponseHead>((resolve, reject) => {
      this.#resolveHead = resolve;
      this.#rejectHead = reject;
    });
    signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#signal.aborted) this.#abort(this.#signal.reason);
    else if (this.#listener !== undefined) listenForProtocol(this.#listener);
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders, statusText?: string): void {
    if (this.capture !== undefined) {
      this.capture.status = status;
      this.capture.statusText = statusText ?? '';
      // undici's own handler adapter keeps the raw list on the controller (names as sent, in order).
      this.capture.responseHeaders = pairRawHeaders((controller as { rawHeaders?: Buffer[] }).rawHeaders);
    }
    this.#hasHead = true;
    this.#resolveHead({ status, headers });
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#isDone) return;
    this.#onWireBytes?.(chunk.length);
    this.#chunks.push(chunk);
    this.#wireBytes += chunk.length;
    if (this.#wireBytes > this.#maxBytes) this.#keepFirst(this.#maxBytes);
    else this.#onChunk?.();
  }

  onResponseEnd(): void {
    this.#finish(undefined);
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (!this.#hasHead) {
      this.#signal.removeEventListener('abort', this.#onAbort);
      this.#isDone = true;
      this.#rejectHead(error);
      return;
    }
    this.#finish(error);
  }

  /**
   * The body, once it ended, failed or reached `maxBytes` (lowered here if given).
   * `onWireBytes` hears of each chunk that comes from now on.
   */
  read(options?: { readonly maxBytes?: number; readonly onWireBytes?: (bytes: number) => void }): Promise<WireBody> {
    this.#onWireBytes = options?.onWireBytes;
    if (options?.maxBytes !== undefined && options.maxBytes < this.#maxBytes) {
      this.#maxBytes = options.maxBytes;
      if (this.#wireBytes > this.#maxBytes) this.#keepFirst(this.#maxBytes);
    }
    return new Promise<WireBody>((resolve) => {
      const settle = (): void =>
        resolve({ chunks: this.#chunks, wireBytes: this.#wireBytes, isCapped: this.#isCapped, error: this.#error });
      if (this.#isDone) settle();
      else this.#wake = settle;
    });
  }

  /**
   * The body's chunks as they come, for a reader that may stop early (a decoder
   * past its cap): stopping closes the connection. Ends as `read()` would; its
   * `WireBody` (without chunks already taken) then says why.
   */
  async *stream(options?: { readonly onWireBytes?: (bytes: number) => void }): AsyncGenerator<Buffer, WireBody> {
    this.#onWireBytes = options?.onWireBytes;
    let next = 0;
    try {
      for (;;) {
        while (next < this.#chunks.length) yield this.#chunks[next++]!;
        if (this.#isDone) break;
        await new Promise<void>((resolve) => {
          this.#onChunk = resolve;
          this.#wake = resolve;
        });
        this.#onChunk = undefined;
        this.#wake = undefined;
      }
      return { chunks: [], wireBytes: this.#wireBytes, isCapped: this.#isCapped, error: this.#error };
    } finally {
      this.close();
    }
  }

  /** Close the connection unless the body already ended (the server stops sending). */
  close(): void {
    if (this.#isDone) return;
    this.#isClosedEarly = true;
    this.#abort(new BodyNotWanted());
  }

  /**
   * The body bytes kept so far, as received (content-coded), and whether reading
   * stopped before its end (a cap, an error, closed early). For the exchange's archive.
   */
  received(): { readonly chunks: readonly Buffer[]; readonly isCut: boolean } {
    return { chunks: this.#chunks, isCut: this.#isCapped || this.#isClosedEarly || this.#error !== undefined || !this.#isDone };
  }

  #abort(reason: unknown): void {
    // Before onRequestStart there is nothing to abort yet: it aborts when it comes.
    this.#controller?.abort(reason instanceof Error ? reason : new Error(String(reason)));
  }

  /** The cap: keep the first `bytes` bytes, close the connection. */
  #keepFirst(bytes: number): void {
    let kept = 0;
    let count = 0;
    for (; count < this.#chunks.length && kept < bytes; count++) {
      const chunk = this.#chunks[count]!;
      if (kept + chunk.length > bytes) this.#chunks[count] = chunk.subarray(0, bytes - kept);
      kept += this.#chunks[count]!.length;
    }
    this.#chunks.length = count;
    this.#wireBytes = kept;
    this.#isCapped = true;
    this.#finish(undefined);
    this.#controller?.abort(new BodyNotWanted());
  }

  #finish(error: unknown): void {
    if (this.#isDone) return;
    this.#isDone = true;
    this.#error = error;
    this.#signal.removeEventListener('abort', this.#onAbort);
    this.#wake?.();
  }
}
