// Text output to a stream in bounded memory: small writes are gathered into
// chunks, and a chunk the stream cannot take yet waits for 'drain'.

import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** @default 64 KiB of UTF-16 code units gathered before a chunk goes to the stream. */
export const DEFAULT_CHUNK_SIZE = 65_536;

/**
 * Writes text to a stream, honouring backpressure: `write` resolves once the text
 * is buffered here or taken by the stream, so a producer that awaits each write
 * never holds more than one chunk plus the stream's own high-water mark.
 */
export class StreamWriter {
  readonly #stream: Writable;
  readonly #chunkSize: number;
  #parts: string[] = [];
  #size = 0;

  constructor(stream: Writable, options: { readonly chunkSize?: number } = {}) {
    this.#stream = stream;
    this.#chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  }

  async write(text: string): Promise<void> {
    this.#parts.push(text);
    this.#size += text.length;
    if (this.#size >= this.#chunkSize) await this.flush();
  }

  /** Hand what is gathered to the stream, and wait for 'drain' if it is full. */
  async flush(): Promise<void> {
    if (this.#size === 0) return;
    const chunk = this.#parts.join('');
    this.#parts = [];
    this.#size = 0;
    const failure = this.#stream.errored;
    if (failure !== null) throw failure;
    if (this.#stream.destroyed) throw new Error('output stream closed');
    if (!this.#stream.write(chunk)) await drained(this.#stream);
  }
}

/** Resolve on 'drain'; reject if the stream fails or closes first (neither ever drains). */
async function drained(stream: Writable): Promise<void> {
  const controller = new AbortController();
  const { signal } = controller;
  try {
    await Promise.race([
      once(stream, 'drain', { signal }),
      once(stream, 'close', { signal }).then(() => {
        throw new Error('output stream closed');
      }),
    ]);
  } finally {
    controller.abort();
  }
}
