// A folder for the run's shared crawls of the demo site (test/support/demo-index.ts),
// removed when the run ends.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    linkladderDemoIndexes: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-demo-indexes-'));
  project.provide('linkladderDemoIndexes', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
