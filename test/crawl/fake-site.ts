// An in-memory web: a Fetcher over a map of URL → response, following redirects hop
// by hop as the real fetcher does, with a request log, per-host in-flight counts
// and optional latency. Nothing touches the network.

import { setTimeout as sleep } from 'node:timers/promises';
import type { FetchCallOptions, FetchedResponse, FetchHop, Fetcher, RobotsPolicy } from '../../src/fetch/index.js';
import { resourceKey } from '../../src/ladder/index.js';
import { parseUriReference, resolveReference, serialize } from '../../src/uri/index.js';

export interface FakeResource {
  /** @default 200, or 301 with `redirect` */
  readonly status?: number;
  /** Location of a redirect, as the server writes it (relative is fine). */
  readonly redirect?: string;
  /** HTML body. */
  readonly body?: string;
  /** @default 'text/html' when there is a body */
  readonly contentType?: string;
  /** Extra headers (names in any case). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Answer with this error code (no response) for the first `failTimes` requests (all when undefined). */
  readonly errorCode?: string;
  readonly failTimes?: number;
  /** Latency of this resource, ms. */
  readonly latencyMs?: number;
  /** The status of a HEAD request, when it differs (405, 501: HEAD refused). @default the status of GET */
  readonly headStatus?: number;
}

export interface FakeSiteOptions {
  /** Latency of every response, ms. @default 0 */
  readonly latencyMs?: number;
  /** @default 10 */
  readonly maxRedirects?: number;
  /** The clock. @default Date.now */
  readonly now?: () => number;
}

/** The resource key (scheme rung, no fragment) of an absolute URI: how the fake server finds a resource. */
export function keyOf(url: string): string {
  const parsed = parseUriReference(url);
  if (!parsed.ok) throw new Error(`bad URL in test: ${url}`);
  return resourceKey(parsed.value);
}

export class FakeSite implements Fetcher {
  readonly #resources = new Map<string, FakeResource>();
  readonly #served = new Map<string, number>();
  readonly #options: FakeSiteOptions;
  /** URLs the crawler asked for (one per `fetch` call). */
  readonly calls: string[] = [];
  /** Every request the server saw, redirect hops included. */
  readonly requests: string[] = [];
  /** `METHOD url` of every `fetch` call (the method asked for, GET by default). */
  readonly methods: string[] = [];
  /** When each `fetch` call started, with its host. */
  readonly starts: { readonly url: string; readonly host: string; readonly at: number }[] = [];
  #inFlight = 0;
  readonly #inFlightByHost = new Map<string, number>();
  maxInFlight = 0;
  readonly maxInFlightByHost = new Map<string, number>();

  constructor(resources: Readonly<Record<string, FakeResource>>, options: FakeSiteOptions = {}) {
    this.#options = options;
    for (const [url, resource] of Object.entries(resources)) this.#resources.set(keyOf(url), resource);
  }

  /** How many times the server was asked for `url` (by key). */
  requestCount(url: string): number {
    const key = keyOf(url);
    return this.requests.filter((r) => keyOf(r) === key).length;
  }

  /** The crawler's calls by key: each key with the number of calls. */
  callCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const call of this.calls) counts.set(keyOf(call), (counts.get(keyOf(call)) ?? 0) + 1);
    return counts;
  }

  async fetch(url: string, signal?: AbortSignal, options?: FetchCallOptions): Promise<FetchedResponse> {
    const now = this.#options.now ?? Date.now;
    const startedAt = now();
    const parsed = parseUriReference(url);
    const host = parsed.ok ? (parsed.value.host ?? '') : '';
    this.calls.push(url);
    this.methods.push(`${options?.method ?? 'GET'} ${url}`);
    this.starts.push({ url, host, at: startedAt });
    this.#inFlight++;
    this.#inFlightByHost.set(host, (this.#inFlightByHost.get(host) ?? 0) + 1);
    this.maxInFlight = Math.max(this.maxInFlight, this.#inFlight);
    this.maxInFlightByHost.set(host, Math.max(this.maxInFlightByHost.get(host) ?? 0, this.#inFlightByHost.get(host)!));
    try {
      return await this.#follow(url, startedAt, signal, options);
    } finally {
      this.#inFlight--;
      this.#inFlightByHost.set(host, this.#inFlightByHost.get(host)! - 1);
    }
  }

  async #follow(url: string, startedAt: number, signal: AbortSignal | undefined, options: FetchCallOptions | undefined): Promise<FetchedResponse> {
    const now = this.#options.now ?? Date.now;
    const hops: FetchHop[] = [];
    const seen = new Set<string>();
    let current = url;
    for (;;) {
      const key = keyOf(current);
      seen.add(key);
      this.requests.push(current);
      options?.onRequest?.({ url: current, kind: hops.length === 0 ? 'page' : 'redirect' });
      const resource = this.#resources.get(key);
      const latency = resource?.latencyMs ?? this.#options.latencyMs ?? 0;
      if (latency > 0) {
        try {
          await sleep(latency, undefined, { signal });
        } catch {
          return this.#response(url, current, hops, undefined, {}, undefined, startedAt, now, 'ERR_FETCH_ABORTED');
        }
      }
      if (signal?.aborted === true) return this.#response(url, current, hops, undefined, {}, undefined, startedAt, now, 'ERR_FETCH_ABORTED');
      if (resource === undefined) {
        return this.#response(url, current, hops, 404, { 'content-type': 'text/html' }, '<title>Not found</title>', startedAt, now, undefined);
      }
      const served = this.#served.get(key) ?? 0;
      this.#served.set(key, served + 1);
      if (resource.errorCode !== undefined && (resource.failTimes === undefined || served < resource.failTimes)) {
        if (resource.errorCode.startsWith('HTTP_')) {
          const status = Number(resource.errorCode.slice(5));
          return this.#response(url, current, hops, status, { ...lower(resource.headers) }, undefined, startedAt, now, undefined);
        }
        return this.#response(url, current, hops, undefined, {}, undefined, startedAt, now, resource.errorCode);
      }
      const headers: Record<string, string> = { ...lower(resource.headers) };
      if (resource.redirect !== undefined) {
        const status = resource.status ?? 301;
        const resolved = resolveReference(resource.redirect, current);
        const to = resolved.ok ? serialize(resolved.value) : undefined;
        hops.push({ from: current, to, status });
        if (to === undefined) return this.#response(url, current, hops, status, headers, undefined, startedAt, now, 'ERR_FETCH_BAD_LOCATION');
        if (seen.has(keyOf(to))) return this.#response(url, current, hops, status, headers, undefined, startedAt, now, 'ERR_FETCH_REDIRECT_LOOP');
        if (hops.length > (this.#options.maxRedirects ?? 10)) {
          return this.#response(url, current, hops, status, headers, undefined, startedAt, now, 'ERR_FETCH_TOO_MANY_REDIRECTS');
        }
        // As the real fetcher does: the caller may end the chain before `to` is requested.
        if ((await options?.beforeRedirect?.({ from: current, to, status, hopIndex: hops.length - 1 })) === 'stop') {
          return { ...this.#response(url, current, hops, status, headers, undefined, startedAt, now, undefined), redirectStopped: true };
        }
        current = to;
        continue;
      }
      const contentType = resource.contentType ?? (resource.body === undefined ? undefined : 'text/html');
      if (contentType !== undefined) headers['content-type'] = contentType;
      if (options?.method === 'HEAD') {
        return { ...this.#response(url, current, hops, resource.headStatus ?? resource.status ?? 200, headers, undefined, startedAt, now, undefined), method: 'HEAD' };
      }
      return this.#response(url, current, hops, resource.status ?? 200, headers, resource.body, startedAt, now, undefined);
    }
  }

  #response(
    requestUrl: string,
    finalUrl: string,
    hops: readonly FetchHop[],
    status: number | undefined,
    headers: Record<string, string>,
    body: string | undefined,
    startedAt: number,
    now: () => number,
    errorCode: string | undefined,
  ): FetchedResponse {
    const contentType = headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    const isHtml = contentType === 'text/html' || contentType === 'application/xhtml+xml' || contentType === 'text/css';
    return {
      requestUrl,
      finalUrl,
      hops,
      status,
      headers,
      contentType,
      charset: isHtml ? 'utf-8' : undefined,
      body: isHtml ? body : undefined,
      bytes: body?.length ?? 0,
      startedAt,
      durationMs: now() - startedAt,
      errorCode,
    };
  }
}

function lower(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

/** An HTML page with these links (`<a href>` each). */
export function page(...hrefs: string[]): string {
  return `<!doctype html><title>t</title><body>${hrefs.map((href) => `<a href="${href}">x</a>`).join('\n')}</body>`;
}

/** A robots.txt policy from a predicate and a Crawl-delay. */
export function fakeRobots(isAllowed: (url: string) => boolean, crawlDelayMs?: number): RobotsPolicy & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    isAllowed: async (url) => {
      asked.push(url);
      return isAllowed(url);
    },
    crawlDelayMs: () => crawlDelayMs,
  };
}
