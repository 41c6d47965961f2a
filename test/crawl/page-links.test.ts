// pageLinks: what each admit entry carries for the audit — the href findings, the
// REF_* findings of its resolution, and its target under the other base mode —
// while resolution and same-document handling stay as they were.

import { describe, expect, it } from 'vitest';
import type { BaseMode } from '../../src/base/index.js';
import { extractPageReferences, keyOf, pageLinks, type PageContext } from '../../src/crawl/page-links.js';
import type { FetchedResponse } from '../../src/fetch/index.js';
import { DEFAULT_FOLLOW } from '../../src/html/index.js';
import type { AdmitEntry } from '../../src/store/index.js';

function response(url: string, body: string, headers: Record<string, string> = {}): FetchedResponse {
  return {
    requestUrl: url,
    finalUrl: url,
    hops: [],
    status: 200,
    headers,
    contentType: 'text/html',
    charset: 'utf-8',
    body,
    bytes: body.length,
    startedAt: 0,
    durationMs: 1,
    errorCode: undefined,
  };
}

function context(url: string, baseMode: BaseMode = 'rfc3986'): PageContext {
  return { id: 1, url, depth: 1, baseMode, follow: DEFAULT_FOLLOW, mayFollow: () => true };
}

function links(url: string, body: string, options: { headers?: Record<string, string>; baseMode?: BaseMode } = {}) {
  return pageLinks(response(url, body, options.headers), context(url, options.baseMode));
}

function a(...hrefs: string[]): string {
  return hrefs.map((href) => `<a href="${href}">x</a>`).join('');
}

const only = (entries: readonly AdmitEntry[]) => entries.map(({ rawHref, target, findings, alternateTarget, follow }) => ({ rawHref, target, findings, alternateTarget, follow }));

describe('pageLinks: findings on each entry', () => {
  it('the href clean-up codes, on resolved and unresolved links alike', () => {
    const { entries } = links('http://h/d/p.html', a(' x.html', 'a b', 'http://exa mple/', 'mailto:x@y', 'ok.html'));
    expect(only(entries)).toEqual([
      { rawHref: ' x.html', target: 'http://h/d/x.html', findings: ['HREF_SURROUNDING_WHITESPACE'], alternateTarget: undefined, follow: true },
      { rawHref: 'a b', target: 'http://h/d/a%20b', findings: ['HREF_UNENCODED_CHARACTER'], alternateTarget: undefined, follow: true },
      { rawHref: 'http://exa mple/', target: undefined, findings: ['HREF_INVALID'], alternateTarget: undefined, follow: undefined },
      { rawHref: 'mailto:x@y', target: 'mailto:x@y', findings: ['HREF_NOT_FETCHABLE'], alternateTarget: undefined, follow: true },
      { rawHref: 'ok.html', target: 'http://h/d/ok.html', findings: [], alternateTarget: undefined, follow: true },
    ]);
    expect(entries[2]?.error).toBe('ERR_URI_BAD_HOST');
  });

  it('REF_ABOVE_ROOT when RFC 3986 §5.2.4 drops ".." above the root; the target as the RFC resolves it', () => {
    const { entries } = links('http://h/d/p.html', a('../../x', '../x', '/../y', 'http://h/a/../../z'));
    expect(entries.map((e) => [e.target, e.findings])).toEqual([
      ['http://h/x', ['REF_ABOVE_ROOT']],
      ['http://h/x', []],
      ['http://h/y', ['REF_ABOVE_ROOT']],
      ['http://h/z', ['REF_ABOVE_ROOT']],
    ]);
  });

  it('REF_FOLDED_* names the rung that folds a spelling', () => {
    const { entries } = links('http://h/d/p.html', a('%7Eu/', 'HTTP://H/x', 'http://h:80/x', '/./x', 'x'));
    expect(entries.map((e) => e.findings)).toEqual([['REF_FOLDED_SYNTAX'], ['REF_FOLDED_SYNTAX'], ['REF_FOLDED_SCHEME'], ['REF_FOLDED_SYNTAX'], []]);
  });

  it('the page-level findings and the anchors (ids and <a name>) of the page', () => {
    const result = links('http://h/', '<base href="/d/"><base href="/e/"><h1 id="top1">t</h1><a name="n1" href="#top1">x</a><p id="">e</p>');
    expect(result.pageFindings).toEqual(['HTML_BASE_REPEATED', 'BASE_HREF_RELATIVE']);
    expect([...result.anchors].sort()).toEqual(['n1', 'top1']);
  });

  it('no anchors for a response that is not HTML', () => {
    const result = pageLinks({ ...response('http://h/x.txt', 'id="a"'), contentType: 'text/plain', body: undefined }, context('http://h/x.txt'));
    expect(result.anchors).toEqual([]);
  });
});

describe('pageLinks: the target under the other base mode', () => {
  const negotiated = { headers: { 'content-location': 'page.html.en' } };

  it('with Content-Location naming a sibling: only references whose target depends on the last segment differ', () => {
    const { entries } = links('http://h/doc/page.html', a('?lang=fr', '', '#x', 'other.html', 'page.html.en#y'), negotiated);
    expect(entries.map((e) => [e.rawHref, e.target, e.alternateTarget])).toEqual([
      ['?lang=fr', 'http://h/doc/page.html.en?lang=fr', 'http://h/doc/page.html?lang=fr'],
      // Same-document references point at the page itself, in either mode (RFC 3986 §4.4).
      ['', 'http://h/doc/page.html', undefined],
      ['#x', 'http://h/doc/page.html#x', undefined],
      ['other.html', 'http://h/doc/other.html', undefined],
      ['page.html.en#y', 'http://h/doc/page.html#y', 'http://h/doc/page.html.en#y'],
    ]);
  });

  it('in browser mode, the RFC 3986 target is the alternate one', () => {
    const { entries } = links('http://h/doc/page.html', a('?lang=fr'), { ...negotiated, baseMode: 'browser' });
    expect(entries.map((e) => [e.target, e.alternateTarget])).toEqual([['http://h/doc/page.html?lang=fr', 'http://h/doc/page.html.en?lang=fr']]);
  });

  it('with Content-Location in another directory, relative links differ', () => {
    const { entries } = links('http://h/a/p.html', a('x.html', '/abs.html'), { headers: { 'content-location': '/b/p.html' } });
    expect(entries.map((e) => [e.target, e.alternateTarget])).toEqual([
      ['http://h/b/x.html', 'http://h/a/x.html'],
      ['http://h/abs.html', undefined],
    ]);
  });

  it('a Content-Location spelling the retrieval URL differently changes nothing', () => {
    const { entries } = links('http://h/a/p.html', a('x.html', '?q'), { headers: { 'content-location': 'HTTP://H:80/a/p.html' } });
    expect(entries.map((e) => e.alternateTarget)).toEqual([undefined, undefined]);
  });

  it('a javascript: <base href>: browsers ignore it', () => {
    const { entries } = links('http://h/a/p.html', '<base href="javascript:void(0)">' + a('x.html'), { baseMode: 'browser' });
    expect(entries.map((e) => [e.target, e.alternateTarget])).toEqual([['http://h/a/x.html', 'javascript:x.html']]);
  });

  it('Link header references resolve against the chain without <base> (RFC 8288 §3.1), and differ by mode the same way', () => {
    const result = links('http://h/doc/page.html', '<base href="/elsewhere/">', {
      headers: { 'content-location': 'page.html.en', link: '<?v=2>; rel="alternate"' },
    });
    expect(result.entries.map((e) => [e.element, e.target, e.alternateTarget])).toEqual([
      ['http', 'http://h/doc/page.html.en?v=2', 'http://h/doc/page.html?v=2'],
    ]);
  });

  it('no page: no difference without a header or <base href>', () => {
    const { entries } = links('http://h/a/p.html', a('x.html', '?q', ''));
    expect(entries.map((e) => e.alternateTarget)).toEqual([undefined, undefined, undefined]);
  });
});

describe('pageLinks: one record per href', () => {
  it("hands mayFollow the record, and each entry its target's ladder forms, so nothing downstream parses again", () => {
    const seen: { target: string; key: string; forms: string | undefined }[] = [];
    const page: PageContext = {
      ...context('http://h/d/p.html'),
      mayFollow: (target, link) => {
        seen.push({ target, key: link.key, forms: link.forms?.key });
        return true;
      },
    };
    const { entries } = pageLinks(response('http://h/d/p.html', a('x.html#f', 'HTTP://H:80/y', '#top', '%2E%2E/z')), page);
    expect(seen).toEqual([
      { target: 'http://h/d/x.html#f', key: 'http://h/d/x.html', forms: 'http://h/d/x.html' },
      { target: 'HTTP://H:80/y', key: 'http://h/y', forms: 'http://h/y' },
      { target: 'http://h/z', key: 'http://h/z', forms: 'http://h/z' },
    ]);
    expect(entries.map((e) => [e.target, e.forms?.string, e.forms?.key, e.follow])).toEqual([
      ['http://h/d/x.html#f', 'http://h/d/x.html', 'http://h/d/x.html', true],
      ['HTTP://H:80/y', 'HTTP://H:80/y', 'http://h/y', true],
      ['http://h/d/p.html#top', 'http://h/d/p.html', 'http://h/d/p.html', false],
      ['http://h/z', 'http://h/z', 'http://h/z', true],
    ]);
  });

  it('keyOf is the one key function: a seed and a link to it share their key (DEVIATION(§5.2.4) %2E)', () => {
    const { entries } = links('http://h/d/p.html', a('http://h/x/%2E/..'));
    expect(entries[0]?.forms?.key).toBe(keyOf('http://h/x/%2E/..'));
    expect(keyOf('http://h/x/%2E/..')).toBe('http://h/');
  });
});

describe('pageLinks: where each href is written', () => {
  it('records the 1-based line and UTF-16 column of the value, CR LF and lone CR ending lines; none for the Link header', () => {
    const body = '<p>\r\n  <a href="one.html">1</a>\r<img src=two.png>\n<a href="x">\u00e9</a><a href=\'y\'>';
    const { entries } = links('http://h/', body, { headers: { link: '</z>; rel=next' } });
    expect(entries.map(({ rawHref, line, column }) => [rawHref, line, column])).toEqual([
      ['one.html', 2, 12],
      ['two.png', 3, 10],
      ['x', 4, 10],
      ['y', 4, 27],
      ['/z', undefined, undefined],
    ]);
  });
});

describe('pageLinks and extractPageReferences: a Markdown page', () => {
  const markdown = (url: string, body: string, contentType = 'text/markdown'): FetchedResponse => ({ ...response(url, body), contentType });

  it('is read by the Markdown extractor (text/markdown, text/x-markdown): links resolved against the page URL, <base> in raw HTML ignored, slugs as anchors', () => {
    const body = '<base href="http://elsewhere/">\n\n# Read Me\n\nSee [guide](guide.md#usage), ![logo](logo.png) and [top](#read-me).\n';
    for (const type of ['text/markdown', 'text/x-markdown']) {
      const page = pageLinks(markdown('http://h/docs/README.md', body, type), context('http://h/docs/README.md'));
      expect(page.entries.map((e) => [e.element, e.attribute, e.rawHref, e.target, e.follow, e.line, e.column])).toEqual([
        ['a', 'href', 'guide.md#usage', 'http://h/docs/guide.md#usage', true, 5, 13],
        ['img', 'src', 'logo.png', 'http://h/docs/logo.png', false, 5, 38],
        ['a', 'href', '#read-me', 'http://h/docs/README.md#read-me', false, 5, 58],
      ]);
      expect(page.anchors).toEqual(['read-me']);
      expect(page.chain.level).toBe('retrieval');
      expect(page.pageFindings).toEqual([]);
    }
    // As HTML, the same text would have its <base>.
    expect(pageLinks(response('http://h/docs/README.md', body), context('http://h/docs/README.md')).chain.level).toBe('base-element');
  });

  it('caps its links at maxLinks (PAGE_LINKS_CAPPED), all counted', () => {
    const body = Array.from({ length: 100 }, (_, i) => `[l${i}](p${i}.md)`).join('\n');
    const page = pageLinks(markdown('http://h/a.md', body), { ...context('http://h/a.md'), maxLinks: 10 });
    expect(page.entries).toHaveLength(10);
    expect(page.linksFound).toBe(100);
    expect(page.pageFindings).toContain('PAGE_LINKS_CAPPED');
  });

  it('a 10 MB Markdown body: read a piece per turn of the event loop, up to its cap (HTML_MARKDOWN_CAPPED)', async () => {
    // An unclosed fence at 64 KiB: what follows is code (read by hand, not parsed), up to 10 MB.
    const head = Array.from({ length: 2000 }, (_, i) => `## H${i}\n\n[l${i}](p${i}.md) *e* **s** \`c\`\n\n`).join('');
    const body = head + '```\n' + '[not](a-link.md)\n'.repeat(Math.ceil((10_000_000 - head.length) / 17));
    expect(body.length).toBeGreaterThan(10_000_000);
    let pauses = 0;
    const started = performance.now();
    const extracted = await extractPageReferences(markdown('http://h/big.md', body), { follow: DEFAULT_FOLLOW }, async () => {
      pauses++;
      await new Promise((resolve) => setImmediate(resolve));
    });
    const elapsed = performance.now() - started;
    expect(extracted!.references.map((r) => r.raw)).toEqual(Array.from({ length: 2000 }, (_, i) => `p${i}.md`));
    expect(extracted!.findings.map((f) => f.code)).toEqual(['HTML_MARKDOWN_CAPPED']);
    // One pause per piece of 8 to 16 KiB of the head.
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(head.length / (16 * 1024)));
    expect(elapsed).toBeLessThan(120_000);
  }, 180_000);
});
