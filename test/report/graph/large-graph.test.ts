// A million-edge graph, written through the SQLite store into a database file and
// exported in every format to a slow sink: the heap must stay bounded (the reader
// walks cursors a page of rows at a time, the writers stream, waiting for 'drain'),
// far below the size of the output. The index lives outside the JS heap, so what
// the heap gains is what the export holds.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportGraph, GRAPH_FORMATS, type GraphFormat } from '../../../src/report/index.js';
import { SqliteStore, openIndexReader, type AdmitEntry } from '../../../src/store/index.js';

const NODES = 20_000;
const EDGES = 1_000_000;
const ALIASES = 500;
/** Bytes written between two samples of the heap. */
const SAMPLE_EVERY = 4 * 1024 * 1024;
/** The most the live heap may grow while exporting; every format's output is at least twice this. */
const HEAP_GROWTH_LIMIT = 16 * 1024 * 1024;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A sink that takes its time (a callback per chunk on a later turn), counts what it got and samples the heap as it goes. */
class SlowCountingSink extends Writable {
  bytes = 0;
  lastChunk = '';
  #nextSample = SAMPLE_EVERY;

  constructor(heap: HeapWatch) {
    super({
      highWaterMark: 16_384,
      write: (chunk: Buffer, _encoding, callback) => {
        this.bytes += chunk.length;
        this.lastChunk = chunk.subarray(-64).toString('latin1');
        if (this.bytes >= this.#nextSample) {
          heap.sample();
          this.#nextSample += SAMPLE_EVERY;
        }
        setImmediate(callback);
      },
    });
  }
}

const keyOf = (id: number): string => `http://example.com/page/${id}?q=a,b&r=c`;

/** NODES URLs (the first ALIASES of them aliases), EDGES links (a third of them images) from pages of EDGES / NODES links. */
async function writeLargeIndex(file: string): Promise<void> {
  const store = new SqliteStore({ path: file });
  const admitInBatches = async (entries: Iterable<AdmitEntry>): Promise<void> => {
    let batch: AdmitEntry[] = [];
    for (const entry of entries) {
      batch.push(entry);
      if (batch.length === 1000) {
        await store.admit(batch);
        batch = [];
      }
    }
    await store.admit(batch);
  };
  await admitInBatches(
    (function* () {
      for (let id = 1; id <= NODES; id += 1) yield { rawHref: keyOf(id), target: keyOf(id), depth: id % 7 };
    })(),
  );
  await admitInBatches(
    (function* () {
      for (let id = 1; id <= NODES; id += 10) yield { rawHref: 'x', target: `HTTP://EXAMPLE.COM/page/${id}?q=a,b&r=c` };
    })(),
  );
  await admitInBatches(
    (function* (): Generator<AdmitEntry> {
      for (let index = 0; index < EDGES; index += 1) {
        const fromUrlId = 1 + Math.floor(index / (EDGES / NODES));
        const isImage = index % 3 === 0;
        yield { fromUrlId, rawHref: 'x', target: keyOf(1 + ((index * 7919) % NODES)), element: isImage ? 'img' : 'a', attribute: isImage ? 'src' : 'href' };
      }
    })(),
  );
  for (let id = 1; id <= ALIASES; id += 1) await store.addAlias({ fromId: id, toId: id + ALIASES, evidence: 'redirect' });
  await store.close();
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

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-large-graph-'));
const file = path.join(dir, 'large.db');
beforeAll(async () => {
  await writeLargeIndex(file);
  gc(); // what writing left behind is not counted as the export's
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function exportLarge(format: GraphFormat, collapseAliases: boolean): Promise<{ sink: SlowCountingSink; heap: HeapWatch }> {
  const reader = openIndexReader(file);
  try {
    const heap = new HeapWatch();
    const sink = new SlowCountingSink(heap);
    await exportGraph(reader, sink, { format, collapseAliases });
    heap.sample();
    return { sink, heap };
  } finally {
    await reader.close();
  }
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
