// The order test files start in: the few that take a minute first, so that on two
// workers the short ones fill in beside them instead of one long file running alone at
// the end. vitest orders by the durations of the previous run when it has them (a
// developer's machine); a clean checkout (CI) has none, and would start these late.

import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first: about a minute each on two loaded cores. */
const LONG_FILES = [
  'test/report/graph/large-graph.test.ts',
  'test/crawl/pg-workers.restart.test.ts',
  'test/cli/check.test.ts',
  'test/html/markdown-links.test.ts',
  'test/cli/commands/crawl.test.ts',
  'test/crawl/pg-workers.process.test.ts',
];

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const index = LONG_FILES.findIndex((long) => file.moduleId.endsWith(`/${long}`));
      return index === -1 ? LONG_FILES.length : index;
    };
    return sorted.map((file, position) => ({ file, position })).sort((a, b) => rank(a.file) - rank(b.file) || a.position - b.position).map(({ file }) => file);
  }
}
