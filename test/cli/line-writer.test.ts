import { describe, expect, it } from 'vitest';
import { LineWriter } from '../../src/cli/line-writer.js';
import { Sink } from './cli-harness.js';

describe('LineWriter', () => {
  it('waits for drain, so a slow stream never buffers more than its high-water mark and a line', async () => {
    const stream = new Sink({ highWaterMark: 32, isSlow: true });
    const writer = new LineWriter(stream);
    let maxBuffered = 0;
    for (let i = 0; i < 500; i += 1) {
      await writer.writeLine(`line ${i}`);
      maxBuffered = Math.max(maxBuffered, stream.writableLength);
    }
    expect(maxBuffered).toBeLessThanOrEqual(32 + 'line 499\n'.length);
    await new Promise((resolve) => stream.end(resolve));
    expect(stream.text.split('\n')).toHaveLength(501);
  });

  it('finish() waits until a slow stream has taken every line', async () => {
    const stream = new Sink({ isSlow: true });
    const writer = new LineWriter(stream);
    await writer.writeLine('a');
    await writer.writeLine('b');
    expect(stream.text).toBe('');
    await writer.finish();
    expect(stream.text).toBe('a\nb\n');
    expect(stream.writableLength).toBe(0);
  });

  it('rejects once the stream has failed', async () => {
    const stream = new Sink();
    stream._write = (_chunk, _encoding, callback): void => callback(new Error('disk full'));
    const writer = new LineWriter(stream);
    await writer.writeLine('a');
    await expect(writer.finish()).rejects.toThrow('disk full');
    await expect(writer.writeLine('b')).rejects.toThrow('disk full');
  });
});
