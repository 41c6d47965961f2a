// Loopback sites whose pages many workers meet at the same moment, for the tests of
// crawls shared on PostgreSQL against one SQLite process (test/crawl/pg-workers.shared-targets.test.ts).
//
// - serveSpellingsSite: pages on several hosts that link to one another only in
//   spellings other than the URL's key (scheme and hex case, percent-encoded
//   unreserved characters, an empty path), the same spellings from many pages. Its
//   ladder funnel is the same in every order one writer could meet the links in: the
//   first link to a page is `new`, the first of each other spelling `syntax` (or, for
//   the one class of a root's scheme-rung spellings, `scheme` once), and the rest `string`.
// - serveRedirectSite: slow target pages on two hosts, linked from the root of a
//   third, whose redirectors (found a little later, on hub pages) all lead to them:
//   when a redirect is met, its target is being requested by some worker, or done.
//   Without the root's links, redirects are the only way to the targets.
// Every server counts the requests it answers by URL.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingSite {
  /** `http://127.0.0.N:port`, one per host. */
  readonly origins: readonly string[];
  readonly seeds: readonly string[];
  /** Requests by URL (robots.txt included). */
  counts(): Map<string, number>;
  /** Requests of `url` by User-Agent (each worker sends its own). */
  countsByAgent(url: string): Map<string, number>;
  close(): Promise<void>;
}

type Answer = (res: ServerResponse) => void;

async function serveHosts(hosts: readonly string[], route: (k: number, path: string, origins: readonly string[]) => { delayMs: number; answer: Answer }): Promise<CountingSite & { servers: Server[] }> {
  const requested: { url: string; userAgent: string }[] = [];
  const origins: string[] = [];
  const servers: Server[] = [];
  for (const [k, host] of hosts.entries()) {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const path = (req.url ?? '/').split('?')[0]!;
      requested.push({ url: `${origins[k]}${path}`, userAgent: req.headers['user-agent'] ?? '' });
      const { delayMs, answer } = route(k, path, origins);
      setTimeout(() => {
        if (!res.destroyed) answer(res);
      }, delayMs);
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve());
    });
    origins.push(`http://${host}:${(server.address() as AddressInfo).port}`);
    servers.push(server);
  }
  return {
    origins,
    seeds: [],
    servers,
    counts: () => {
      const counts = new Map<string, number>();
      for (const { url } of requested) counts.set(url, (counts.get(url) ?? 0) + 1);
      return counts;
    },
    countsByAgent: (url) => {
      const counts = new Map<string, number>();
      for (const r of requested) if (r.url === url) counts.set(r.userAgent, (counts.get(r.userAgent) ?? 0) + 1);
      return counts;
    },
    close: async () => {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

const html = (body: string): Answer => (res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html>${body}`);
const notFound: Answer = (res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
const links = (hrefs: readonly string[]): string => hrefs.map((href) => `<a href="${href}">x</a>`).join('');

/** Spellings of a page `/p<i>.html` that are not its key: each meets it at the syntax rung (RFC 3986 §6.2.2). */
const PAGE_SPELLINGS: readonly ((origin: string, i: number) => string)[] = [
  (origin, i) => `${origin.replace('http://', 'HTTP://')}/p${i}.html`,
  (origin, i) => `${origin}/%70${i}.html`,
  (origin, i) => `${origin}/p${i}%2Ehtml`,
  (origin, i) => `${origin.replace('http://', 'hTtP://')}/p${i}.%68tml`,
  (origin, i) => `${origin}/%70${i}%2e%68tml`,
];

/**
 * Spellings of a root that are not its key: two at the syntax rung, and three whose
 * syntax form is `http://host:port` (an empty path, §6.2.3), of which the first met
 * meets the root at the scheme rung and the others at the syntax rung.
 */
const ROOT_SPELLINGS: readonly ((origin: string) => string)[] = [
  (origin) => `${origin.replace('http://', 'HTTP://')}/`,
  (origin) => origin,
  (origin) => origin.replace('http://', 'HTTP://'),
  (origin) => `${origin.replace('http://', 'hTTP://')}/`,
  (origin) => origin.replace('http://', 'Http://'),
];

export interface SpellingsSiteOptions {
  readonly hosts: readonly string[];
  /** Pages per host, the root included. */
  readonly pagesPerHost: number;
  /** Links on each page. @default 12 */
  readonly linksPerPage?: number;
  /** Time before each answer, ms. @default 5 */
  readonly latencyMs?: number;
}

function spelled(origin: string, i: number, variant: number): string {
  return i === 0 ? ROOT_SPELLINGS[variant % ROOT_SPELLINGS.length]!(origin) : PAGE_SPELLINGS[variant % PAGE_SPELLINGS.length]!(origin, i);
}

/** Pages that link to one another only in spellings other than their keys; the seeds are the roots' keys. */
export async function serveSpellingsSite(options: SpellingsSiteOptions): Promise<CountingSite> {
  const pages = options.pagesPerHost;
  const hostCount = options.hosts.length;
  const perPage = options.linksPerPage ?? 12;
  const latencyMs = options.latencyMs ?? 5;
  const site = await serveHosts(options.hosts, (k, path, origins) => {
    const i = path === '/' ? 0 : Number(/^\/p(\d+)\.html$/.exec(path)?.[1] ?? NaN);
    if (!(i >= 0 && i < pages)) return { delayMs: 0, answer: notFound };
    const hrefs: string[] = [];
    // Its two children (a tree reaching every page), then pages of every host, in few spellings each.
    for (const child of [2 * i + 1, 2 * i + 2]) if (child < pages) hrefs.push(spelled(origins[k]!, child, i + child));
    for (let j = 0; j < perPage; j++) {
      const target = (i + 3 * j + 1) % pages;
      hrefs.push(spelled(origins[(k + j) % hostCount]!, target, j % 3));
    }
    return { delayMs: latencyMs, answer: html(`<title>${k}.${i}</title>${links(hrefs)}`) };
  });
  return { ...site, seeds: site.origins.map((origin) => `${origin}/`) };
}

export interface RedirectSiteOptions {
  /** Three hosts: the first serves the root, hubs and redirectors; the other two the targets. */
  readonly hosts: readonly [string, string, string];
  /** Targets per target host. @default 4 */
  readonly targetsPerHost?: number;
  /** Redirectors per hub, each to one of the targets. @default 12 */
  readonly redirectorsPerHub?: number;
  /** Hub pages. @default 4 */
  readonly hubs?: number;
  /** How long a target takes to answer, ms. @default 1500 */
  readonly targetMs?: number;
  /** How long a hub takes to answer, ms: its redirectors are met only after the targets are claimed. @default 1000 */
  readonly hubMs?: number;
  /** Whether the root links to the targets: if not, a redirect is the only way to them. @default true */
  readonly isTargetLinked?: boolean;
}

export interface RedirectSite extends CountingSite {
  /** The target pages (every redirect leads to one). */
  readonly targets: readonly string[];
  /** The redirecting URLs. */
  readonly redirectors: readonly string[];
}

/** Slow target pages linked from the root, and redirectors to them found on hubs; the seeds are the roots (the crawl's scope). */
export async function serveRedirectSite(options: RedirectSiteOptions): Promise<RedirectSite> {
  const perHost = options.targetsPerHost ?? 4;
  const perHub = options.redirectorsPerHub ?? 12;
  const hubs = options.hubs ?? 4;
  const targetMs = options.targetMs ?? 1500;
  const hubMs = options.hubMs ?? 1000;
  // Redirectors in runs of 4 to one target (as many as are in flight on a host at once), the targets in turn.
  const targetOf = (origins: readonly string[], r: number): string => {
    const target = Math.floor(r / 4) % (2 * perHost);
    return `${origins[1 + (target % 2)]}/t${Math.floor(target / 2)}`;
  };
  const site = await serveHosts(options.hosts, (k, path, origins) => {
    if (k === 0 && path === '/') {
      const targets = options.isTargetLinked === false ? [] : Array.from({ length: 2 * perHost }, (_, t) => targetOf(origins, 4 * t));
      const hubLinks = Array.from({ length: hubs }, (_, h) => `/hub${h}`);
      return { delayMs: 0, answer: html(links([...targets, ...hubLinks])) };
    }
    const hub = k === 0 ? /^\/hub(\d+)$/.exec(path)?.[1] : undefined;
    if (hub !== undefined && Number(hub) < hubs) {
      return { delayMs: hubMs, answer: html(links(Array.from({ length: perHub }, (_, r) => `/r${Number(hub) * perHub + r}`))) };
    }
    const redirector = k === 0 ? /^\/r(\d+)$/.exec(path)?.[1] : undefined;
    if (redirector !== undefined && Number(redirector) < hubs * perHub) {
      return { delayMs: 0, answer: (res) => res.writeHead(302, { location: targetOf(origins, Number(redirector)) }).end() };
    }
    if (k > 0 && path === '/') return { delayMs: 0, answer: html('<title>root</title>') };
    if (k > 0 && /^\/t\d+$/.test(path) && Number(path.slice(2)) < perHost) return { delayMs: targetMs, answer: html('<title>target</title>') };
    return { delayMs: 0, answer: notFound };
  });
  const targets = Array.from({ length: 2 * perHost }, (_, t) => targetOf(site.origins, 4 * t));
  const redirectors = Array.from({ length: hubs * perHub }, (_, r) => `${site.origins[0]}/r${r}`);
  return { ...site, seeds: site.origins.map((origin) => `${origin}/`), targets, redirectors };
}
