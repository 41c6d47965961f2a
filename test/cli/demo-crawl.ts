// Helpers for the tests that crawl the demo server.

import type { DemoServer } from '../../src/cli/demo/index.js';

/** robots.txt: read once per crawl process (RFC 9309 §2.4 cache), not once per index. */
export const ROBOTS = '/robots.txt';

/** Resolve once the server has received `count` requests in all; reject after `timeoutMs`. */
export async function untilRequests(server: DemoServer, count: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (server.requests.length < count) {
    if (Date.now() > deadline) throw new Error(`the demo server got ${server.requests.length} requests, not ${count}, within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
