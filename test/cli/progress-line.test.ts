// The crawl's progress line: what to fix first (broken, redirected), then how far along.

import { describe, expect, it } from 'vitest';
import { ProgressLine } from '../../src/cli/progress-line.js';
import type { CrawlEvent } from '../../src/crawl/index.js';
import { Sink } from './cli-harness.js';

const page = (url: string, status: number, finalUrl = url): CrawlEvent =>
  ({ type: 'page', url, finalUrl, status, contentType: 'text/html', depth: 0, attempts: 1, links: 0, queued: 0, baseLevel: undefined, baseLevelsDiffer: false, hrefFindings: [], pageFindings: [], errorCode: undefined }) as CrawlEvent;

describe('ProgressLine', () => {
  it('counts broken and redirected pages from the events, and shows requests in flight and the elapsed time', () => {
    let now = 1_000;
    const stream = Object.assign(new Sink(), { isTTY: true });
    const line = new ProgressLine(stream, { isEnabled: true, now: () => now });
    line.see(page('http://h/', 200));
    line.see(page('http://h/a', 404));
    line.see(page('http://h/old', 200, 'http://h/new'));
    line.see({ type: 'error', url: 'http://h/down', code: 'ERR_FETCH_CONNECT', outcome: 'permanent', attempt: 1, retryInMs: undefined, status: undefined } as CrawlEvent);
    line.see({ type: 'error', url: 'http://h/slow', code: 'ERR_FETCH_TIMEOUT', outcome: 'retry', attempt: 1, retryInMs: 100, status: undefined } as CrawlEvent);
    now += 75_000;
    line.see({ type: 'progress', requests: 5, fetched: 3, failed: 1, queued: 7, inFlight: 2 });
    expect(stream.text).toBe('\rcrawling: 2 broken, 1 redirected; 3 done, 7 queued, 1 failed; 2 requests in flight, 1 min 15 s, 0.1 pages/s\u001b[K');
  });

  it('shows a paused host with its seconds left, and a lowered rate; a pause is drawn whatever the redraw rate', () => {
    let now = 1_000;
    const stream = Object.assign(new Sink(), { isTTY: true });
    const line = new ProgressLine(stream, { isEnabled: true, now: () => now });
    const base = { type: 'progress', requests: 2, fetched: 1, failed: 0, queued: 3, inFlight: 0 } as const;
    line.see({ ...base, pausedHosts: [{ host: '127.0.0.1', remainingMs: 3200 }], slowedHosts: [{ host: '127.0.0.1', delayMs: 2000 }] });
    expect(stream.text).toContain('; paused 127.0.0.1 4 s; 127.0.0.1 at 1 request / 2 s\u001b[K');
    now += 10;
    line.see({ ...base, pausedHosts: [{ host: '127.0.0.1', remainingMs: 1000 }], slowedHosts: [{ host: '127.0.0.1', delayMs: 1875 }] });
    expect(stream.text).toMatch(/; paused 127\.0\.0\.1 1 s; 127\.0\.0\.1 at 1 request \/ 1\.875 s\u001b\[K$/);
  });

  it('draws nothing when not enabled (not a terminal)', () => {
    const stream = new Sink();
    const line = new ProgressLine(stream, { isEnabled: false, now: () => 0 });
    line.see({ type: 'progress', requests: 1, fetched: 1, failed: 0, queued: 0, inFlight: 0 });
    expect(stream.text).toBe('');
  });
});
