// Line output: batched into few writes, waiting for 'drain' instead of buffering without bound.

import type { Writable } from 'node:stream';

/** Writes lines to one stream, honouring backpressure, and fails fast once the stream has failed. */
export class LineWriter {
  readonly #stream: Writable;
  readonly #transform: ((line: string) => string) | undefined;
  #failure: Error | undefined;
  #isCorked = false;

  /** `transform` rewrites each line before it is written (the CLI redacts passwords with it). */
  constructor(stream: Writable, transform?: (line: string) => string) {
    this.#stream = stream;
    this.#transform = transform;
    // Without a listener an EPIPE (reader gone, e.g. `| head`) would crash the process.
    stream.on('error', (error: Error) => {
      this.#failure ??= error;
    });
  }

  async writeLine(line: string): Promise<void> {
    this.#throwIfFailed();
    this.#corkUntilNextTick();
    const text = this.#transform === undefined ? line : this.#transform(line);
    if (this.#stream.write(`${text}\n`)) return;
    // A destroyed stream never emits 'drain' (nor 'close' again): check before waiting.
    this.#throwIfFailed();
    await drained(this.#stream);
    this.#throwIfFailed();
  }

  // Lines written in one go leave as one writev instead of a syscall each; the
  // uncork comes on the next tick, so interactive output is not held back.
  #corkUntilNextTick(): void {
    if (this.#isCorked) return;
    this.#isCorked = true;
    this.#stream.cork();
    process.nextTick(() => this.flush());
  }

  /** Hand every line written so far to the stream now. */
  flush(): void {
    if (!this.#isCorked) return;
    this.#isCorked = false;
    this.#stream.uncork();
  }

  /**
   * Resolve once the stream is below its high-water mark (at once if it is), or has
   * failed: for a producer that cannot wait on each line, to pause before making more.
   */
  async waitForRoom(): Promise<void> {
    this.flush();
    const stream = this.#stream;
    if (this.#failure !== undefined || stream.errored !== null || stream.destroyed || !stream.writableNeedDrain) return;
    await drained(stream).catch(() => undefined);
  }

  /** Hand over every line and wait until the stream has taken them, or has failed. */
  async finish(): Promise<void> {
    this.flush();
    this.#throwIfFailed();
    // Callbacks run in write order, so an empty write's callback comes after every line's.
    await new Promise<void>((resolve, reject) => {
      this.#stream.write('', (error) => (error ? reject(error) : resolve()));
    });
  }

  #throwIfFailed(): void {
    // `errored` is set at once; the 'error' event comes a tick later, possibly after the last write.
    const failure = this.#failure ?? this.#stream.errored ?? undefined;
    if (failure !== undefined) throw failure;
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
