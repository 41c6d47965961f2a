#!/usr/bin/env node
// The `linkladder` executable. process.exitCode rather than process.exit(): output may still be flushing.

import { runCli } from './index.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
