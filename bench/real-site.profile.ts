// Summarizes a V8 .cpuprofile (node --cpu-prof): busy time, garbage collection, and
// the functions with the most self time, self time by area (a src/ folder, an npm
// package, Node's internals) and by file, and the project's functions with the most
// total time (self and callees, each sample counted once per function). Used by
// real-site.sh (REAL_SITE_PROFILE=dir); works on any .cpuprofile.
//
//   node dist/bench/real-site.profile.js <file.cpuprofile> [top=15]
//
// Self time is taken from the sample time deltas, not hitCount × interval, so a
// throttled sampler still adds up to the wall time it covered. Busy time is all
// time except "(idle)"; "(program)" is V8 and native code outside any JS frame.

import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

/** Where a file belongs: `src/<layer>`, an npm package, `node:internal`, or the native bucket. */
function area(frame: CallFrame): string {
  if (frame.url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  const file = shortFile(frame.url);
  if (file.startsWith('node:')) return 'node:internal';
  const parts = file.split('/');
  if (parts[0] === 'src' || parts[0] === 'bench') return parts.length > 2 ? `${parts[0]}/${parts[1]}` : file;
  if (frame.url.includes('/node_modules/')) return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? file);
  return file;
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A file:// URL or path, shortened to where it lives: the project, a package, or Node. */
function shortFile(url: string): string {
  if (url === '') return '(native)';
  const file = url.startsWith('file://') ? new URL(url).pathname : url;
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) return file.slice(modules + '/node_modules/'.length);
  const dist = file.lastIndexOf('/dist/');
  if (dist >= 0) return file.slice(dist + '/dist/'.length);
  return file.startsWith('/') ? path.basename(file) : file;
}

const sourceMaps = new Map<string, SourceMap | undefined>();

/** The frame's place as `file:line`, in the .ts source when dist/ has a source map. */
function place(frame: CallFrame): string {
  if (frame.url.startsWith('file://') && !frame.url.includes('/node_modules/')) {
    const file = fileURLToPath(frame.url);
    if (!sourceMaps.has(file)) {
      const mapFile = `${file}.map`;
      sourceMaps.set(file, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) : undefined);
    }
    const entry = sourceMaps.get(file)?.findEntry(frame.lineNumber, frame.columnNumber);
    if (entry !== undefined && 'originalSource' in entry) {
      const source = path.resolve(path.dirname(file), entry.originalSource.replace(/^file:\/\//, ''));
      const src = source.lastIndexOf('/src/');
      const bench = source.lastIndexOf('/bench/');
      const at = Math.max(src, bench);
      return `${at >= 0 ? source.slice(at + 1) : source}:${entry.originalLine + 1}`;
    }
  }
  return `${shortFile(frame.url)}:${frame.lineNumber + 1}`;
}

function label(frame: CallFrame): string {
  const name = frame.functionName === '' ? '(anonymous)' : frame.functionName;
  if (frame.url === '') return name;
  return `${name}  ${place(frame)}`;
}

function add(totals: Map<string, number>, key: string, microseconds: number): void {
  totals.set(key, (totals.get(key) ?? 0) + microseconds);
}

function main(): void {
  const [file, topArgument] = process.argv.slice(2);
  if (file === undefined) {
    console.error('usage: node dist/bench/real-site.profile.js <file.cpuprofile> [top=15]');
    process.exitCode = 2;
    return;
  }
  const top = Number(topArgument ?? 15);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));

  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

  const selfByNode = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });

  // Total time of the project's functions: each node's self time goes to every
  // distinct project function on its stack (recursion counted once).
  const totalByFunction = new Map<string, number>();
  for (const [id, microseconds] of selfByNode) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame === undefined || !shortFile(frame.url).startsWith('src/')) continue;
      const name = label(frame);
      if (!seen.has(name)) {
        seen.add(name);
        add(totalByFunction, name, microseconds);
      }
    }
  }

  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  const byArea = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let gc = 0;
  for (const [id, microseconds] of selfByNode) {
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined) continue;
    total += microseconds;
    if (frame.functionName === '(idle)') {
      idle += microseconds;
      continue;
    }
    if (frame.functionName === '(garbage collector)') gc += microseconds;
    add(byFunction, label(frame), microseconds);
    add(byArea, area(frame), microseconds);
    add(byFile, frame.url === '' ? `(${frame.functionName.replace(/[()]/g, '')})` : shortFile(frame.url), microseconds);
  }
  const busy = total - idle;
  const ms = (microseconds: number): string => (microseconds / 1000).toFixed(0).padStart(7);
  const share = (microseconds: number): string => `${((100 * microseconds) / busy).toFixed(1).padStart(5)}%`;

  console.log(`profile ${path.basename(file)}: ${ms(total).trim()} ms sampled, busy ${ms(busy).trim()} ms, idle ${ms(idle).trim()} ms`);
  console.log(`garbage collection ${ms(gc).trim()} ms (${share(gc).trim()} of busy)`);
  console.log(`\ntop ${top} functions by self time (ms, % of busy):`);
  [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([name, microseconds], index) =>
      console.log(`${String(index + 1).padStart(3)} ${ms(microseconds)} ${share(microseconds)}  ${name}`),
    );
  console.log(`\nself time by area (ms, % of busy):`);
  [...byArea]
    .sort((a, b) => b[1] - a[1])
    .forEach(([name, microseconds]) => console.log(`    ${ms(microseconds)} ${share(microseconds)}  ${name}`));
  console.log(`\ntop ${top} files by self time (ms, % of busy):`);
  [...byFile]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([name, microseconds]) => console.log(`    ${ms(microseconds)} ${share(microseconds)}  ${name}`));
  console.log(`\ntop ${top} project functions by total time, callees included (ms, % of busy):`);
  [...totalByFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([name, microseconds]) => console.log(`    ${ms(microseconds)} ${share(microseconds)}  ${name}`));
}

main();
