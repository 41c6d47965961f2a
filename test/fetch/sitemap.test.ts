// src/fetch/sitemap.ts: sitemaps.org protocol 0.9 sitemaps and sitemap indexes, plain
// and gzipped, and the Sitemap: lines of robots.txt. Pure parsing, no network.

import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SITEMAP_LIMITS, SITEMAP_MAX_DEPTH, SITEMAP_NAMESPACE, parseSitemap, sitemapsFromRobots } from '../../src/fetch/index.js';

const NS = SITEMAP_NAMESPACE;
const urlset = (body: string, attributes = `xmlns="${NS}"`): string => `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${attributes}>\n${body}</urlset>\n`;
const url = (loc: string, extra = ''): string => `  <url><loc>${loc}</loc>${extra}</url>\n`;
const locs = async (input: string | Uint8Array, options?: Parameters<typeof parseSitemap>[1]): Promise<string[]> =>
  (await parseSitemap(input, options)).entries.map((e) => e.loc);
const codes = async (input: string | Uint8Array, options?: Parameters<typeof parseSitemap>[1]): Promise<string[]> =>
  (await parseSitemap(input, options)).findings.map((f) => f.code);

describe('parseSitemap: <urlset>', () => {
  it('reads each <url>: <loc> entity-decoded and trimmed, <lastmod> kept, line of the <loc>', async () => {
    const xml = urlset(
      url('http://example.com/a?x=1&amp;y=2', '<lastmod>2024-01-02</lastmod><changefreq>daily</changefreq><priority>0.5</priority>') +
        '  <url>\n    <loc>\n      http://example.com/b&#x20AC;\n    </loc>\n  </url>\n' +
        url('<![CDATA[http://example.com/c?a=1&b=2]]>', '<lastmod> 2024-05-06T07:08:09+00:00 </lastmod>'),
    );
    const parsed = await parseSitemap(xml);
    expect(parsed).toEqual({
      kind: 'urlset',
      isGzip: false,
      findings: [],
      entries: [
        { loc: 'http://example.com/a?x=1&y=2', lastmod: '2024-01-02', line: 3 },
        { loc: 'http://example.com/b€', lastmod: undefined, line: 5 },
        { loc: 'http://example.com/c?a=1&b=2', lastmod: '2024-05-06T07:08:09+00:00', line: 9 },
      ],
    });
  });

  it('takes only the protocol namespace: extension elements are not entries or locs', async () => {
    const xml = urlset(
      url('http://example.com/page', '<image:image><image:loc>http://example.com/img.png</image:loc></image:image><xhtml:link rel="alternate" href="http://example.com/de"/>') +
        '<image:loc>http://example.com/stray</image:loc>\n' +
        '<other:url><loc>http://example.com/not-an-entry</loc></other:url>\n',
      `xmlns="${NS}" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:other="urn:x"`,
    );
    expect(await locs(xml)).toEqual(['http://example.com/page']);
    // A prefixed protocol namespace is the same namespace.
    expect(await locs(`<s:urlset xmlns:s="${NS}"><s:url><s:loc>http://e/x</s:loc></s:url></s:urlset>`)).toEqual(['http://e/x']);
  });

  it('keeps the first of repeated <loc> and <lastmod>', async () => {
    expect((await parseSitemap(urlset(url('http://e/1', '<loc>http://e/2</loc><lastmod>a</lastmod><lastmod>b</lastmod>')))).entries).toEqual([
      { loc: 'http://e/1', lastmod: 'a', line: 3 },
    ]);
  });

  it('SITEMAP_LOC_MISSING for an entry without <loc> or with an empty one', async () => {
    const parsed = await parseSitemap(urlset('  <url><lastmod>2024</lastmod></url>\n' + url('  ') + url('http://e/ok')));
    expect(parsed.entries.map((e) => e.loc)).toEqual(['http://e/ok']);
    expect(parsed.findings).toEqual([
      { code: 'SITEMAP_LOC_MISSING', line: 3 },
      { code: 'SITEMAP_LOC_MISSING', line: 4 },
    ]);
  });

  it('SITEMAP_LOC_NOT_ABSOLUTE for a relative <loc> (RFC 3986 §4.3), which is skipped', async () => {
    const parsed = await parseSitemap(urlset(url('/relative') + url('//host/x') + url('page.html') + url('HTTPS://e/Upper') + url('urn:isbn:1')));
    expect(parsed.entries.map((e) => e.loc)).toEqual(['HTTPS://e/Upper', 'urn:isbn:1']);
    expect(parsed.findings.map((f) => [f.code, f.detail, f.line])).toEqual([
      ['SITEMAP_LOC_NOT_ABSOLUTE', '/relative', 3],
      ['SITEMAP_LOC_NOT_ABSOLUTE', '//host/x', 4],
      ['SITEMAP_LOC_NOT_ABSOLUTE', 'page.html', 5],
    ]);
  });
});

describe('parseSitemap: <sitemapindex>', () => {
  it('reads each <sitemap> with its <loc> and <lastmod>', async () => {
    const xml = `<sitemapindex xmlns="${NS}">\n<sitemap><loc>http://e/s1.xml.gz</loc><lastmod>2024-01-01</lastmod></sitemap>\n<sitemap><loc>http://e/s2.xml</loc></sitemap>\n<url><loc>http://e/not-in-an-index</loc></url>\n</sitemapindex>`;
    expect(await parseSitemap(xml)).toEqual({
      kind: 'sitemapindex',
      isGzip: false,
      findings: [],
      entries: [
        { loc: 'http://e/s1.xml.gz', lastmod: '2024-01-01', line: 2 },
        { loc: 'http://e/s2.xml', lastmod: undefined, line: 3 },
      ],
    });
  });
});

describe('parseSitemap: what is wrong', () => {
  it('SITEMAP_ROOT_INVALID: another root, no namespace, another namespace (strict), and nothing is read', async () => {
    for (const [xml, detail] of [
      [`<urlset><url><loc>http://e/</loc></url></urlset>`, '<urlset> in no namespace'],
      [`<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>http://e/</loc></url></urlset>`, '<urlset> in http://www.google.com/schemas/sitemap/0.84'],
      [`<html xmlns="${NS}"><url><loc>http://e/</loc></url></html>`, `<html> in ${NS}`],
      ['<rss version="2.0"><channel><link>http://e/</link></channel></rss>', '<rss> in no namespace'],
    ] as const) {
      const parsed = await parseSitemap(xml);
      expect(parsed.kind, xml).toBeUndefined();
      expect(parsed.entries).toEqual([]);
      expect(parsed.findings).toEqual([{ code: 'SITEMAP_ROOT_INVALID', line: 1, detail }]);
    }
  });

  it('SITEMAP_XML_INVALID with line and column: the entries before the error are kept', async () => {
    const xml = urlset(url('http://e/1') + '  <url><loc>http://e/2</lox></url>\n' + url('http://e/4'));
    const parsed = await parseSitemap(xml);
    expect(parsed.entries.map((e) => e.loc)).toEqual(['http://e/1']);
    expect(parsed.findings).toHaveLength(1);
    expect(parsed.findings[0]).toMatchObject({ code: 'SITEMAP_XML_INVALID', line: 4 });
    expect(parsed.findings[0]?.column).toBe('  <url><loc>http://e/2</lox>'.length + 1);
    expect(parsed.findings[0]?.detail).toBe('unexpected close tag.');
  });

  it('SITEMAP_XML_INVALID for an unclosed document, an empty one, HTML, and a DOCTYPE entity (never expanded)', async () => {
    expect(await codes(`<urlset xmlns="${NS}"><url><loc>http://e/1</loc></url>`)).toEqual(['SITEMAP_XML_INVALID']);
    expect(await codes('')).toEqual(['SITEMAP_XML_INVALID']);
    expect(await codes('<!doctype html><html><body><p>Not found<br></body></html>')).toEqual(['SITEMAP_XML_INVALID']);
    const billion = `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<urlset xmlns="${NS}"><url><loc>http://e/&b;</loc></url></urlset>`;
    const parsed = await parseSitemap(billion);
    expect(parsed.entries).toEqual([]);
    expect(parsed.findings.map((f) => f.code)).toEqual(['SITEMAP_XML_INVALID']);
  });

  it('SITEMAP_TOO_MANY_URLS past maxEntries (50,000 by default): the rest is not read', async () => {
    expect(SITEMAP_LIMITS.maxEntries).toBe(50_000);
    const xml = urlset(Array.from({ length: 5 }, (_, i) => url(`http://e/${i}`)).join(''));
    const parsed = await parseSitemap(xml, { maxEntries: 3 });
    expect(parsed.entries.map((e) => e.loc)).toEqual(['http://e/0', 'http://e/1', 'http://e/2']);
    expect(parsed.findings).toEqual([{ code: 'SITEMAP_TOO_MANY_URLS', line: 6 }]);
  });

  it('the protocol limit of 50,000 entries holds on a real-size file', async () => {
    const xml = urlset(Array.from({ length: 50_001 }, (_, i) => url(`http://e/${i}`)).join(''));
    const parsed = await parseSitemap(xml);
    expect(parsed.entries).toHaveLength(50_000);
    expect(parsed.findings.map((f) => f.code)).toEqual(['SITEMAP_TOO_MANY_URLS']);
  });

  it('SITEMAP_TOO_LARGE past maxBytes (50 MiB by default): read up to the limit, plain or gzipped', async () => {
    expect(SITEMAP_LIMITS.maxBytes).toBe(50 * 1024 * 1024);
    const xml = urlset(Array.from({ length: 100 }, (_, i) => url(`http://e/${i}`)).join(''));
    const cut = xml.indexOf('http://e/50');
    for (const input of [xml, new TextEncoder().encode(xml), gzipSync(xml)]) {
      const parsed = await parseSitemap(input, { maxBytes: cut });
      expect(parsed.entries).toHaveLength(50); // http://e/0 … http://e/49, complete before the cut
      expect(parsed.findings.map((f) => f.code)).toEqual(['SITEMAP_TOO_LARGE', 'SITEMAP_XML_INVALID']);
    }
  });

  it('validates its options', async () => {
    await expect(parseSitemap('', { maxEntries: 0 })).rejects.toThrow('Expected `maxEntries` to be an integer >= 1, got `0` (number)');
    await expect(parseSitemap('', { maxBytes: 1.5 })).rejects.toThrow(/maxBytes/);
  });
});

describe('parseSitemap: hostile nesting and long files', () => {
  // Each element's namespace is looked up in a map of the prefixes in scope, not by
  // walking the open elements: 40,000 nested elements (120 KB) took 97 s that way.
  it('nested elements cost linear time (depth not capped here): 120 KB of nesting in well under a second per 100 KB', async () => {
    const n = 40_000;
    const xml = `<urlset xmlns="${NS}"><url><loc>http://e/1</loc>` + '<a>'.repeat(n) + '</a>'.repeat(n) + '</url></urlset>';
    const started = performance.now();
    const parsed = await parseSitemap(xml, { maxDepth: 1_000_000 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(parsed).toMatchObject({ kind: 'urlset', findings: [] });
    expect(parsed.entries.map((e) => e.loc)).toEqual(['http://e/1']);
  });

  it('SITEMAP_TOO_DEEP past maxDepth (32 by default): the entries before are kept, the rest is not read', async () => {
    expect(SITEMAP_MAX_DEPTH).toBe(32);
    const deep = (levels: number): string => '<x:a>'.repeat(levels);
    const xml = urlset(url('http://e/1') + `  <url><loc>http://e/2</loc>\n${deep(31)}`, `xmlns="${NS}" xmlns:x="urn:x"`);
    const parsed = await parseSitemap(xml);
    expect(parsed.entries.map((e) => e.loc)).toEqual(['http://e/1']);
    expect(parsed.findings).toEqual([{ code: 'SITEMAP_TOO_DEEP', line: 5, detail: 'more than 32 nested elements' }]);
    // 32 levels are read: urlset, url and 30 more.
    const ok = urlset(url('http://e/1', deep(30) + '</x:a>'.repeat(30)), `xmlns="${NS}" xmlns:x="urn:x"`);
    expect(await parseSitemap(ok)).toMatchObject({ findings: [], entries: [{ loc: 'http://e/1' }] });
    // 10 MiB of nesting is cut at once.
    const started = performance.now();
    const bomb = await parseSitemap(`<urlset xmlns="${NS}"><url>` + '<a>'.repeat(3_500_000));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(bomb.findings.map((f) => f.code)).toEqual(['SITEMAP_TOO_DEEP']);
    await expect(parseSitemap('', { maxDepth: 0 })).rejects.toThrow('Expected `maxDepth` to be an integer >= 1, got `0` (number)');
  });

  it('namespaces are scoped to their element: a prefix bound inside an entry ends with it, an unbound one is an error', async () => {
    const inner = `<urlset xmlns="${NS}"><url xmlns:s="${NS}"><s:loc>http://e/1</s:loc></url><url><s:loc>http://e/2</s:loc></url></urlset>`;
    const parsed = await parseSitemap(inner);
    expect(parsed.entries.map((e) => e.loc)).toEqual(['http://e/1']);
    expect(parsed.findings).toMatchObject([{ code: 'SITEMAP_XML_INVALID', detail: 'unbound namespace prefix: "s".' }]);
    // A default namespace undeclared inside: its <loc> is in no namespace.
    expect(await locs(`<urlset xmlns="${NS}"><url><loc xmlns="">http://e/3</loc></url><url><loc>http://e/4</loc></url></urlset>`)).toEqual(['http://e/4']);
  });

  it('yields to the event loop while it reads, and stops when its signal aborts', async () => {
    const xml = urlset(Array.from({ length: 50_000 }, (_, i) => url(`http://e/${i}`)).join(''));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      expect((await parseSitemap(xml)).entries).toHaveLength(50_000);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
    for (const input of [xml, new TextEncoder().encode(xml), gzipSync(xml)]) {
      const aborted = new AbortController();
      aborted.abort();
      await expect(parseSitemap(input, { signal: aborted.signal })).rejects.toMatchObject({ name: 'AbortError' });
    }
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 0);
    await expect(parseSitemap(xml, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('parseSitemap: gzip', () => {
  const xml = urlset(url('http://e/gz'));

  it('is detected by its magic bytes, whatever the name, and decompressed (every member)', async () => {
    const parsed = await parseSitemap(gzipSync(xml));
    expect(parsed).toMatchObject({ kind: 'urlset', isGzip: true, findings: [] });
    expect(parsed.entries.map((e) => e.loc)).toEqual(['http://e/gz']);
    const half = Math.floor(xml.length / 2);
    const twoMembers = Buffer.concat([gzipSync(xml.slice(0, half)), gzipSync(xml.slice(half))]);
    expect(await locs(twoMembers)).toEqual(['http://e/gz']);
  });

  it('SITEMAP_GZIP_INVALID for a corrupt or truncated gzip: nothing is read', async () => {
    const gz = gzipSync(xml);
    const corrupt = Buffer.from(gz);
    corrupt[12] = corrupt[12]! ^ 0xff;
    for (const input of [corrupt, gz.subarray(0, gz.length - 6), Buffer.from([0x1f, 0x8b])]) {
      expect(await parseSitemap(input)).toEqual({ kind: undefined, entries: [], findings: [{ code: 'SITEMAP_GZIP_INVALID' }], isGzip: true });
    }
  });

  it('caps a gzip bomb at maxBytes of output', async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(100_000);
    const parsed = await parseSitemap(bomb, { maxBytes: 1024 * 1024 });
    expect(parsed.findings.map((f) => f.code)).toEqual(['SITEMAP_TOO_LARGE', 'SITEMAP_XML_INVALID']);
  });

  it('reads UTF-8 split across gzip chunks', async () => {
    const long = urlset(Array.from({ length: 3000 }, (_, i) => url(`http://e/é${i}€`)).join(''));
    expect(await locs(gzipSync(long))).toHaveLength(3000);
    expect((await locs(gzipSync(long)))[2999]).toBe('http://e/é2999€');
  });
});

describe('parseSitemap: never throws', () => {
  it('on any text or bytes (fast-check)', async () => {
    const pieces = fc.constantFrom('<', '>', '/', '<urlset', ` xmlns="${NS}"`, '<url>', '</url>', '<loc>', '</loc>', 'http://e/', '&amp;', '&', '<![CDATA[', ']]>', '<!DOCTYPE x>', '<?xml version="1.0"?>', 'é', ' ', '\n', '</urlset>');
    await fc.assert(
      fc.asyncProperty(fc.array(pieces, { maxLength: 30 }).map((p) => p.join('')), fc.boolean(), async (text, asBytes) => {
        const parsed = await parseSitemap(asBytes ? new TextEncoder().encode(text) : text);
        for (const entry of parsed.entries) expect(entry.loc).toMatch(/^[A-Za-z][A-Za-z0-9+.-]*:/);
      }),
      { numRuns: 300 },
    );
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
        await parseSitemap(bytes);
        await parseSitemap(Uint8Array.from([0x1f, 0x8b, ...bytes]));
      }),
      { numRuns: 200 },
    );
  });
});

describe('sitemapsFromRobots', () => {
  it('reads every Sitemap: line, any group, any case, each URL once', () => {
    const robots = 'User-agent: *\nDisallow: /private\nSitemap: https://e.com/sitemap.xml\n\nUser-agent: other\nsitemap:https://e.com/news.xml.gz  \nSITEMAP: https://e.com/sitemap.xml\n# Sitemap: https://e.com/commented.xml\n';
    expect(sitemapsFromRobots(robots, 'https://e.com/robots.txt')).toEqual({
      urls: ['https://e.com/sitemap.xml', 'https://e.com/news.xml.gz'],
      findings: [],
    });
  });

  it('SITEMAP_LOC_NOT_ABSOLUTE for a relative Sitemap: line, which is skipped', () => {
    expect(sitemapsFromRobots('Sitemap: /sitemap.xml\nSitemap: http://e/ok.xml', 'http://e/robots.txt')).toEqual({
      urls: ['http://e/ok.xml'],
      findings: [{ code: 'SITEMAP_LOC_NOT_ABSOLUTE', detail: '/sitemap.xml' }],
    });
  });

  it('never throws: empty, binary, or a bad robots URL', () => {
    expect(sitemapsFromRobots('', 'http://e/robots.txt')).toEqual({ urls: [], findings: [] });
    expect(() => sitemapsFromRobots('\u0000\uFFFF\nSitemap:', 'not a url')).not.toThrow();
  });
});
