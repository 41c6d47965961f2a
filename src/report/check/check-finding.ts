// A finding of `check`: an audit finding, plus the verdict on the link's target and
// the page's file when the page was read from disk.

import type { AuditFinding } from '../audit/finding.js';

export type Verdict = 'ok' | 'broken' | 'unverified';

export interface CheckFinding extends AuditFinding {
  /** The verdict on the link's target, for findings about a target's answer or fragment. */
  readonly verdict: Verdict | undefined;
  /** The page's file, relative to the working directory with `/` separators, for a page read from disk. */
  readonly file: string | undefined;
}
