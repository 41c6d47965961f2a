// External links' answers kept from one run to the next: a check run on every pull
// request asks no external host again what an earlier run asked it within the cache
// age. The cache is read from the previous run's index (`readVerdictCache`) and given
// to crawl() (`CrawlRuntime.verdictCache`); a claimed external URL with a fresh entry is
// recorded from it without any request (url-pipeline.ts `answerFromCache`), keeping the
// time it was really asked, so that its age goes on counting from the real request and
// the new index serves as the next run's cache.

import { OptionError, describeValue } from '../errors.js';
import type { FetchMethod, FetchRecord, FetchRow, IndexReader, RedirectHop } from '../store/index.js';
import { verdictOfRow } from './verdict.js';

/** The answer an earlier run recorded for an external URL: what its fetch row said. */
export interface CachedAnswer {
  /** `done`: a response came (whatever its status); `failed`: no usable response. */
  readonly outcome: 'done' | 'failed';
  /** When it was really asked (Unix ms): the age of the entry counts from here. */
  readonly startedAt: number;
  readonly durationMs: number | undefined;
  readonly status: number | undefined;
  readonly contentType: string | undefined;
  readonly errorCode: string | undefined;
  readonly finalUrl: string | undefined;
  readonly redirects: readonly RedirectHop[];
  readonly method: FetchMethod | undefined;
}

/** Answers of external URLs, by URL key (the scheme-rung key, without fragment). */
export interface VerdictCache {
  /** The answer kept for the URL with this key, if a fresh, verified one is kept. */
  get(key: string): CachedAnswer | undefined;
  /** How many answers are kept. */
  readonly size: number;
}

export interface VerdictCacheOptions {
  /** The clock (Unix ms) the age is measured against. */
  readonly now: number;
  /** An answer older than this (ms) is asked again; `0`: nothing is kept. */
  readonly maxAgeMs: number;
}

/** The default cache age: a day (`--cache-max-age 1d`). */
export const DEFAULT_CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** A cache with nothing in it. */
export const EMPTY_VERDICT_CACHE: VerdictCache = Object.freeze({ get: () => undefined, size: 0 });

/**
 * The answers of `reader`'s external URLs (role `external`) whose last fetch is
 * younger than `maxAgeMs` and verified: an unverified answer (verdict.ts) is
 * asked again. Streams the index's URLs once; only the kept answers stay in memory.
 */
export async function readVerdictCache(reader: IndexReader, options: VerdictCacheOptions): Promise<VerdictCache> {
  const { now, maxAgeMs } = options;
  if (!Number.isFinite(now)) throw new OptionError(`Expected \`now\` to be a finite number, got ${describeValue(now)}`);
  if (!(Number.isInteger(maxAgeMs) && maxAgeMs >= 0)) throw new OptionError(`Expected \`maxAgeMs\` to be an integer >= 0, got ${describeValue(maxAgeMs)}`);
  if (maxAgeMs === 0) return EMPTY_VERDICT_CACHE;
  const answers = new Map<string, CachedAnswer>();
  for await (const url of reader.urls()) {
    const last = url.lastFetch;
    if (url.role !== 'external' || last === undefined || (url.state !== 'done' && url.state !== 'failed')) continue;
    // A time ahead of the clock (another machine's) is no proof of freshness.
    const age = now - last.startedAt;
    if (age < 0 || age >= maxAgeMs || verdictOfRow(last, 'external') === 'unverified') continue;
    answers.set(url.key, answerOf(last, url.state));
  }
  return Object.freeze({ get: (key: string) => answers.get(key), size: answers.size });
}

function answerOf(row: FetchRow, state: 'done' | 'failed'): CachedAnswer {
  return {
    outcome: state,
    startedAt: row.startedAt,
    durationMs: row.durationMs,
    status: row.status,
    contentType: row.contentType,
    errorCode: row.errorCode,
    finalUrl: row.finalUrl,
    redirects: row.redirects,
    method: row.method,
  };
}

/**
 * The fetch row of `urlId` answered from the cache: the cached answer with the time
 * it was really asked, and `attempts` 0 — no request was made (`isFromCache`).
 */
export function cachedFetchRecord(urlId: number, answer: CachedAnswer): FetchRecord {
  return {
    urlId,
    outcome: answer.outcome,
    startedAt: answer.startedAt,
    durationMs: answer.durationMs,
    status: answer.status,
    contentType: answer.contentType,
    errorCode: answer.errorCode,
    finalUrl: answer.finalUrl,
    redirects: answer.redirects,
    method: answer.method,
    representsUrlId: urlId,
    attempts: 0,
  };
}

/** Whether a fetch row was answered from the verdict cache of an earlier run (no request: `attempts` 0). */
export function isFromCache(row: Pick<FetchRow, 'attempts'>): boolean {
  return row.attempts === 0;
}

const DURATION = /^(\d+)(ms|s|m|h|d)?$/;

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A cache age as a person writes it (`--cache-max-age`): `1d`, `12h`, `30m`, `45s`,
 * `500ms`, or `0` (no cache); a bare number is milliseconds. Throws `OptionError`
 * naming `name` otherwise.
 */
export function parseCacheMaxAge(text: string, name = 'cacheMaxAge'): number {
  const match = DURATION.exec(text.trim());
  const ms = match === null ? NaN : Number(match[1]) * UNIT_MS[match[2] ?? 'ms']!;
  if (!Number.isSafeInteger(ms)) {
    throw new OptionError(`Expected \`${name}\` to be a duration such as \`1d\`, \`12h\`, \`30m\`, \`45s\` or \`0\` (off), got ${describeValue(text)}`);
  }
  return ms;
}
