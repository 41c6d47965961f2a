// `linkladder audit --since <run | index file>`: the baseline the findings of now are
// compared with — the identities a run of this index kept (run_finding), or the
// audit of another index file, opened read-only.

import { audit, type AuditFinding } from '../report/index.js';
import type { CrawlRunRow, FindingIdentity, IndexReader } from '../store/index.js';
import { indexLabel, openReader } from './open-store.js';

/** What the findings of now are compared with. */
export interface SinceBaseline {
  /** `run 2 (2026-…)`, `old.db (run 3, 2026-…)`: what the summary line says. */
  readonly label: string;
  readonly findings: readonly AuditFinding[] | readonly FindingIdentity[];
}

/** A `--since` that names nothing to compare with: one line, a usage error. */
export class SinceRefused {
  constructor(readonly message: string) {}
}

/** A run id: digits only. Anything else is a path (`./2` names a file called 2). */
const RUN_ID = /^[0-9]+$/;

/** Read the baseline `since` names, for the index `reader` read from `file`. */
export async function readBaseline(since: string, reader: IndexReader, file: string): Promise<SinceBaseline | SinceRefused> {
  if (RUN_ID.test(since)) return runBaseline(Number(since), reader, file);
  const other = await openReader(since);
  try {
    const findings = await findingsOf(other);
    const last = (await other.runs()).at(-1);
    const label = indexLabel(since);
    return { label: last === undefined ? label : `${label} (run ${last.id}, ${runTime(last)})`, findings };
  } finally {
    await other.close();
  }
}

async function runBaseline(id: number, reader: IndexReader, file: string): Promise<SinceBaseline | SinceRefused> {
  const runs = await reader.runs();
  const run = runs.find((r) => r.id === id);
  if (run === undefined) {
    const known = runs.length === 0 ? 'it records no runs' : `its runs are ${runs[0]!.id}${runs.length === 1 ? '' : `–${runs.at(-1)!.id}`}`;
    return new SinceRefused(`${file} has no run ${id} (${known})`);
  }
  const kept = await reader.runFindings?.(id);
  // The last run's findings are kept when the next run starts; until then they are the index's own.
  if (kept === undefined && id === runs.at(-1)!.id) return { label: `run ${id} (${runTime(run)})`, findings: await findingsOf(reader) };
  if (kept === undefined) {
    return new SinceRefused(
      `run ${id} of ${file} kept no findings (it was crawled before runs kept them): give a later run, or another index file`,
    );
  }
  return { label: `run ${id} (${runTime(run)})`, findings: kept };
}

async function findingsOf(reader: IndexReader): Promise<AuditFinding[]> {
  const findings: AuditFinding[] = [];
  for await (const f of audit(reader)) findings.push(f);
  return findings;
}

/** When the run ended (its findings were kept then), else when it started; to the second, UTC. */
function runTime(run: CrawlRunRow): string {
  return new Date(run.endedAt ?? run.startedAt).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
