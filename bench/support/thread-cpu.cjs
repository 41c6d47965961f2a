// Preloaded (`node --require bench/support/thread-cpu.cjs …`): when the process exits,
// write the CPU seconds (user+sys) its main thread used, and the whole process's, to
// the file named by THREAD_CPU_OUT, from /proc (Linux). The main thread's time is the
// crawl's critical path when worker threads read its pages: on an idle machine with
// cores to spare, the wall time cannot be less.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const out = process.env.THREAD_CPU_OUT;
if (out) {
  process.on('exit', () => {
    try {
      const cpuOf = (stat) => {
        // Fields after the command name (in parentheses, which may hold spaces).
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // utime and stime, in clock ticks (USER_HZ: 100 on Linux).
        return (Number(fields[11]) + Number(fields[12])) / 100;
      };
      const main = cpuOf(readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8'));
      const usage = process.cpuUsage();
      writeFileSync(out, `${main.toFixed(2)} ${((usage.user + usage.system) / 1e6).toFixed(2)}\n`);
    } catch {
      // Not Linux: nothing written.
    }
  });
}
