// The script of a parse worker (parse-pool.ts): reads each page it is sent and
// answers with its references, packed (page-reading.ts), one message per page, in
// the order they came. The esbuild bundle of the command line has its own copy
// beside it (dist/parse-worker.js), so the pool finds it at `./parse-worker.js`
// from either file.

import { parentPort } from 'node:worker_threads';
import { readPage, type PageReadRequest } from './page-reading.js';

/** A page to read, with the id its answer carries. */
export interface ParseJob {
  readonly id: number;
  readonly request: PageReadRequest;
}

/** The answer: the page packed, or why it could not be read (the pool then reads it in its own thread). */
export type ParseAnswer =
  | { readonly id: number; readonly strings: readonly string[]; readonly ints: Int32Array; readonly digest: string }
  | { readonly id: number; readonly error: string };

const port = parentPort;
if (port !== null) {
  port.on('message', (job: ParseJob) => {
    readPage(job.request).then(
      (packed) => port.postMessage({ id: job.id, strings: packed.strings, ints: packed.ints, digest: packed.digest } satisfies ParseAnswer, [packed.ints.buffer as ArrayBuffer]),
      (error: unknown) => port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies ParseAnswer),
    );
  });
}
