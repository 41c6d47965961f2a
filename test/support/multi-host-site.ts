// A generated site spread over several loopback hosts (127.0.0.2, 127.0.0.3 …), one
// HTTP server per host, for crawls by cooperating workers (test/crawl/pg-workers.*,
// bench/pg-workers.bench.ts). Every response comes after `latencyMs`, as the real
// web is latency-bound. The servers count each request by URL, with the worker's
// User-Agent, and measure what in-flight requests and starts per host look like.
//
// Each host has `pagesPerHost` pages: page i links to pages 4i+1 … 4i+4 of its own
// host (a tree reaching every page from the root), to page i of the next host and of
// the host three further (so that the frontier mixes hosts), to its host's root in
// another spelling (a syntax-rung duplicate), and uses one of `imagesPerHost` images
// (resources, fetched once each).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MultiHostSiteOptions {
  /** The hosts, each an IPv4 loopback address. @default 127.0.0.2 … 127.0.0.9 */
  readonly hosts?: readonly string[];
  readonly pagesPerHost: number;
  /** @default 4 */
  readonly imagesPerHost?: number;
  /** Time before each answer, ms. @default 0 */
  readonly latencyMs?: number;
  /** robots.txt body by host (404 for the others). */
  readonly robots?: Readonly<Record<string, string>>;
}

/** One request as a server saw it. */
export interface SiteRequest {
  readonly url: string;
  readonly host: string;
  readonly path: string;
  readonly userAgent: string;
  /** When it arrived (ms, performance.now()). */
  readonly at: number;
}

export interface MultiHostSite {
  /** `http://127.0.0.N:port`, one per host, in the order of `hosts`. */
  readonly origins: readonly string[];
  /** The root of each host: seeds. */
  readonly seeds: readonly string[];
  /** Every URL of a page or image, as the crawler keys it: what a complete crawl requests. */
  readonly resources: readonly string[];
  readonly requests: SiteRequest[];
  /** Most requests in flight at once, by host. */
  readonly maxInFlightByHost: Map<string, number>;
  /** Requests by URL (robots.txt and sitemaps included). */
  counts(): Map<string, number>;
  close(): Promise<void>;
}

export const LOOPBACK_HOSTS: readonly string[] = Array.from({ length: 8 }, (_, i) => `127.0.0.${i + 2}`);

function pagePath(i: number): string {
  return i === 0 ? '/' : `/p${i}.html`;
}

function pageHtml(k: number, i: number, origins: readonly string[], pages: number, images: number): string {
  const links: string[] = [];
  for (let child = 4 * i + 1; child <= 4 * i + 4 && child < pages; child++) links.push(pagePath(child));
  links.push(`${origins[(k + 1) % origins.length]}${pagePath(i)}`);
  links.push(`${origins[(k + 3) % origins.length]}${pagePath(i)}#top`);
  links.push(`${origins[k]!.replace('http://', 'HTTP://')}/`);
  const image = `<img src="/img${i % images}.png">`;
  return `<!doctype html><title>${k}.${i}</title>${image}${links.map((href) => `<a href="${href}">x</a>`).join('')}`;
}

/** Start one server per host; resolves once all listen. */
export async function serveMultiHostSite(options: MultiHostSiteOptions): Promise<MultiHostSite> {
  const hosts = options.hosts ?? LOOPBACK_HOSTS;
  const pages = options.pagesPerHost;
  const images = options.imagesPerHost ?? 4;
  const latencyMs = options.latencyMs ?? 0;
  const requests: SiteRequest[] = [];
  const inFlight = new Map<string, number>();
  const maxInFlightByHost = new Map<string, number>();
  const origins: string[] = [];
  const servers: Server[] = [];
  for (const [k, host] of hosts.entries()) {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const path = (req.url ?? '/').split('?')[0]!;
      requests.push({ url: `${origins[k]}${path}`, host, path, userAgent: req.headers['user-agent'] ?? '', at: performance.now() });
      const now = (inFlight.get(host) ?? 0) + 1;
      inFlight.set(host, now);
      maxInFlightByHost.set(host, Math.max(maxInFlightByHost.get(host) ?? 0, now));
      let isCounted = true;
      const done = (): void => {
        if (!isCounted) return;
        isCounted = false;
        inFlight.set(host, inFlight.get(host)! - 1);
      };
      res.on('finish', done);
      res.on('close', done);
      setTimeout(() => answer(k, path, res), latencyMs);
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve());
    });
    origins.push(`http://${host}:${(server.address() as AddressInfo).port}`);
    servers.push(server);
  }

  function answer(k: number, path: string, res: ServerResponse): void {
    if (res.destroyed) return;
    const robots = options.robots?.[hosts[k]!];
    if (path === '/robots.txt' && robots !== undefined) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
      return;
    }
    const page = path === '/' ? 0 : /^\/p(\d+)\.html$/.exec(path)?.[1];
    if (page !== undefined && Number(page) < pages && path === pagePath(Number(page))) {
      res.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml(k, Number(page), origins, pages, images));
      return;
    }
    const image = /^\/img(\d+)\.png$/.exec(path)?.[1];
    if (image !== undefined && Number(image) < images) {
      res.writeHead(200, { 'content-type': 'image/png' }).end('png');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }

  const resources: string[] = [];
  for (const origin of origins) {
    for (let i = 0; i < pages; i++) resources.push(`${origin}${pagePath(i)}`);
    for (let i = 0; i < Math.min(images, pages); i++) resources.push(`${origin}/img${i}.png`);
  }
  return {
    origins,
    seeds: origins.map((origin) => `${origin}/`),
    resources,
    requests,
    maxInFlightByHost,
    counts: () => {
      const counts = new Map<string, number>();
      for (const r of requests) counts.set(r.url, (counts.get(r.url) ?? 0) + 1);
      return counts;
    },
    close: async () => {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}
