// Runs every dist/bench/*.bench.js, or those whose name contains an argument:
//
//   node --expose-gc dist/bench/run.js [name-part ...]
//
// Each file runs in its own process: V8's type feedback from one benchmark (say,
// frozen parse results) would otherwise shape the optimized code of the next.
// Node's own flags (--expose-gc) are passed on.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.js'))
  .filter((name) => filters.length === 0 || filters.some((part) => name.includes(part)))
  .sort();

if (files.length === 0) {
  console.error(`no benchmark in ${dir} matches ${filters.join(' ')}`);
  process.exitCode = 1;
}
for (const name of files) {
  console.log(`\n=== ${name}`);
  const { status, error } = spawnSync(process.execPath, [...process.execArgv, path.join(dir, name)], {
    stdio: 'inherit',
  });
  if (error !== undefined || status !== 0) {
    console.error(`${name} failed${error === undefined ? ` with exit code ${status}` : `: ${error.message}`}`);
    process.exitCode = 1;
  }
}
