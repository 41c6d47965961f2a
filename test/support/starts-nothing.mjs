// The unit project's promise, kept by the process itself: a unit test starts nothing. In
// every unit test process, listening on a socket, starting a child process (PostgreSQL,
// Chromium, the CLI) or a worker thread throws at once and says where the file belongs:
// in the integration project (the INTEGRATION list of vitest.config.ts). Plain
// JavaScript, like loopback-only.mjs.

import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import workerThreads from 'node:worker_threads';

function refuse(what) {
  throw new Error(`a unit test starts nothing, but this one ${what}: list the file in INTEGRATION (vitest.config.ts)`);
}

net.Server.prototype.listen = function refusedListen() {
  refuse('listens on a socket');
};

childProcess.ChildProcess.prototype.spawn = function refusedSpawn(options) {
  refuse(`starts a child process (${options?.file ?? 'unknown'})`);
};
for (const name of ['spawnSync', 'execSync', 'execFileSync']) {
  childProcess[name] = function refusedSync(file) {
    refuse(`starts a child process (${file})`);
  };
}

workerThreads.Worker = class RefusedWorker {
  constructor() {
    refuse('starts a worker thread');
  }
};

syncBuiltinESMExports();
