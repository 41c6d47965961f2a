// A page read by a parse worker gives the crawl what reading it in its own thread
// gives: the same admit entries in the same order, the same page facts, canonical
// index, href findings and alternates, and the same records handed to the crawl's
// decisions (their parsed R and T too, computed on demand). Checked through the
// worker's codec (readPage → structured clone → unpackReading) on the HTML
// fixtures, on pages of real documentation trees where installed, and on generated
// documents of hostile hrefs.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BaseMode, ResolvedReference } from '../../src/base/index.js';
import { bodyDigest } from '../../src/crawl/fetch-record.js';
import { LinkRoles, type LinkUse } from '../../src/crawl/link-role.js';
import { PageLinkReader, extractPageReferences, type PageContext } from '../../src/crawl/page-links.js';
import { readPage, readRequestOf, unpackReading, type PackedReading } from '../../src/crawl/page-reading.js';
import { ScopeTest } from '../../src/crawl/scope.js';
import type { FetchedResponse } from '../../src/fetch/index.js';
import { DEFAULT_FOLLOW, type LinkKind } from '../../src/html/index.js';
import { compose, referenceParts } from '../support/arbitraries.js';
import { ensureDebianTools, skipNotice, type DebianTool } from '../support/system-tools.js';

const FIXTURES = new URL('../fixtures/html/', import.meta.url);
/** Python's documentation as Debian packages it: python3-doc brings the release's version (its HTML in /usr/share/doc/python3.N/html). */
const PYTHON_DOCS: DebianTool = { path: '/usr/share/doc/python3-doc', debianPackage: 'python3-doc' };

function responseOf(url: string, body: string, headers: Record<string, string> = {}, contentType = 'text/html'): FetchedResponse {
  return {
    requestUrl: url,
    finalUrl: url,
    hops: [],
    status: 200,
    headers,
    contentType,
    charset: 'utf-8',
    body,
    bytes: body.length,
    startedAt: 0,
    durationMs: 1,
    errorCode: undefined,
  };
}

interface Setup {
  readonly baseMode?: BaseMode;
  readonly follow?: readonly LinkKind[];
  readonly maxLinks?: number;
}

/** The crawl's context for a page, recording what each decision was asked. */
function contextOf(url: string, setup: Setup, asked: unknown[]): PageContext {
  const scope = new ScopeTest({ seeds: ['http://example.com/docs/'], scope: 'prefix', include: [], exclude: [/\.pdf$/], allowPrivate: false });
  const roles = new LinkRoles({ scope, maxDepth: 3, checkResources: true, checkExternal: true });
  return {
    id: 7,
    url,
    depth: 2,
    baseMode: setup.baseMode ?? 'rfc3986',
    follow: setup.follow ?? DEFAULT_FOLLOW,
    maxLinks: setup.maxLinks ?? Infinity,
    mayFollow: () => true,
    decide: (link: ResolvedReference, use: LinkUse) => {
      asked.push({ ...recordOf(link), use });
      return roles.decide(link, use, 2);
    },
  };
}

/** Every field of a resolved reference, read one by one (a worker's are partly getters). */
function recordOf(link: ResolvedReference): Record<string, unknown> {
  return {
    reference: link.reference,
    target: link.target,
    targetText: link.targetText,
    key: link.key,
    forms: link.forms,
    fragment: link.fragment,
    isSameDocument: link.isSameDocument,
    findings: link.findings,
    alternateTarget: link.alternateTarget,
  };
}

async function outcomeOf(reader: PageLinkReader, asked: unknown[]) {
  const entries = [...reader.entries()];
  return { facts: reader.facts(), entries, canonicalIndex: reader.canonicalIndex, hrefFindings: reader.hrefFindings, alternates: reader.alternates, asked };
}

async function inThread(response: FetchedResponse, setup: Setup) {
  const asked: unknown[] = [];
  const context = contextOf(response.finalUrl, setup, asked);
  return outcomeOf(new PageLinkReader(response, context, await extractPageReferences(response, context, () => Promise.resolve())), asked);
}

async function throughWorkerCodec(response: FetchedResponse, setup: Setup) {
  const asked: unknown[] = [];
  const context = contextOf(response.finalUrl, setup, asked);
  const request = readRequestOf(deserialize(serialize(response)) as FetchedResponse, {
    pageUrl: response.finalUrl,
    baseMode: context.baseMode,
    follow: context.follow,
    maxLinks: context.maxLinks ?? Infinity,
  });
  const sent = await readPage(deserialize(serialize(request)) as typeof request);
  // The worker hashes the body too: the digest the fetch row records.
  expect(sent.digest).toBe(bodyDigest(response));
  // As postMessage carries it: structured clone.
  const packed = deserialize(serialize(sent)) as PackedReading;
  let reader: PageLinkReader | undefined;
  const reading = unpackReading(packed, response.finalUrl, (isHeader) => reader!.resolverOf(isHeader));
  reader = new PageLinkReader(response, context, reading.extracted, reading.reads);
  return outcomeOf(reader, asked);
}

async function expectSame(response: FetchedResponse, setup: Setup = {}): Promise<void> {
  expect(await throughWorkerCodec(response, setup)).toEqual(await inThread(response, setup));
}

// Real documentation trees: Python's from Debian (installed with apt-get where
// missing and we are root), and others where installed.
const docsMissing = await ensureDebianTools(PYTHON_DOCS);
const docRoot = '/usr/share/doc';
const trees = [
  ...readdirSync(docRoot)
    .filter((name) => /^python3\.\d+$/.test(name))
    .map((name) => path.join(docRoot, name, 'html')),
  path.join(docRoot, 'gcc-12-base/libstdc++'),
  path.join(docRoot, 'postgresql-doc-15/html'),
].filter((dir) => {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
});
if (trees.length === 0) skipNotice('the parse-worker check on real documentation trees', docsMissing ?? 'none is installed');

describe('a page read through the parse worker codec reads as in the crawl thread', () => {
  it('the HTML fixtures, in both base modes, with every kind followed, and cut by maxLinks', async () => {
    for (const name of readdirSync(FIXTURES)) {
      const body = readFileSync(new URL(name, FIXTURES), 'utf8');
      const url = `http://example.com/docs/dir/${name}`;
      for (const setup of [{}, { baseMode: 'browser' as const }, { follow: ['navigation', 'resource', 'link', 'form', 'cite'] as LinkKind[] }, { maxLinks: 3 }]) {
        await expectSame(responseOf(url, body), setup);
        await expectSame(responseOf(url, body, { 'content-location': '../other/x.html', link: '</docs/c.html>; rel="canonical", <http://other.example/>; rel=preconnect' }), setup);
      }
    }
  });

  it('a <base href>, a Content-Location, a Link header canonical, hreflang and same-document references', async () => {
    const body = [
      '<html><head><base href="../sub/"><link rel="canonical" href="/docs/canon.html">',
      '<link rel="alternate" hreflang=" DE " href="de/x.html"></head><body>',
      '<a href="#top">t</a> <a href="">self</a> <a href="./">dir</a> <a name="n" id="top" href="x.pdf">pdf</a>',
      '<a href="http://example.com/docs/page.html#frag">abs</a> <a href="HTTP://EXAMPLE.com:80/docs/%7Euser/">case</a>',
      '<img srcset="a.png 1x, b.png 2x"> <a href="?q=1">q</a> <a href="//other.example/p?x#y">other</a>',
      '</body></html>',
    ].join('\n');
    const headers = { 'content-location': 'page.en.html', link: '</docs/canonical-header.html>; rel="canonical"' };
    for (const baseMode of ['rfc3986', 'browser'] as const) await expectSame(responseOf('http://example.com/docs/page.html', body, headers), { baseMode });
    await expectSame(responseOf('http://example.com/docs/page.html', '<a href="x.html">x</a>', { link: '<y.html>; rel="canonical"' }));
  });

  it('a body that is not HTML: nothing extracted, the Link header read all the same', async () => {
    await expectSame(responseOf('http://example.com/docs/a.txt', '<a href="x">x</a>', { link: '<y.html>; rel="next"' }, 'text/plain'));
  });

  it('generated documents of hostile hrefs (whitespace, backslashes, bad %, non-ASCII, other schemes, dot segments)', async () => {
    const hostile = fc.constantFrom(
      '',
      '#',
      ' \t./a b\n',
      '..\\..\\x',
      '%zz',
      '/%2e%2e/%2E/x',
      'héllo/wörld?ä=ü#ß',
      'javascript:void(0)',
      'mailto:a@b',
      '//[::1]:80/x',
      'http://a:b@example.com/docs/x',
      '../../../../../../x',
      'http://example.com:8080/docs/x',
      'data:text/plain,x',
      '&amp;&lt;&#x27;',
    );
    const href = fc.oneof(hostile, referenceParts().map(compose));
    const element = fc.oneof(
      href.map((h) => `<a href="${h.replaceAll('"', '&quot;')}">x</a>`),
      href.map((h) => `<base href="${h.replaceAll('"', '&quot;')}">`),
      href.map((h) => `<link rel="canonical" href="${h.replaceAll('"', '&quot;')}">`),
      href.map((h) => `<a hreflang="en" href="${h.replaceAll('"', '&quot;')}">x</a>`),
      fc.tuple(href, href).map(([x, y]) => `<img srcset="${x.replaceAll('"', '')} 1x, ${y.replaceAll('"', '')} 2x">`),
      href.map((h) => `<meta http-equiv="refresh" content="0; url=${h.replaceAll('"', '')}">`),
      fc.string().map((id) => `<div id="${id.replaceAll('"', '')}">\n</div>`),
      fc.constant('\r\n<p>text\n'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(element, { maxLength: 30 }), fc.constantFrom('rfc3986', 'browser'), async (parts, baseMode) => {
        await expectSame(responseOf('http://example.com/docs/dir/page.html', parts.join('')), { baseMode: baseMode as BaseMode });
      }),
      { numRuns: 200 },
    );
  });

  it.skipIf(trees.length === 0)('pages of the installed documentation trees (every 31st .html file)', async () => {
    let checked = 0;
    for (const root of trees) {
      const files = (readdirSync(root, { recursive: true }) as string[]).filter((file) => file.endsWith('.html')).sort();
      for (let i = 0; i < files.length; i += 31) {
        const file = files[i]!;
        const url = `http://127.0.0.1:8080/site/${file.split(path.sep).join('/')}`;
        await expectSame(responseOf(url, readFileSync(path.join(root, file), 'utf8')));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  }, 120_000);
});
