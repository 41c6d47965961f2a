// The rule every conformance suite follows: each corpus case either passes or is
// explained by an entry of a commented expected-deviation list. Cases whose
// RFC 3986 cross-check verdict is `agree` (or `agree-non-strict`, run in
// non-strict mode) must pass, whatever any list says.

import { afterAll, describe, expect, it } from 'vitest';
import { ALL_TIERS, PassCounter, corpusAvailable, loadCorpusFiles, type CorpusCase, type CorpusFile } from './corpus.js';

export interface Outcome {
  readonly pass: boolean;
  /** What we produced, for the failure report. */
  readonly got: unknown;
}

/** Why a case is allowed to differ. */
export interface DeviationLists {
  /** By case id: one library's choice on one case. */
  readonly byCase: Readonly<Record<string, string>>;
  /** By RFC 3986 verdict (e.g. `input-invalid`), for every file. */
  readonly byVerdict: Readonly<Record<string, string>>;
  /** By file, for files whose semantics are not RFC 3986 (informative tier). */
  readonly byFile: Readonly<Record<string, string>>;
}

const MUST_PASS = new Set(['agree', 'agree-non-strict', 'agree-modulo-normalization']);

export interface Judgement {
  readonly kind: 'passed' | 'deviation' | 'unexplained' | 'stale-deviation';
  readonly detail?: string;
}

export function judge(file: CorpusFile, testCase: CorpusCase, outcome: Outcome, lists: DeviationLists): Judgement {
  const verdict = testCase.rfc3986?.verdict ?? '';
  const caseReason = lists.byCase[testCase.id];
  if (outcome.pass) {
    // A per-case entry that now passes is stale: the list must stay accurate.
    return caseReason === undefined ? { kind: 'passed' } : { kind: 'stale-deviation', detail: caseReason };
  }
  const describe = `${testCase.id} [${verdict}] ${JSON.stringify(pick(testCase))} → got ${JSON.stringify(outcome.got)}`;
  if (MUST_PASS.has(verdict) && caseReason === undefined) return { kind: 'unexplained', detail: describe };
  const reason = caseReason ?? lists.byVerdict[verdict] ?? lists.byFile[file.name];
  return reason === undefined ? { kind: 'unexplained', detail: describe } : { kind: 'deviation', detail: reason };
}

function pick(testCase: CorpusCase): Record<string, unknown> {
  const keys = ['base', 'ref', 'input', 'a', 'b', 'level', 'production', 'expected', 'valid', 'components'];
  return Object.fromEntries(keys.filter((k) => k in testCase).map((k) => [k, testCase[k]]));
}

/**
 * One vitest test per corpus file of `family`: every case runs through `run`
 * (`undefined` = not an RFC 3986 operation we offer) and is judged; the pass
 * counts per file are printed at the end.
 */
export function describeCorpusSuite(
  family: 'resolve' | 'parse' | 'normalize',
  run: (testCase: CorpusCase) => Outcome | undefined,
  lists: DeviationLists,
): void {
  const counter = new PassCounter();
  afterAll(() => counter.print(`RFC 3986 ${family} conformance (shared corpus):`));
  describe.skipIf(!corpusAvailable)(`${family}: shared corpus`, () => {
    for (const file of loadCorpusFiles(family, ALL_TIERS)) {
      it(`${file.name} (${file.tier})`, () => {
        const problems: string[] = [];
        for (const testCase of file.cases) {
          const outcome = run(testCase);
          if (outcome === undefined) {
            counter.count(file.name, 'notApplicable');
            continue;
          }
          const judgement = judge(file, testCase, outcome, lists);
          if (judgement.kind === 'passed') counter.count(file.name, 'passed');
          else if (judgement.kind === 'deviation') counter.count(file.name, 'deviations');
          else problems.push(`${judgement.kind}: ${judgement.detail ?? testCase.id}`);
        }
        expect(problems).toEqual([]);
      });
    }
  });
}
