// The floors under checking a folder of HTML, measured step by step in CPU seconds
// (process.cpuUsage, so a loaded machine inflates them little): reading the files and
// decoding them; htmlparser2's tokenizer alone (callbacks that do nothing: the floor of
// any extractor built on it); our extractor (extractPageReferences); resolving the
// references (PageLinkReader#reads) and deciding on them (entries); and admitting every
// link into a SQLite index, one unit a page, as the crawl does (its floor per link).
// With 2 cores, the wall time cannot be less than the sum over 2, and the main thread
// (which alone admits) cannot be quicker than the admission.
//
//   npm run build && node dist/bench/crawl-check-floors.bench.js [dir]
//   (default dir: /usr/share/doc/gcc-12-base/libstdc++)

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Tokenizer } from 'htmlparser2';
import { LinkRoles } from '../src/crawl/link-role.js';
import { PageLinkReader, extractPageReferences, type PageContext } from '../src/crawl/page-links.js';
import { ScopeTest } from '../src/crawl/scope.js';
import type { FetchedResponse } from '../src/fetch/index.js';
import type { ExtractedLinks } from '../src/html/index.js';
import { SqliteStore, type AdmitEntry } from '../src/store/index.js';
import { printEnvironment } from './support/measure.js';

const root = process.argv[2] ?? '/usr/share/doc/gcc-12-base/libstdc++';
const ORIGIN = 'http://127.0.0.1:8080/site/';
try {
  if (!statSync(root).isDirectory()) throw new Error('not a directory');
} catch {
  console.log(`NOTICE: no HTML tree at ${root}; benchmark skipped.`);
  process.exit(0);
}

const cpu = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};
const rows: [string, number, string][] = [];
function step<T>(name: string, work: () => T, note = ''): T {
  const start = cpu();
  const value = work();
  rows.push([name, cpu() - start, note]);
  return value;
}
async function stepAsync<T>(name: string, work: () => Promise<T>, note = ''): Promise<T> {
  const start = cpu();
  const value = await work();
  rows.push([name, cpu() - start, note]);
  return value;
}

printEnvironment();
const files = (readdirSync(root, { recursive: true }) as string[]).filter((file) => file.endsWith('.html')).sort();
const buffers = step('read the files (readFileSync)', () => files.map((file) => readFileSync(path.join(root, file))));
const bytes = buffers.reduce((sum, buffer) => sum + buffer.length, 0);
const decoder = new TextDecoder('utf-8');
const bodies = step('decode them (TextDecoder, UTF-8)', () => buffers.map((buffer) => decoder.decode(buffer)));
step('htmlparser2 Tokenizer, callbacks doing nothing', () => {
  const noop = (): void => {};
  const callbacks = {
    onattribdata: noop, onattribentity: noop, onattribend: noop, onattribname: noop, oncdata: noop, onclosetag: noop,
    oncomment: noop, ondeclaration: noop, onend: noop, onopentagend: noop, onopentagname: noop, onprocessinginstruction: noop,
    onselfclosingtag: noop, ontext: noop, ontextentity: noop,
  };
  for (const body of bodies) {
    const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
    tokenizer.write(body);
    tokenizer.end();
  }
});

const scope = new ScopeTest({ seeds: [ORIGIN], scope: 'prefix', include: [], exclude: [], allowPrivate: true });
const roles = new LinkRoles({ scope, maxDepth: Infinity, checkResources: true, checkExternal: false });
const urls = files.map((file) => ORIGIN + file.split(path.sep).join('/'));
const responseOf = (i: number): FetchedResponse => ({
  requestUrl: urls[i]!, finalUrl: urls[i]!, hops: [], status: 200, headers: {}, contentType: 'text/html', charset: 'utf-8',
  body: bodies[i]!, bytes: buffers[i]!.length, startedAt: 0, durationMs: 0, errorCode: undefined,
});
const contextOf = (i: number, id: number): PageContext => ({
  id, url: urls[i]!, depth: 1, baseMode: 'rfc3986', follow: ['navigation', 'frame', 'refresh'], maxLinks: 50_000,
  mayFollow: () => true, decide: (link, use) => roles.decide(link, use, 1),
});
const noPause = (): Promise<void> => Promise.resolve();
const extracted = await stepAsync('our extractor (extractPageReferences)', async () => {
  const all: (ExtractedLinks | undefined)[] = [];
  for (let i = 0; i < bodies.length; i++) all.push(await extractPageReferences(responseOf(i), contextOf(i, 0), noPause));
  return all;
});
let links = 0;
step('resolve the references (PageLinkReader#reads)', () => {
  for (let i = 0; i < bodies.length; i++) for (const _ of new PageLinkReader(responseOf(i), contextOf(i, 0), extracted[i]).reads()) links++;
});

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-floors-'));
try {
  const store = new SqliteStore({ path: path.join(dir, 'index.db') });
  const pageIds = (await store.admit(urls.map((url) => ({ rawHref: url, target: url, depth: 0 })))).map((result) => result.urlId!);
  const entries = step('resolve + decide (PageLinkReader#entries)', () => {
    const all: AdmitEntry[][] = [];
    for (let i = 0; i < bodies.length; i++) all.push([...new PageLinkReader(responseOf(i), contextOf(i, pageIds[i]!), extracted[i]).entries()]);
    return all;
  });
  await stepAsync('admit every link into SQLite, one unit a page', async () => {
    for (const batch of entries) await store.transact(async (tx) => void (await tx.admit(batch)));
    await store.flush();
  }, 'the main thread\'s floor');
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const mb = bytes / 1e6;
console.log(`${files.length} pages of ${root}, ${mb.toFixed(1)} MB of HTML, ${links} references`);
for (const [name, seconds, note] of rows) {
  console.log(`${name.padEnd(50)} ${seconds.toFixed(2).padStart(7)} s cpu  ${(mb / seconds).toFixed(0).padStart(5)} MB/s  ${((seconds * 1e9) / links).toFixed(0).padStart(6)} ns/link  ${note}`);
}
