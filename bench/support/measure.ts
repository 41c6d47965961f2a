// Throughput measurement and the ratio report shared by the *.bench files.
//
// A contender is one pass over a whole input array, so a sample is tens or
// hundreds of milliseconds of real work and the harness's per-call cost vanishes;
// items per second is the array length over the mean time of a pass.
//
// Contenders are measured in interleaved rounds (A B C D, B C D A, ...) with
// mitata's `measure`, not one after the other: on a shared or throttled machine
// the speed drifts by 2× within a minute, and a drift then hits every contender of
// a round alike. Each ratio is taken within a round; the report gives the median
// over rounds and the range.

import os from 'node:os';
import { do_not_optimize, measure } from 'mitata';

export interface Contender {
  /** Unique; names the row in the report. */
  readonly name: string;
  /** One pass over the input; returns a checksum so the work cannot be optimized away. */
  readonly pass: () => number;
}

/** Items per second of each contender, one entry per round. */
export type Rounds = ReadonlyMap<string, readonly number[]>;

const ROUNDS = Number(process.env['LINKLADDER_BENCH_ROUNDS'] ?? 5);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('LINKLADDER_BENCH_ROUNDS must be a positive integer');
// Per contender and round: at least this much time, and at least MIN_PASSES passes.
const MIN_TIME_NS = 400e6;
const MIN_PASSES = 1;

/** Node version and CPU, which every recorded figure needs beside it. */
export function printEnvironment(): void {
  const cpus = os.cpus();
  console.log(`node ${process.version} (${process.arch}, V8 ${process.versions.v8})`);
  console.log(`cpu  ${cpus[0]?.model ?? 'unknown'} × ${cpus.length}, load average ${os.loadavg()[0]!.toFixed(2)}`);
  if (typeof globalThis.gc !== 'function') {
    console.log('note: without node --expose-gc, garbage of one contender may be collected in the next one’s time');
  }
}

/** Time every contender in the same process and the same rounds; the figures compare with each other only. */
export async function measureThroughput(title: string, itemCount: number, contenders: readonly Contender[]): Promise<Rounds> {
  console.log(`\n${title} (${ROUNDS} interleaved rounds)`);
  const rounds = new Map<string, number[]>(contenders.map(({ name }) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const { name, pass } = contenders[(k + round) % contenders.length]!;
      // `measure` makes one untimed call first (mitata's warm-up), then collects
      // garbage when node exposes it, so the previous contender's garbage is not
      // collected on this one's time.
      const stats = await measure(() => do_not_optimize(pass()), {
        min_samples: MIN_PASSES,
        min_cpu_time: MIN_TIME_NS,
        warmup_samples: 0,
      });
      rounds.get(name)!.push(itemCount / (stats.avg / 1e9));
    }
  }
  console.log(`  ${'contender'.padEnd(46)} ${'items/s'.padStart(9)} ${'ns/item'.padStart(8)}   range over rounds`);
  for (const { name } of contenders) {
    const perSecond = roundsOf(rounds, name);
    const median = medianOf(perSecond);
    console.log(
      `  ${name.padEnd(46)} ${formatRate(median).padStart(9)} ${(1e9 / median).toFixed(0).padStart(8)}` +
        `   ${formatRate(Math.min(...perSecond))} … ${formatRate(Math.max(...perSecond))}`,
    );
  }
  return rounds;
}

/**
 * Print `ours / peer` as a throughput ratio (> 1: ours is faster) and, when the
 * issue sets a target for it, whether the median ratio meets it.
 */
export function printRatio(rounds: Rounds, ours: string, peer: string, target?: number): void {
  const oursRounds = roundsOf(rounds, ours);
  const peerRounds = roundsOf(rounds, peer);
  const ratios = oursRounds.map((perSecond, round) => perSecond / peerRounds[round]!);
  const median = medianOf(ratios);
  const verdict = target === undefined ? '' : `   target ≥ ${target}×: ${median >= target ? 'met' : 'NOT MET'}`;
  console.log(
    `  ${ours}  /  ${peer}\n    ${median.toFixed(2)}×  (rounds ${Math.min(...ratios).toFixed(2)} … ${Math.max(...ratios).toFixed(2)})${verdict}`,
  );
}

function roundsOf(rounds: Rounds, name: string): readonly number[] {
  const values = rounds.get(name);
  if (values === undefined || values.length === 0) throw new Error(`no measurement of ${name}`);
  return values;
}

/** The median of `values` (the mean of the middle two when their number is even). */
export function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function formatRate(perSecond: number): string {
  return perSecond >= 1e6 ? `${(perSecond / 1e6).toFixed(2)}M` : `${(perSecond / 1e3).toFixed(0)}k`;
}
