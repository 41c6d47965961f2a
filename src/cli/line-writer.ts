// Line output that waits for 'drain' instead of buffering without bound.

import type { Writable } from 'node:stream';

/** Writes lines to one stream, honouring backpressure, and fails fast once the stream has failed. */
export class LineWriter {
  readonly #stream: Writable;
  #failure: Error | undefined;

  constructor(stream: Writable) {
    this.#stream = stream;
    // Without a listener an EPIPE (reader gone, e.g. `| head`) would crash the process.
    stream.on('error', (error: Error) => {
      this.#failure ??= error;
    });
  }

  async writeLine(line: string): Promise<void> {
    this.#throwIfFailed();
    if (this.#stream.write(`${line}\n`)) return;
    await drained(this.#stream);
    this.#throwIfFailed();
  }

  #throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#stream.destroyed) throw new Error('output stream closed');
  }
}

function drained(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error): void => {
      stream.off('drain', onDrain);
      stream.off('error', onError);
      stream.off('close', onClose);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onDrain = (): void => settle();
    const onError = (error: Error): void => settle(error);
    const onClose = (): void => settle(new Error('output stream closed'));
    stream.on('drain', onDrain);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}
