// The unit project's guard (starts-nothing.mjs): in a unit test process, a socket that
// listens, a child process or a worker thread fails at once with where the file belongs.

import { execFile, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

describe('a unit test starts nothing', () => {
  it('listening on a socket throws, naming the INTEGRATION list', () => {
    expect(() => createServer().listen(0, '127.0.0.1')).toThrow(/a unit test starts nothing, but this one listens on a socket: list the file in INTEGRATION/);
  });

  it('starting a child process throws, named by its program', () => {
    expect(() => execFile('true')).toThrow(/starts a child process \(true\)/);
    expect(() => spawnSync('true')).toThrow(/starts a child process \(true\)/);
  });

  it('starting a worker thread throws', () => {
    expect(() => new Worker('')).toThrow(/starts a worker thread/);
  });
});
