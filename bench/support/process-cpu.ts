// The CPU a PostgreSQL cluster spent, read from /proc (Linux): the postmaster's own,
// that of its children still running (the backends, one a connection), and that of the
// children it has reaped (a backend whose connection closed: the kernel adds its time to
// the parent's cutime/cstime). Undefined where /proc is not there.

import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Clock ticks a second (`getconf CLK_TCK`, 100 on Linux). */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime, stime, cutime, cstime and ppid of a process (proc(5): fields 14–17 and 4). */
function statOf(pid: number): { ppid: number; own: number; reaped: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command (field 2) is in parentheses and may hold spaces: fields count from after it.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const n = (i: number): number => Number(fields[i - 3]);
    return { ppid: n(4), own: n(14) + n(15), reaped: n(16) + n(17) };
  } catch {
    return undefined;
  }
}

/** Seconds of CPU the cluster whose data folder is `dataDir` spent so far, or undefined. */
export function clusterCpuSeconds(dataDir: string): number | undefined {
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  const main = statOf(postmaster);
  if (main === undefined) return undefined;
  let ticks = main.own + main.reaped;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat?.ppid === postmaster) ticks += stat.own;
  }
  return ticks / TICKS;
}
