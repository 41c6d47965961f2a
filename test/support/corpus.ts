// Reads the third-party conformance vectors of ../shared/corpus in place (never
// copied into this repository). When the folder is absent — a user's fresh clone —
// `corpusAvailable` is false and the conformance suites skip with a notice.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const CORPUS_DIR =
  process.env['LINKLADDER_CORPUS_DIR'] ??
  path.resolve(fileURLToPath(new URL('../../../shared/corpus/', import.meta.url)));

export const corpusAvailable = existsSync(path.join(CORPUS_DIR, 'MANIFEST.json'));

if (!corpusAvailable) {
  console.warn(
    `\n[linkladder] NOTICE: shared conformance corpus not found at ${CORPUS_DIR}; ` +
      'corpus conformance tests are SKIPPED (set LINKLADDER_CORPUS_DIR to run them).\n',
  );
}

export type Tier = 'rfc3986-normative' | 'rfc3986-library' | 'informative-non-rfc3986';

export interface CorpusCase {
  readonly id: string;
  readonly op: 'resolve' | 'normalize' | 'remove_dot_segments' | 'equivalent' | 'parse' | 'relativize';
  readonly semantics: string;
  readonly source: string;
  readonly note?: string;
  readonly options?: Record<string, unknown>;
  readonly rfc3986?: { readonly verdict?: string; readonly matches?: readonly string[]; readonly [k: string]: unknown };
  readonly [field: string]: unknown;
}

export interface CorpusFile {
  readonly name: string;
  readonly tier: Tier;
  readonly cases: readonly CorpusCase[];
}

interface Manifest {
  readonly files: Record<string, { readonly tier: Tier; readonly ops: readonly string[] }>;
}

function readManifest(): Manifest {
  return JSON.parse(readFileSync(path.join(CORPUS_DIR, 'MANIFEST.json'), 'utf8')) as Manifest;
}

/** The files of one op family (`resolve`, `parse`, `normalize`), picked by tier from MANIFEST.json. */
export function loadCorpusFiles(family: 'resolve' | 'parse' | 'normalize', tiers: readonly Tier[]): CorpusFile[] {
  if (!corpusAvailable) return [];
  return Object.entries(readManifest().files)
    .filter(([name, meta]) => name.startsWith(`${family}.`) && tiers.includes(meta.tier))
    .map(([name, meta]) => ({
      name,
      tier: meta.tier,
      cases: readFileSync(path.join(CORPUS_DIR, name), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as CorpusCase),
    }));
}

export const ALL_TIERS: readonly Tier[] = ['rfc3986-normative', 'rfc3986-library', 'informative-non-rfc3986'];

/** Pass counts per file, printed once at the end of a suite. */
export class PassCounter {
  readonly #rows = new Map<string, { passed: number; deviations: number; notApplicable: number }>();

  count(file: string, outcome: 'passed' | 'deviations' | 'notApplicable'): void {
    const row = this.#rows.get(file) ?? { passed: 0, deviations: 0, notApplicable: 0 };
    row[outcome]++;
    this.#rows.set(file, row);
  }

  print(title: string): void {
    if (this.#rows.size === 0) return;
    const lines = [...this.#rows].map(
      ([file, r]) =>
        `  ${file.padEnd(36)} passed ${String(r.passed).padStart(4)}  expected deviations ${String(r.deviations).padStart(4)}  not applicable ${String(r.notApplicable).padStart(4)}`,
    );
    console.log(`${title}\n${lines.join('\n')}`);
  }
}
