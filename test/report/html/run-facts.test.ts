// How the report states a crawl run's date, duration and site.

import { describe, expect, it } from 'vitest';
import { formatDate, formatDuration, runLine } from '../../../src/report/html/run-facts.js';
import { siteName } from '../../../src/report/html/site-facts.js';

describe('run facts', () => {
  it('dates in UTC, durations in plain units', () => {
    expect(formatDate(0)).toBe('1970-01-01 00:00:00 UTC');
    expect(formatDuration(120)).toBe('120 ms');
    expect(formatDuration(4500)).toBe('4.5 s');
    expect(formatDuration(75_000)).toBe('1 min 15 s');
    expect(formatDuration(3_723_000)).toBe('1 h 2 min 3 s');
  });

  it('the run line: the last run, a run that did not end, and an index without runs', () => {
    const run = { id: 1, startedAt: 0, seeds: [], settings: {}, endedAt: 2000, stoppedBy: 'frontier-empty', outcome: 'frontier-empty', counts: {} };
    expect(runLine([run])).toBe('Crawled 1970-01-01 00:00:00 UTC, took 2.0 s.');
    expect(runLine([run, { ...run, id: 2, startedAt: 60_000, endedAt: undefined }])).toBe('Crawled 1970-01-01 00:01:00 UTC, did not end (killed or still running) (run 2 of 2).');
    expect(runLine([])).toMatch(/^Crawl date not recorded/);
  });

  it('names the site by its seeds\' hosts and ports', () => {
    expect(siteName({ seeds: ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/docs/'], hosts: ['127.0.0.1'] })).toBe('127.0.0.1:8080');
    expect(siteName({ seeds: ['https://a.test/', 'https://b.test/', 'https://c.test/', 'https://d.test/'], hosts: [] })).toBe('a.test, b.test, c.test and 1 more');
    expect(siteName({ seeds: [], hosts: [] })).toBe('an empty index');
  });
});
