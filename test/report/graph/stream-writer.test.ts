import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StreamWriter } from '../../../src/report/index.js';

/** A sink whose writes finish only when the test says so. */
class HeldSink extends Writable {
  readonly chunks: string[] = [];
  readonly #pending: (() => void)[] = [];

  constructor() {
    super({
      highWaterMark: 4,
      write: (chunk: Buffer, _encoding, callback) => {
        this.chunks.push(chunk.toString());
        this.#pending.push(() => callback());
      },
    });
  }

  release(): void {
    for (const callback of this.#pending.splice(0)) callback();
  }
}

describe('StreamWriter', () => {
  it('gathers small writes into chunks of about chunkSize', async () => {
    const sink = new HeldSink();
    const writer = new StreamWriter(sink, { chunkSize: 8 });
    await writer.write('abc');
    await writer.write('def');
    expect(sink.chunks).toEqual([]);
    const full = writer.write('gh'); // 8 units: a chunk goes out, above the sink's high-water mark
    expect(sink.chunks).toEqual(['abcdefgh']);
    let isResolved = false;
    void full.then(() => (isResolved = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(isResolved).toBe(false); // waiting for 'drain'
    sink.release();
    await full;
    await writer.write('tail');
    const flushed = writer.flush();
    sink.release();
    await flushed;
    expect(sink.chunks).toEqual(['abcdefgh', 'tail']);
  });

  it('rejects when the stream fails or closes while it waits for drain', async () => {
    const sink = new HeldSink();
    const writer = new StreamWriter(sink, { chunkSize: 1 });
    const waiting = writer.write('more than four characters');
    sink.destroy(new Error('disk full'));
    await expect(waiting).rejects.toThrow('disk full');
    await expect(writer.write('again')).rejects.toThrow('disk full');

    const closed = new HeldSink();
    const closedWriter = new StreamWriter(closed, { chunkSize: 1 });
    const pending = closedWriter.write('more than four characters');
    closed.destroy();
    await expect(pending).rejects.toThrow('output stream closed');
  });
});
