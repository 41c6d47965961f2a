// A generated site for the crawl benchmark, served from a child process on
// 127.0.0.1 so that its CPU is not the crawler's. Pages link to ~100 targets:
// navigation (the same 20 pages on every page), children (the tree that reaches
// every page), and repeats spelled at each rung of the ladder; a few directories
// redirect to their trailing-slash form. The server counts requests per path.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface SiteShape {
  readonly pages: number;
  readonly linksPerPage: number;
}

const NAV = 20;

function pagePath(n: number): string {
  return n === 0 ? '/' : `/s${n % 37}/p${n}.html`;
}

/** The HTML of page n, with ~linksPerPage links. */
export function pageHtml(n: number, shape: SiteShape, origin: string): string {
  const links: string[] = [];
  for (let k = 0; k < NAV; k++) links.push(pagePath(k));
  // The tree: pages 10n+1 … 10n+10 hang under page n.
  for (let c = 10 * n + 1; c <= 10 * n + 10 && c < shape.pages; c++) links.push(pagePath(c));
  let k = 0;
  while (links.length < shape.linksPerPage) {
    const target = (n * 31 + k * 17) % Math.min(shape.pages, 10 * n + 11);
    const path = pagePath(target);
    switch (k % 6) {
      case 0:
        links.push(`${path}#part${k}`); // fragment: string rung once stripped
        break;
      case 1:
        links.push(path.replace('/s', '/%73')); // %73 is "s": syntax rung
        break;
      case 2:
        links.push(origin.replace('http://', 'HTTP://') + path); // scheme case: syntax rung
        break;
      case 3:
        links.push(origin.replace('http://', '//') + path.replace('/p', '/./p')); // network-path, dot segment
        break;
      case 4:
        links.push(`/s${target % 37}`); // a directory without its slash: a redirect
        break;
      default:
        links.push(path);
    }
    k++;
  }
  return `<!doctype html><title>p${n}</title>${links.map((href) => `<a href="${href}">x</a>`).join('\n')}`;
}

/** Serve the site in this process; returns the origin and the request counts. */
export function serveSite(shape: SiteShape): Promise<{ origin: string; counts: Map<string, number>; close: () => Promise<void> }> {
  const counts = new Map<string, number>();
  const byPath = new Map<string, number>();
  for (let n = 0; n < shape.pages; n++) byPath.set(pagePath(n), n);
  let origin = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = decodeUnreserved((req.url ?? '/').split('?')[0]!);
    counts.set(path, (counts.get(path) ?? 0) + 1);
    if (path === '/robots.txt') {
      res.writeHead(404).end();
      return;
    }
    // Directories /sN redirect to /sN/ (trailing-slash redirects), which list a few pages.
    if (/^\/s\d+$/.test(path)) {
      res.writeHead(301, { location: `${path}/` }).end();
      return;
    }
    if (/^\/s\d+\/$/.test(path)) {
      const d = Number(path.slice(2, -1));
      const listed = [d, d + 37, d + 74].filter((x) => x < shape.pages).map((x) => `<a href="p${x}.html">p</a>`);
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html>${listed.join('')}`);
      return;
    }
    const n = byPath.get(path);
    if (n === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html>not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(n, shape, origin));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      resolve({
        origin,
        counts,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

// The server routes by path as a server would: %73 and "s" are one path.
function decodeUnreserved(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (triplet, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(c) ? c : triplet.toUpperCase();
  });
}

/** The paths a correct crawl requests: robots.txt, every page, every linked directory and its slash form. */
export function expectedPaths(shape: SiteShape): Set<string> {
  const paths = new Set(['/robots.txt']);
  for (let n = 0; n < shape.pages; n++) {
    paths.add(pagePath(n));
    for (const match of pageHtml(n, shape, 'http://h').matchAll(/href="(\/s\d+)"/g)) {
      paths.add(match[1]!);
      paths.add(`${match[1]!}/`);
    }
  }
  return paths;
}

// Run as a child process: serve, say the origin, and on request send the counts.
if (process.argv[2] === '--serve') {
  const shape: SiteShape = { pages: Number(process.argv[3]), linksPerPage: Number(process.argv[4]) };
  const site = await serveSite(shape);
  process.send?.({ origin: site.origin });
  process.on('message', (message) => {
    if (message === 'counts') process.send?.({ counts: [...site.counts] }, () => void site.close().then(() => process.exit(0)));
  });
  // A parent that ended without asking (a failed run) takes the site down with it.
  process.on('disconnect', () => process.exit(0));
}
