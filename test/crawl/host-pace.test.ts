// The pace arithmetic of host-pace.ts on a fake clock: a Retry-After pause
// (delay-seconds or HTTP-date, capped), the delay doubled by each 429 and halved back
// after RECOVER_AFTER answers in a row; and the host scheduler holding a paused host.

import { describe, expect, it } from 'vitest';
import { HostPace, MAX_PENALTY_MS, MIN_PENALTY_MS, RECOVER_AFTER } from '../../src/crawl/host-pace.js';
import { HostScheduler, type TaskResult } from '../../src/crawl/host-scheduler.js';

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('HostPace: Retry-After pauses the host', () => {
  it('a 429 with delay-seconds pauses until then, and counts one pause', () => {
    const c = clock();
    const pace = new HostPace(c.now);
    pace.answered('a', 429, '2');
    expect(pace.pausedUntil('a')).toBe(c.now() + 2000);
    expect(pace.pausedUntil('b')).toBe(-Infinity);
    c.advance(500);
    expect(pace.paused()).toEqual([{ host: 'a', remainingMs: 1500 }]);
    c.advance(1500);
    expect(pace.paused()).toEqual([]);
    expect(pace.report()).toEqual([{ host: 'a', pauses: 1, longestPauseMs: 2000, tooManyRequests: 1, slowestDelayMs: MIN_PENALTY_MS, delayMs: MIN_PENALTY_MS }]);
  });

  it('a 503 with an HTTP-date pauses until that date, without lowering the rate (RFC 9110 §10.2.3)', () => {
    const c = clock(Date.parse('2026-01-01T00:00:00Z'));
    const pace = new HostPace(c.now);
    pace.answered('a', 503, 'Thu, 01 Jan 2026 00:00:05 GMT');
    expect(pace.pausedUntil('a')).toBe(c.now() + 5000);
    expect(pace.delayMs('a', 0)).toBe(0);
    expect(pace.report()).toEqual([{ host: 'a', pauses: 1, longestPauseMs: 5000, tooManyRequests: 0, slowestDelayMs: 0, delayMs: 0 }]);
  });

  it('a later, shorter pause never shortens one that holds; a pause is capped at 60 s', () => {
    const c = clock();
    const pace = new HostPace(c.now);
    pace.answered('a', 503, '3600');
    expect(pace.pausedUntil('a')).toBe(c.now() + 60_000);
    pace.answered('a', 503, '1');
    expect(pace.pausedUntil('a')).toBe(c.now() + 60_000);
    expect(pace.report()[0]).toMatchObject({ pauses: 2, longestPauseMs: 60_000 });
  });

  it('no pause from a 503 without Retry-After, an unreadable one, a date past, or a 500 that sends one', () => {
    const c = clock();
    const pace = new HostPace(c.now);
    pace.answered('a', 503, undefined);
    pace.answered('a', 503, 'soon');
    pace.answered('a', 503, 'Thu, 01 Jan 1970 00:00:00 GMT');
    pace.answered('a', 500, '5');
    pace.answered('a', undefined, '5');
    expect(pace.pausedUntil('a')).toBe(-Infinity);
    expect(pace.report()).toEqual([]);
  });
});

describe('HostPace: repeated 429s lower the rate, answers raise it slowly', () => {
  it('each 429 doubles the delay from 1 s, up to 60 s; the configured delay stays the floor', () => {
    const pace = new HostPace(clock().now);
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      pace.answered('a', 429, undefined);
      delays.push(pace.delayMs('a', 0));
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, MAX_PENALTY_MS, MAX_PENALTY_MS]);
    expect(pace.delayMs('a', 90_000)).toBe(90_000);
    expect(pace.delayMs('b', 250)).toBe(250);
    expect(pace.slowed()).toEqual([{ host: 'a', delayMs: MAX_PENALTY_MS }]);
  });

  it(`${RECOVER_AFTER} answers in a row halve it, back to the configured delay below 1 s; a 429 starts the count again`, () => {
    const pace = new HostPace(clock().now);
    for (let i = 0; i < 3; i++) pace.answered('a', 429, undefined);
    expect(pace.delayMs('a', 0)).toBe(4000);
    const answer = (n: number, status = 200): void => {
      for (let i = 0; i < n; i++) pace.answered('a', status, undefined);
    };
    answer(RECOVER_AFTER - 1);
    expect(pace.delayMs('a', 0)).toBe(4000);
    pace.answered('a', 429, undefined);
    expect(pace.delayMs('a', 0)).toBe(8000);
    answer(RECOVER_AFTER - 1, 404);
    expect(pace.delayMs('a', 0)).toBe(8000);
    answer(1);
    expect(pace.delayMs('a', 0)).toBe(4000);
    answer(RECOVER_AFTER);
    expect(pace.delayMs('a', 0)).toBe(2000);
    answer(RECOVER_AFTER);
    expect(pace.delayMs('a', 0)).toBe(1000);
    answer(RECOVER_AFTER);
    expect(pace.delayMs('a', 0)).toBe(0);
    expect(pace.slowed()).toEqual([]);
    expect(pace.report()).toEqual([{ host: 'a', pauses: 0, longestPauseMs: 0, tooManyRequests: 4, slowestDelayMs: 8000, delayMs: 0 }]);
  });
});

describe('HostScheduler with a pause', () => {
  it('starts nothing on a paused host until the pause ends; other hosts go on', async () => {
    const c = clock();
    const pace = new HostPace(c.now);
    const started: string[] = [];
    const scheduler = new HostScheduler<string>({
      concurrency: 4,
      perHostConcurrency: 2,
      delayMs: () => 0,
      now: c.now,
      pausedUntil: (host) => pace.pausedUntil(host),
      run: (item) => {
        started.push(item);
        return Promise.resolve<TaskResult>({ kind: 'done' });
      },
      onSettled: () => undefined,
      onRetry: (item) => item,
      onError: (error) => {
        throw error;
      },
    });
    pace.answered('a', 429, '3');
    for (const item of ['a1', 'a2', 'b1']) scheduler.push(item.slice(0, 1), item);
    expect(scheduler.pump()).toBe(3000);
    await scheduler.onIdle();
    expect(started).toEqual(['b1']);
    c.advance(2999);
    expect(scheduler.pump()).toBe(1);
    c.advance(1);
    expect(scheduler.pump()).toBeUndefined();
    await scheduler.onIdle();
    expect(started).toEqual(['b1', 'a1', 'a2']);
  });
});
