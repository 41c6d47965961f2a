// The status label and class the report filters by and colours by.

import { describe, expect, it } from 'vitest';
import { statusOf, STATUS_CLASSES } from '../../../src/report/html/index.js';

const hop = { from: 'http://a/old', to: 'http://a/new', status: 301 };

describe('statusOf', () => {
  it.each([
    ['a 200', { status: 200, errorCode: undefined, redirects: [] }, '200', '2xx'],
    ['a redirect that reaches a response', { status: 200, errorCode: undefined, redirects: [hop] }, '301 → 200', '3xx'],
    ['a redirect not followed (its target known already)', { status: 301, errorCode: undefined, redirects: [] }, '301', '3xx'],
    ['a 404', { status: 404, errorCode: undefined, redirects: [] }, '404', '4xx'],
    ['a redirect to a 404: classed by what following the link gives', { status: 404, errorCode: undefined, redirects: [hop] }, '301 → 404', '4xx'],
    ['a 503', { status: 503, errorCode: undefined, redirects: [] }, '503', '5xx'],
    ['no response', { status: undefined, errorCode: 'ERR_FETCH_TIMEOUT', redirects: [] }, 'ERR_FETCH_TIMEOUT', 'error'],
    ['a redirect loop', { status: 302, errorCode: 'ERR_FETCH_REDIRECT_LOOP', redirects: [hop] }, '301 → ERR_FETCH_REDIRECT_LOOP', 'error'],
    ['refused by robots.txt: not requested', { status: undefined, errorCode: 'ERR_CRAWL_ROBOTS_DISALLOWED', redirects: [] }, 'ERR_CRAWL_ROBOTS_DISALLOWED', 'not checked'],
    ['a body cut by the size cap: the response is kept', { status: 200, errorCode: 'ERR_FETCH_BODY_TOO_LARGE', redirects: [] }, '200 ERR_FETCH_BODY_TOO_LARGE', '2xx'],
  ] as const)('%s', (_name, fetch, label, statusClass) => {
    expect(statusOf('done', { ...fetch, redirects: [...fetch.redirects] })).toEqual({ label, statusClass });
  });

  it('without a fetch: what another URL\'s fetch got for it, else its state, not checked', () => {
    expect(statusOf('done', undefined, { status: 200, errorCode: undefined, redirects: [hop] })).toEqual({ label: '200', statusClass: '2xx' });
    expect(statusOf('skipped', undefined)).toEqual({ label: 'skipped', statusClass: 'not checked' });
    expect(statusOf('queued', undefined)).toEqual({ label: 'queued', statusClass: 'not checked' });
  });

  it('a chain that stopped at a URL the crawl had ends as that URL\'s own fetch did, never `301 → 301`', () => {
    const stopped = { status: 301, errorCode: undefined, redirects: [hop] };
    expect(statusOf('alias', stopped, undefined, { status: 200, errorCode: undefined, redirects: [] })).toEqual({ label: '301 → 200', statusClass: '3xx' });
    expect(statusOf('alias', stopped, undefined, { status: 404, errorCode: undefined, redirects: [] })).toEqual({ label: '301 → 404', statusClass: '4xx' });
    const twoHops = { status: 302, errorCode: undefined, redirects: [hop, { from: 'http://a/new', to: 'http://a/newer', status: 302 }] };
    expect(statusOf('alias', twoHops, undefined, { status: 200, errorCode: undefined, redirects: [] })).toEqual({ label: '301 → 200', statusClass: '3xx' });
    // Its end not fetched (yet): said as far as it went.
    expect(statusOf('alias', stopped)).toEqual({ label: '301', statusClass: '3xx' });
  });

  it('lists the classes in filter order', () => {
    expect(STATUS_CLASSES).toEqual(['2xx', '3xx', '4xx', '5xx', 'error', 'not checked']);
  });
});
