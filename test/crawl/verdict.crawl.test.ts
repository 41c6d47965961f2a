// The verdict each fetch row records, over real HTTP on loopback: the site is
// 127.0.0.1, 127.0.0.2 plays an external site, 127.0.0.3 a host that refuses
// connections, and a name under `.invalid` (RFC 6761 §6.4) one that DNS says does not exist.

import { createServer, type Server } from 'node:http';
import dns from 'node:dns';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { checkedCounts, type CrawlSummary } from '../../src/crawl/index.js';
import { createFetcher } from '../../src/fetch/index.js';
import { audit } from '../../src/report/index.js';
import { MemoryStore, type UrlRow } from '../../src/store/index.js';
import { collect } from '../support/collect.js';

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))));
});

type Route = readonly [status: number, headers?: Record<string, string>, body?: string];

async function host(address: string, routes: (origin: string) => Record<string, Route>): Promise<string> {
  let table: Record<string, Route> = {};
  const server = createServer((request, response) => {
    const [status, headers, body] = table[request.url ?? ''] ?? [404, { 'content-type': 'text/html' }, 'not found'];
    response.writeHead(status, { 'content-type': 'text/html', ...headers });
    response.end(request.method === 'HEAD' ? undefined : (body ?? ''));
  });
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, address, () => resolve());
  });
  const origin = `http://${address}:${(server.address() as AddressInfo).port}`;
  table = routes(origin);
  return origin;
}

/** A port on `address` that nothing listens on: one the OS gave, then closed. */
async function closedPort(address: string): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, address, () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Site {
  readonly origin: string;
  readonly external: string;
  readonly refused: string;
}

async function site(): Promise<Site> {
  const external = await host('127.0.0.2', () => ({
    '/wall': [403],
    '/li': [999],
    '/gone': [404],
    '/down': [503],
    '/fine': [200],
  }));
  const refused = `http://127.0.0.3:${await closedPort('127.0.0.3')}/x`;
  const links = [
    'missing',
    'gone',
    'forbidden',
    'error',
    'busy',
    'slow',
    'fine',
    `${external}/wall`,
    `${external}/li`,
    `${external}/gone`,
    `${external}/down`,
    `${external}/fine`,
    refused,
    'http://no-such-host.invalid/page',
    'http://flaky-resolver.test/page',
  ];
  const origin = await host('127.0.0.1', () => ({
    '/': [200, {}, `<!doctype html><title>t</title>${links.map((href) => `<a href="${href}">x</a>`).join('\n')}`],
    '/gone': [410],
    '/forbidden': [403],
    '/error': [500],
    '/busy': [503],
    '/slow': [429, { 'retry-after': '1' }],
    '/fine': [200, {}, '<!doctype html><title>fine</title>'],
  }));
  return { origin, external, refused };
}

async function crawlSite(s: Site, statusPolicy?: string): Promise<{ summary: CrawlSummary; verdicts: Map<string, string | undefined>; store: MemoryStore }> {
  const store = new MemoryStore();
  // The resolver of flaky-resolver.test does not answer (EAI_AGAIN); any other name is left to
  // the test's resolver, which answers names beyond loopback with NXDOMAIN (ENOTFOUND).
  const lookup: LookupFunction = (hostname, options, callback) => {
    if (hostname === 'flaky-resolver.test') {
      callback(Object.assign(new Error(`getaddrinfo EAI_AGAIN ${hostname}`), { code: 'EAI_AGAIN' }), '', 4);
      return;
    }
    dns.lookup(hostname, options, callback as never);
  };
  const fetcher = createFetcher({ refusePrivate: false, lookup });
  try {
    const summary = await crawl([`${s.origin}/`], {
      store,
      fetcher,
      robots: false,
      allowPrivate: true,
      sitemap: false,
      retries: 1,
      retryDelayMs: 10,
      ...(statusPolicy === undefined ? {} : { statusPolicy }),
    });
    const urls: UrlRow[] = await collect(store.reader().urls());
    return { summary, verdicts: new Map(urls.map((url) => [url.key, url.lastFetch?.verdict])), store };
  } finally {
    await fetcher.close();
  }
}

describe('the verdict of each fetch, recorded by the crawl', () => {
  it('ok, broken or unverified by status, error and role; the audit reports LINK_BROKEN only for broken; the summary and stats count the same', { timeout: 60_000 }, async () => {
    const s = await site();
    const { summary, verdicts, store } = await crawlSite(s);
    expect(Object.fromEntries(verdicts)).toEqual({
      [`${s.origin}/`]: 'ok',
      [`${s.origin}/missing`]: 'broken',
      [`${s.origin}/gone`]: 'broken',
      // The crawl's own host refusing its own page: a defect of the site.
      [`${s.origin}/forbidden`]: 'broken',
      [`${s.origin}/error`]: 'unverified',
      [`${s.origin}/busy`]: 'unverified',
      // 429 with Retry-After: waited for, retried, still 429: not proved broken.
      [`${s.origin}/slow`]: 'unverified',
      [`${s.origin}/fine`]: 'ok',
      // An external host's 403 and 999: bot walls, not proof.
      [`${s.external}/wall`]: 'unverified',
      [`${s.external}/li`]: 'unverified',
      [`${s.external}/gone`]: 'broken',
      [`${s.external}/down`]: 'unverified',
      [`${s.external}/fine`]: 'ok',
      [s.refused]: 'unverified',
      // NXDOMAIN: the name does not exist.
      'http://no-such-host.invalid/page': 'broken',
      // The resolver did not answer: whether the name exists is not known.
      'http://flaky-resolver.test/page': 'unverified',
    });
    const rows = await collect(store.reader().urls());
    const codeOf = (key: string): string | undefined => rows.find((url) => url.key === key)?.lastFetch?.errorCode;
    expect(codeOf(s.refused)).toBe('ERR_FETCH_CONNECTION_REFUSED');
    expect(codeOf('http://no-such-host.invalid/page')).toBe('ERR_FETCH_DNS');
    expect(codeOf('http://flaky-resolver.test/page')).toBe('ERR_FETCH_DNS_TEMPORARY');
    expect(rows.find((url) => url.key === `${s.origin}/slow`)?.lastFetch?.attempts).toBe(2);

    expect(summary.verdicts).toEqual({ ok: 3, broken: 5, unverified: 8 });
    expect(await checkedCounts(store.reader())).toEqual({ verdicts: summary.verdicts, broken: summary.broken });

    const findings = await collect(audit(store.reader()));
    const byTarget = (code: string): string[] => findings.filter((f) => f.code === code).map((f) => f.target!.replace(s.origin, 'O').replace(s.external, 'X'));
    expect(byTarget('LINK_BROKEN').sort()).toEqual(['O/forbidden', 'O/gone', 'O/missing', 'X/gone', 'http://no-such-host.invalid/page'].sort());
    expect(byTarget('LINK_UNVERIFIED').sort()).toEqual(['O/busy', 'O/error', 'O/slow', 'X/down', 'X/li', 'X/wall', s.refused, 'http://flaky-resolver.test/page'].sort());
    expect(findings.filter((f) => f.code === 'LINK_BROKEN').every((f) => f.verdict === 'broken' && f.severity === 'error')).toBe(true);
    expect(findings.filter((f) => f.code === 'LINK_UNVERIFIED').every((f) => f.verdict === 'unverified' && f.severity === 'warning')).toBe(true);
    expect(findings.find((f) => f.target === `${s.origin}/slow`)?.message).toBe('the target answered 429 (too many requests: rate-limited)');
    expect(findings.find((f) => f.target === `${s.external}/wall`)?.message).toBe('the target answered 403 (a bot wall: the host refuses crawlers)');
  });

  it('--status-policy changes the verdict of a status, whatever the role, and is recorded with the run', { timeout: 60_000 }, async () => {
    const s = await site();
    const { summary, verdicts, store } = await crawlSite(s, '403=broken, 999=ok,5xx=broken');
    expect(verdicts.get(`${s.external}/wall`)).toBe('broken');
    expect(verdicts.get(`${s.external}/li`)).toBe('ok');
    expect(verdicts.get(`${s.origin}/forbidden`)).toBe('broken');
    expect(verdicts.get(`${s.origin}/error`)).toBe('broken');
    expect(verdicts.get(`${s.external}/down`)).toBe('broken');
    // A status the policy does not name keeps its default; an error code is no status.
    expect(verdicts.get(`${s.origin}/slow`)).toBe('unverified');
    expect(verdicts.get(s.refused)).toBe('unverified');
    expect(summary.verdicts).toEqual({ ok: 4, broken: 9, unverified: 3 });
    expect((await store.runs())[0]?.settings['statusPolicy']).toBe('403=broken,999=ok,5xx=broken');
    expect((await store.runs())[0]?.counts?.['verdicts']).toEqual(summary.verdicts);
    // The audit reads the recorded verdict: the policy of the run holds, not the default.
    const findings = await collect(audit(store.reader()));
    expect(findings.find((f) => f.target === `${s.external}/li`)).toBeUndefined();
    expect(findings.find((f) => f.target === `${s.external}/wall`)?.code).toBe('LINK_BROKEN');
  });

  it('a bad status policy is refused at once, with one line', async () => {
    await expect(crawl(['http://127.0.0.1/'], { store: new MemoryStore(), statusPolicy: '403=gone' })).rejects.toThrow(/`statusPolicy`.*`403=gone` is not one/);
  });
});
