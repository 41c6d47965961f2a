// A million-edge graph, generated lazily by a fake reader, exported in every format
// to a slow sink: the heap must stay bounded (the writers stream, waiting for
// 'drain'), far below the size of the output.

import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { exportGraph, GRAPH_FORMATS, type GraphFormat } from '../../../src/report/index.js';
import type { EdgeRow, UrlRow } from '../../../src/store/index.js';
import { FakeReader, formRow, urlRow } from '../support/fake-reader.js';

const NODES = 20_000;
const EDGES = 1_000_000;
const ALIASES = 500;
const SAMPLE_EVERY = 50_000;
/** The most the live heap may grow while exporting; every format's output is at least twice this. */
const HEAP_GROWTH_LIMIT = 16 * 1024 * 1024;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A sink that takes its time (a callback per chunk on a later turn) and counts what it got. */
class SlowCountingSink extends Writable {
  bytes = 0;
  lastChunk = '';

  constructor() {
    super({
      highWaterMark: 16_384,
      write: (chunk: Buffer, _encoding, callback) => {
        this.bytes += chunk.length;
        this.lastChunk = chunk.subarray(-64).toString('latin1');
        setImmediate(callback);
      },
    });
  }
}

function largeReader(heap: HeapWatch): FakeReader {
  return new FakeReader({
    urls: function* (): Generator<UrlRow> {
      for (let id = 1; id <= NODES; id += 1) {
        const isAlias = id <= ALIASES;
        yield urlRow({ id, key: `http://example.com/page/${id}?q=a,b&r="c"`, depth: id % 7, ...(isAlias ? { state: 'alias', aliasOf: id + ALIASES } : {}) });
      }
    },
    forms: function* () {
      for (let id = 1; id <= NODES; id += 10) yield formRow(id, `HTTP://EXAMPLE.COM/page/${id}`);
    },
    edges: function* (): Generator<EdgeRow> {
      for (let index = 0; index < EDGES; index += 1) {
        if (index % SAMPLE_EVERY === 0) heap.sample();
        const fromUrlId = 1 + Math.floor(index / (EDGES / NODES));
        yield { fromUrlId, toUrlId: 1 + ((index * 7919) % NODES), element: index % 3 === 0 ? 'img' : 'a', attribute: index % 3 === 0 ? 'src' : 'href', count: 1 + (index % 4) };
      }
    },
  });
}

/** The JS heap plus the Buffers outside it: a stream's unwritten chunks are Buffers. */
function liveMemory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

class HeapWatch {
  readonly baseline: number;
  peak = 0;

  constructor() {
    gc();
    this.baseline = liveMemory();
  }

  /** The live heap now: garbage is collected first, so what is left is what the export holds. */
  sample(): void {
    gc();
    this.peak = Math.max(this.peak, liveMemory());
  }

  get growth(): number {
    return this.peak - this.baseline;
  }
}

async function exportLarge(format: GraphFormat, collapseAliases: boolean): Promise<{ sink: SlowCountingSink; heap: HeapWatch }> {
  const heap = new HeapWatch();
  const sink = new SlowCountingSink();
  await exportGraph(largeReader(heap), sink, { format, collapseAliases });
  heap.sample();
  return { sink, heap };
}

const MB = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

describe(`a graph of ${EDGES} edges exports in bounded memory`, () => {
  it.each(GRAPH_FORMATS)('%s', async (format) => {
    const { sink, heap } = await exportLarge(format, false);
    console.info(`${format}: wrote ${MB(sink.bytes)}, live memory grew by at most ${MB(heap.growth)}`);
    expect(sink.bytes).toBeGreaterThan(2 * HEAP_GROWTH_LIMIT);
    expect(heap.growth).toBeLessThan(HEAP_GROWTH_LIMIT);
    expect(sink.lastChunk).toMatch(format === 'graphml' ? /<\/graphml>\n$/ : format === 'dot' ? /}\n$/ : /\n$/);
  }, 120_000);

  it('ndjson with --collapse-aliases: memory grows with the aliases, not the edges', async () => {
    const { sink, heap } = await exportLarge('ndjson', true);
    console.info(`ndjson collapsed: wrote ${MB(sink.bytes)}, live memory grew by at most ${MB(heap.growth)}`);
    expect(sink.bytes).toBeGreaterThan(2 * HEAP_GROWTH_LIMIT);
    expect(heap.growth).toBeLessThan(HEAP_GROWTH_LIMIT);
  }, 120_000);
});
