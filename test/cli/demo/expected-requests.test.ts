// The expected-request lists checked against a reference crawl: a small,
// sequential crawler made of the project's own layers (html extraction and
// clean-up, the §5.1 base chain, §5.2 resolution, the ladder's keys, the sitemap
// parser) and the protocol-rung rules (aliases only from server evidence), run against the demo server
// over HTTP.
// A correct crawl must leave a log that checkRequestLog accepts; a careless one
// (browser base mode, no Content-Location aliases, robots.txt ignored) must not.

import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { computeBaseChain, isSameDocumentReference, type BaseMode } from '../../../src/base/index.js';
import {
  EXPECTED_REQUESTS,
  NEVER_REQUESTED,
  RECORDED_NEVER_FETCHED,
  checkRequestLog,
  startDemoServer,
  type DemoServer,
} from '../../../src/cli/demo/index.js';
import { parseSitemap } from '../../../src/fetch/index.js';
import { cleanHref, extractLinks } from '../../../src/html/index.js';
import { resourceKey } from '../../../src/ladder/index.js';
import { resolveReference } from '../../../src/uri/index.js';
import { rawRequest, type RawResponse } from './raw-http.js';

interface CrawlOptions {
  readonly baseMode: BaseMode;
  /** Ignore robots.txt and Content-Location evidence. */
  readonly isCareless: boolean;
}

/** Crawl the demo site breadth-first, one request at a time; return the references recorded but not fetchable or out of scope. */
async function referenceCrawl(server: DemoServer, { baseMode, isCareless }: CrawlOptions): Promise<Set<string>> {
  const { origin } = server;
  const inScope = (key: string) => key.startsWith(`${origin}/`);
  const get = (key: string) => rawRequest(origin, key.slice(origin.length));

  const disallowed: string[] = [];
  if (!isCareless) {
    const robots = await get(`${origin}/robots.txt`);
    for (const line of robots.body.toString('utf8').split('\n')) {
      const rule = /^Disallow:\s*(\S+)/i.exec(line);
      if (rule?.[1] !== undefined) disallowed.push(rule[1]);
    }
  }
  const isAllowed = (key: string) => !disallowed.some((prefix) => key.slice(origin.length).startsWith(prefix));

  // Protocol rung: key → the key it is known to be (Content-Location evidence).
  const aliases = new Map<string, string>();
  const canonical = (key: string) => aliases.get(key) ?? key;
  const done = new Set<string>();
  const queued = new Set<string>();
  const queue: string[] = [];
  const recordedOnly = new Set<string>();
  const resources = new Set<string>();
  const external = new Set<string>();
  const enqueue = (key: string) => {
    const known = canonical(key);
    if (queued.has(known) || done.has(known)) return;
    queued.add(known);
    queue.push(known);
  };

  enqueue(`${origin}/`);
  // Sitemaps are read by default: /sitemap.xml of the seed's origin seeds its URLs.
  const sitemap = await get(`${origin}/sitemap.xml`);
  if (sitemap.status === 200) {
    for (const entry of (await parseSitemap(new Uint8Array(sitemap.body))).entries) {
      const target = resolveReference(entry.loc, `${origin}/`);
      if (target.ok && inScope(resourceKey(target.value))) enqueue(resourceKey(target.value));
    }
  }
  while (queue.length > 0) {
    // Follow redirects hop by hop, never asking for a key already asked for
    // (a loop, or a redirect to a page fetched before).
    let key = canonical(queue.shift()!);
    let response: RawResponse | undefined;
    for (;;) {
      if (done.has(key) || !isAllowed(key)) {
        response = undefined;
        break;
      }
      done.add(key);
      response = await get(key);
      const location = response.headers.location;
      if (response.status < 300 || response.status > 399 || location === undefined) break;
      const next = resolveReference(location, key);
      if (!next.ok || !inScope(resourceKey(next.value))) break;
      key = canonical(resourceKey(next.value));
    }
    const contentType = response?.headers['content-type'] ?? '';
    if (response === undefined || response.status !== 200 || !contentType.startsWith('text/html')) continue;

    const bytes = response.headers['content-encoding'] === 'gzip' ? gunzipSync(response.body) : response.body;
    const charset = /charset=([^;\s]+)/i.exec(contentType)?.[1] ?? 'utf-8';
    const links = extractLinks(new TextDecoder(charset).decode(bytes));
    const contentLocation = response.headers['content-location'];
    if (contentLocation !== undefined && !isCareless) {
      const named = resolveReference(contentLocation, key);
      if (named.ok) aliases.set(resourceKey(named.value), key);
    }
    const base = computeBaseChain(
      { retrievalUrl: key, contentLocation, baseElementHref: links.base?.raw },
      { mode: baseMode },
    ).baseText!;
    for (const reference of links.references) {
      const cleaned = cleanHref(reference.raw).cleaned;
      const target = cleaned === undefined ? undefined : resolveReference(cleaned, base);
      const isResource =
        reference.kind === 'resource' || (reference.kind === 'link' && (reference.rel ?? []).some((rel) => ['stylesheet', 'icon', 'preload'].includes(rel)));
      if (cleaned === undefined || target === undefined || !target.ok) {
        recordedOnly.add(reference.raw);
      } else if (!inScope(resourceKey(target.value))) {
        // An external link is checked once (HEAD): the demo's are all on localhost.
        const key = resourceKey(target.value);
        if (/^https?:\/\/localhost[:/]/.test(key) && (reference.isFollowed || isResource)) external.add(key);
        else recordedOnly.add(reference.raw);
      } else if (reference.isFollowed && !isSameDocumentReference(cleaned, base)) {
        enqueue(resourceKey(target.value));
      } else if (isResource && !isSameDocumentReference(cleaned, base)) {
        resources.add(resourceKey(target.value));
      }
    }
  }
  // Resources the pages use: checked once each (GET), never read (site.css names no url()).
  for (const key of resources) {
    if (done.has(canonical(key)) || !isAllowed(key)) continue;
    done.add(canonical(key));
    await get(key);
  }
  // External links: robots.txt of their origin once, then HEAD each, and GET where HEAD answered an error (not 429).
  const externalOrigins = new Set<string>();
  for (const key of external) {
    const externalOrigin = new URL(key).origin;
    if (!isCareless && !externalOrigins.has(externalOrigin)) {
      externalOrigins.add(externalOrigin);
      await rawRequest(externalOrigin, '/robots.txt');
    }
    const head = await rawRequest(externalOrigin, key.slice(externalOrigin.length), 'HEAD');
    if (head.status >= 400 && head.status !== 429) await rawRequest(externalOrigin, key.slice(externalOrigin.length));
  }
  return recordedOnly;
}

let server: DemoServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a correct crawl of the demo site', () => {
  it('requests exactly EXPECTED_REQUESTS, once each, and nothing else', async () => {
    server = await startDemoServer();
    const recordedOnly = await referenceCrawl(server, { baseMode: 'rfc3986', isCareless: false });
    const check = checkRequestLog(server.requests);
    expect(check).toEqual({ missing: [], repeated: [], forbidden: [], unexpected: [], isCorrect: true });
    expect(server.requests).toHaveLength(EXPECTED_REQUESTS.reduce((sum, request) => sum + (request.times ?? 1), 0));

    const port = new URL(server.origin).port;
    expect([...recordedOnly].sort()).toEqual(RECORDED_NEVER_FETCHED.map((link) => link.target.replace('PORT', port)).sort());
  });

  it('fails the check when it ignores robots.txt and Content-Location', async () => {
    server = await startDemoServer();
    await referenceCrawl(server, { baseMode: 'browser', isCareless: true });
    const check = checkRequestLog(server.requests);
    expect(check.isCorrect).toBe(false);
    expect(check.missing).toEqual(['/robots.txt']);
    // (The careless crawl still checks resources and the localhost link, but reads no robots.txt.)
    expect([...check.forbidden].sort()).toEqual([
      'GET /latest/intro.html',
      'GET /manual/core.html.en',
      'GET /manual/index.html.en',
      'GET /private/secret.html',
    ]);
    expect(check.repeated).toEqual([]);
    expect(check.unexpected).toEqual([]);
  });
});

describe('checkRequestLog', () => {
  const perfect = EXPECTED_REQUESTS.map((request) => `GET ${request.target}`);

  it('accepts each expected target once, in any order and any percent-encoding spelling', () => {
    const spelled = perfect.map((entry) => entry.replace('/~user/', '/%7euser/').replace('/caf%C3%A9.html', '/caf%c3%a9.html'));
    expect(checkRequestLog([...spelled].reverse()).isCorrect).toBe(true);
  });

  it('reports what is missing, repeated, forbidden or unexpected', () => {
    const log = [
      ...perfect.filter((entry) => entry !== 'GET /docs/'),
      'HEAD /a-b.html',
      'GET /a%2db.html',
      'GET /server-error',
      'GET /manual/core.html.en',
      'GET /./a-b.html',
      'GET /nowhere',
      'POST /',
      'GET http://127.0.0.1:1/',
      'INVALID HPE_INVALID_URL',
    ];
    expect(checkRequestLog(log)).toEqual({
      missing: ['/docs/'],
      repeated: [{ target: '/a-b.html', count: 3 }],
      forbidden: ['GET /manual/core.html.en', 'GET /./a-b.html'],
      unexpected: ['GET /nowhere', 'POST /', 'GET http://127.0.0.1:1/', 'INVALID HPE_INVALID_URL'],
      isCorrect: false,
    });
  });

  it('lets a retryable 5xx be asked again', () => {
    expect(EXPECTED_REQUESTS.filter((request) => request.isRetryable === true).map((request) => request.target)).toEqual(['/server-error']);
    expect(checkRequestLog([...perfect, 'GET /server-error']).isCorrect).toBe(true);
  });

  it('knows no target as both expected and never requested', () => {
    const never = new Set(NEVER_REQUESTED.map((request) => request.target));
    expect(EXPECTED_REQUESTS.filter((request) => never.has(request.target))).toEqual([]);
  });
});
