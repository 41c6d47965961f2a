import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  EXPECTED_REQUESTS,
  NEVER_REQUESTED,
  createDemoSite,
  requestKey,
  routeKey,
} from '../../../src/cli/demo/index.js';

const ORIGIN = 'http://127.0.0.1:54321';
const site = createDemoSite(ORIGIN);
const resources = [...site.resources.values()];

describe('createDemoSite', () => {
  it('is small, and every resource says which trap it holds', () => {
    expect(resources.length).toBeGreaterThanOrEqual(15);
    expect(resources.length).toBeLessThanOrEqual(36);
    for (const resource of resources) expect(resource.trap, resource.path).not.toBe('');
  });

  it('keys each resource by the path the server routes a request for it to', () => {
    for (const [path, resource] of site.resources) {
      expect(resource.path).toBe(path);
      expect(routeKey(path)).toBe(path);
    }
  });

  it('writes the origin into the pages, and no placeholder', () => {
    const texts = resources.map((resource) => (typeof resource.body === 'string' ? resource.body : Buffer.from(resource.body).toString('latin1')));
    const all = texts.join('\n');
    expect(all).toContain(`${ORIGIN}/guide/`);
    expect(all).not.toMatch(/PORT|\$\{|undefined/);
    expect(site.resources.get('/chain/start')?.headers.location).toBe(`${ORIGIN}/chain/moved/`);
  });

  it.each(['', 'http://127.0.0.1:1/', 'http://127.0.0.1:1/x', '127.0.0.1:1', 'https://example.com'])('refuses the origin %j', (origin) => {
    expect(() => createDemoSite(origin)).toThrow(expect.objectContaining({ code: 'ERR_API_BAD_OPTION' }));
  });

  it('serves a valid 1×1 PNG', () => {
    const png = site.resources.get('/img/dot.png')?.body;
    expect(png).toBeInstanceOf(Uint8Array);
    const bytes = Buffer.from(png as Uint8Array);
    expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    const chunks: string[] = [];
    for (let at = 8; at < bytes.length; ) {
      const length = bytes.readUInt32BE(at);
      const typeAndData = bytes.subarray(at + 4, at + 8 + length);
      expect(bytes.readUInt32BE(at + 8 + length), `CRC of chunk at ${at}`).toBe(crc32(typeAndData));
      chunks.push(typeAndData.subarray(0, 4).toString('latin1'));
      at += 12 + length;
    }
    expect(chunks).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1, 1]);
  });
});

describe('EXPECTED_REQUESTS and NEVER_REQUESTED', () => {
  const expected = new Set(EXPECTED_REQUESTS.map((request) => request.target));
  const never = new Set(NEVER_REQUESTED.map((request) => request.target));

  it('list each target once, in requestKey form, never in both lists, each with a reason', () => {
    expect(expected.size).toBe(EXPECTED_REQUESTS.length);
    expect(never.size).toBe(NEVER_REQUESTED.length);
    for (const request of [...EXPECTED_REQUESTS, ...NEVER_REQUESTED]) {
      expect(requestKey(request.target)).toBe(request.target);
      expect(request.why).not.toBe('');
      expect(expected.has(request.target) && never.has(request.target), request.target).toBe(false);
    }
  });

  it('account for every resource of the site', () => {
    for (const path of site.resources.keys()) expect(expected.has(path) || never.has(path), path).toBe(true);
  });

  it('expect only what the server has, but the broken link', () => {
    const unserved = [...expected].filter((target) => !site.resources.has(routeKey(target) ?? ''));
    // The broken links: a page, a srcset candidate, an external link (on localhost).
    expect(unserved).toEqual(['/img/dot-2x.png', '/gone.html', '/missing.html']);
  });

  it('name the served resources a correct crawl leaves alone', () => {
    expect([...never].filter((target) => site.resources.has(routeKey(target) ?? ''))).toEqual([
      '/private/secret.html',
      '/manual/core.html.en',
      '/manual/index.html.en',
      // Dot segments: the server removes them as Apache does; a correct crawler never sends them.
      '/./a-b.html',
    ]);
  });
});
