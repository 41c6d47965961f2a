import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BASE_FINDING_CODES,
  computeBaseChain,
  type BaseChainOptions,
  type BaseFindingCode,
  type BaseLevel,
  type ResponseFacts,
} from '../../src/base/index.js';
import { parseBase, serialize } from '../../src/uri/index.js';
import { absoluteUri, uriReference } from '../support/arbitraries.js';

interface Case {
  readonly name: string;
  readonly facts: ResponseFacts;
  readonly options?: BaseChainOptions;
  readonly base: string | undefined;
  readonly level: BaseLevel | undefined;
  /** Every level in the chain, innermost first, as `level uri`. */
  readonly levels?: readonly string[];
  /** The finding codes, in order. */
  readonly codes: readonly BaseFindingCode[];
}

const PAGE = 'http://example.com/doc/page.html';
const BROWSER = { mode: 'browser' } as const;

const CASES: readonly Case[] = [
  // §5.1.3 the retrieval URL
  {
    name: 'retrieval URL alone',
    facts: { retrievalUrl: PAGE },
    base: PAGE,
    level: 'retrieval',
    levels: [`retrieval ${PAGE}`],
    codes: [],
  },
  {
    name: 'retrieval URL after redirects is used as given, not normalized',
    facts: { retrievalUrl: 'HTTP://Example.COM:80/a/./b?q' },
    base: 'HTTP://Example.COM:80/a/./b?q',
    level: 'retrieval',
    codes: [],
  },
  {
    name: 'retrieval URL with a fragment: fragment dropped',
    facts: { retrievalUrl: `${PAGE}#top` },
    base: PAGE,
    level: 'retrieval',
    codes: ['BASE_FRAGMENT_IGNORED'],
  },
  {
    name: 'retrieval URL not absolute: skipped, default not used in its place',
    facts: { retrievalUrl: '/doc/page.html' },
    options: { defaultBase: 'file:///srv/site/' },
    base: undefined,
    level: undefined,
    levels: [],
    codes: ['BASE_RETRIEVAL_INVALID', 'BASE_NONE'],
  },
  {
    name: 'retrieval URL not a URI',
    facts: { retrievalUrl: 'http://exa mple.com/' },
    base: undefined,
    level: undefined,
    codes: ['BASE_RETRIEVAL_INVALID', 'BASE_NONE'],
  },
  // §5.1.4 the default
  {
    name: 'default base when there is no retrieval URL',
    facts: {},
    options: { defaultBase: 'file:///srv/site/index.html' },
    base: 'file:///srv/site/index.html',
    level: 'default',
    levels: ['default file:///srv/site/index.html'],
    codes: [],
  },
  {
    name: 'default base loses its fragment',
    facts: {},
    options: { defaultBase: 'file:///srv/site/index.html#x' },
    base: 'file:///srv/site/index.html',
    level: 'default',
    codes: [],
  },
  {
    name: 'default base not used when there is a retrieval URL',
    facts: { retrievalUrl: PAGE },
    options: { defaultBase: 'file:///srv/site/' },
    base: PAGE,
    level: 'retrieval',
    levels: [`retrieval ${PAGE}`],
    codes: [],
  },
  {
    name: 'nothing at all: no base',
    facts: {},
    base: undefined,
    level: undefined,
    levels: [],
    codes: ['BASE_NONE'],
  },
  // §5.1.2 Content-Location
  {
    name: 'Content-Location relative to the retrieval URL (negotiated variant)',
    facts: { retrievalUrl: PAGE, contentLocation: 'page.html.en' },
    base: 'http://example.com/doc/page.html.en',
    level: 'content-location',
    levels: ['content-location http://example.com/doc/page.html.en', `retrieval ${PAGE}`],
    codes: [],
  },
  {
    name: 'Content-Location of a negotiated directory index (/manual/ → index.html.en)',
    facts: { retrievalUrl: 'http://example.com/manual/', contentLocation: 'index.html.en' },
    base: 'http://example.com/manual/index.html.en',
    level: 'content-location',
    codes: [],
  },
  {
    name: 'Content-Location absolute, same directory in another spelling',
    facts: { retrievalUrl: PAGE, contentLocation: 'HTTP://EXAMPLE.com:80/doc/%70age.html.en' },
    base: 'HTTP://EXAMPLE.com:80/doc/%70age.html.en',
    level: 'content-location',
    codes: [],
  },
  {
    name: 'Content-Location pointing to another directory',
    facts: { retrievalUrl: PAGE, contentLocation: '../en/page.html' },
    base: 'http://example.com/en/page.html',
    level: 'content-location',
    codes: ['BASE_CONTENT_LOCATION_OTHER_DIRECTORY'],
  },
  {
    name: 'Content-Location: / on a deep page (misconfigured server)',
    facts: { retrievalUrl: PAGE, contentLocation: '/' },
    base: 'http://example.com/',
    level: 'content-location',
    codes: ['BASE_CONTENT_LOCATION_OTHER_DIRECTORY'],
  },
  {
    name: 'Content-Location on another origin',
    facts: { retrievalUrl: PAGE, contentLocation: 'https://example.com/doc/page.html' },
    base: 'https://example.com/doc/page.html',
    level: 'content-location',
    codes: ['BASE_CONTENT_LOCATION_OTHER_DIRECTORY', 'BASE_CONTENT_LOCATION_OTHER_ORIGIN'],
  },
  {
    name: 'Content-Location with surrounding whitespace (OWS)',
    facts: { retrievalUrl: PAGE, contentLocation: ' \tpage.html.en \t' },
    base: 'http://example.com/doc/page.html.en',
    level: 'content-location',
    codes: [],
  },
  {
    name: 'Content-Location with a fragment: fragment dropped',
    facts: { retrievalUrl: PAGE, contentLocation: 'page.html.en#intro' },
    base: 'http://example.com/doc/page.html.en',
    level: 'content-location',
    codes: ['BASE_FRAGMENT_IGNORED'],
  },
  {
    name: 'Content-Location with dot segments is converted to absolute form',
    facts: { retrievalUrl: PAGE, contentLocation: './x/../page.html.en' },
    base: 'http://example.com/doc/page.html.en',
    level: 'content-location',
    codes: [],
  },
  {
    name: 'Content-Location empty: names the retrieval URL itself',
    facts: { retrievalUrl: PAGE, contentLocation: '' },
    base: PAGE,
    level: 'content-location',
    codes: [],
  },
  {
    name: 'Content-Location invalid: skipped',
    facts: { retrievalUrl: PAGE, contentLocation: 'page one.html' },
    base: PAGE,
    level: 'retrieval',
    levels: [`retrieval ${PAGE}`],
    codes: ['BASE_CONTENT_LOCATION_INVALID'],
  },
  {
    name: 'Content-Location with two values joined by a comma: invalid',
    facts: { retrievalUrl: PAGE, contentLocation: 'a.html, b.html' },
    base: PAGE,
    level: 'retrieval',
    codes: ['BASE_CONTENT_LOCATION_INVALID'],
  },
  {
    name: 'Content-Location relative without retrieval URL or default: skipped',
    facts: { contentLocation: 'page.html.en' },
    base: undefined,
    level: undefined,
    codes: ['BASE_CONTENT_LOCATION_UNRESOLVED', 'BASE_NONE'],
  },
  {
    name: 'Content-Location relative without retrieval URL: resolved against the default',
    facts: { contentLocation: 'page.html.en' },
    options: { defaultBase: 'file:///srv/site/page.html' },
    base: 'file:///srv/site/page.html.en',
    level: 'content-location',
    codes: [],
  },
  {
    name: 'Content-Location absolute without retrieval URL (a MIME part)',
    facts: { contentLocation: 'http://example.com/part.html' },
    base: 'http://example.com/part.html',
    level: 'content-location',
    codes: [],
  },
  {
    name: 'Content-Location relative to an invalid retrieval URL: both skipped',
    facts: { retrievalUrl: 'page.html', contentLocation: 'page.html.en' },
    base: undefined,
    level: undefined,
    codes: ['BASE_CONTENT_LOCATION_UNRESOLVED', 'BASE_RETRIEVAL_INVALID', 'BASE_NONE'],
  },
  // RFC 2068 §14.11 Content-Base
  {
    name: 'DEVIATION(§5.1.2) Content-Base alone gives the content-location level',
    facts: { retrievalUrl: PAGE, contentBase: 'http://example.com/doc/' },
    base: 'http://example.com/doc/',
    level: 'content-location',
    codes: ['BASE_CONTENT_BASE_USED'],
  },
  {
    name: 'DEVIATION(§5.1.2) Content-Base takes precedence over Content-Location',
    facts: { retrievalUrl: PAGE, contentLocation: 'page.html.en', contentBase: 'http://example.com/base/' },
    base: 'http://example.com/base/',
    level: 'content-location',
    levels: ['content-location http://example.com/base/', `retrieval ${PAGE}`],
    codes: ['BASE_CONTENT_BASE_USED', 'BASE_CONTENT_LOCATION_OTHER_DIRECTORY', 'BASE_CONTENT_LOCATION_SHADOWED'],
  },
  {
    name: 'Content-Base invalid: Content-Location used instead',
    facts: { retrievalUrl: PAGE, contentLocation: 'page.html.en', contentBase: 'http://exa mple.com/' },
    base: 'http://example.com/doc/page.html.en',
    level: 'content-location',
    codes: ['BASE_CONTENT_BASE_INVALID'],
  },
  {
    name: 'Content-Base relative (RFC 2068 wants absoluteURI): resolved against the retrieval URL',
    facts: { retrievalUrl: PAGE, contentBase: ' ./ ' },
    base: 'http://example.com/doc/',
    level: 'content-location',
    codes: ['BASE_CONTENT_BASE_USED'],
  },
  {
    name: 'Content-Base relative without retrieval URL: skipped',
    facts: { contentBase: 'base/' },
    base: undefined,
    level: undefined,
    codes: ['BASE_CONTENT_BASE_UNRESOLVED', 'BASE_NONE'],
  },
  // §5.1.1 the <base> element
  {
    name: 'base element absolute',
    facts: { retrievalUrl: PAGE, baseElementHref: 'http://cdn.example.org/assets/' },
    base: 'http://cdn.example.org/assets/',
    level: 'base-element',
    levels: ['base-element http://cdn.example.org/assets/', `retrieval ${PAGE}`],
    codes: [],
  },
  {
    name: 'base element absolute wins over Content-Location',
    facts: { retrievalUrl: PAGE, contentLocation: 'page.html.en', baseElementHref: 'http://cdn.example.org/' },
    base: 'http://cdn.example.org/',
    level: 'base-element',
    levels: ['base-element http://cdn.example.org/', 'content-location http://example.com/doc/page.html.en', `retrieval ${PAGE}`],
    codes: [],
  },
  {
    name: 'base element relative: resolved against the retrieval URL',
    facts: { retrievalUrl: PAGE, baseElementHref: 'sub/' },
    base: 'http://example.com/doc/sub/',
    level: 'base-element',
    codes: ['BASE_HREF_RELATIVE'],
  },
  {
    name: 'base element relative: resolved against Content-Location, not the retrieval URL',
    facts: { retrievalUrl: PAGE, contentLocation: '/other/index.html', baseElementHref: 'sub/' },
    base: 'http://example.com/other/sub/',
    level: 'base-element',
    levels: ['base-element http://example.com/other/sub/', 'content-location http://example.com/other/index.html', `retrieval ${PAGE}`],
    codes: ['BASE_HREF_RELATIVE', 'BASE_CONTENT_LOCATION_OTHER_DIRECTORY'],
  },
  {
    name: 'base element relative: resolved against Content-Base over Content-Location',
    facts: { retrievalUrl: PAGE, contentLocation: '/cl/x.html', contentBase: '/cb/', baseElementHref: 'sub/' },
    base: 'http://example.com/cb/sub/',
    level: 'base-element',
    codes: ['BASE_HREF_RELATIVE', 'BASE_CONTENT_BASE_USED', 'BASE_CONTENT_LOCATION_OTHER_DIRECTORY', 'BASE_CONTENT_LOCATION_SHADOWED'],
  },
  {
    name: 'base element relative: resolved against the default',
    facts: { baseElementHref: '../' },
    options: { defaultBase: 'file:///srv/site/a/index.html' },
    base: 'file:///srv/site/',
    level: 'base-element',
    levels: ['base-element file:///srv/site/', 'default file:///srv/site/a/index.html'],
    codes: ['BASE_HREF_RELATIVE'],
  },
  {
    name: 'base element relative with nothing to resolve against: skipped',
    facts: { baseElementHref: 'sub/' },
    base: undefined,
    level: undefined,
    codes: ['BASE_HREF_UNRESOLVED', 'BASE_NONE'],
  },
  {
    name: 'base element absolute with nothing else',
    facts: { baseElementHref: 'http://example.com/x/' },
    base: 'http://example.com/x/',
    level: 'base-element',
    codes: [],
  },
  {
    name: 'base element with a fragment: fragment dropped (§5.1)',
    facts: { retrievalUrl: PAGE, baseElementHref: 'http://cdn.example.org/a/b.html#frag' },
    base: 'http://cdn.example.org/a/b.html',
    level: 'base-element',
    codes: ['BASE_FRAGMENT_IGNORED'],
  },
  {
    name: 'base element "#top": the retrieval URL, fragment dropped',
    facts: { retrievalUrl: PAGE, baseElementHref: '#top' },
    base: PAGE,
    level: 'base-element',
    codes: ['BASE_HREF_RELATIVE', 'BASE_FRAGMENT_IGNORED'],
  },
  {
    name: 'base element empty: the next level',
    facts: { retrievalUrl: `${PAGE}?q=1`, baseElementHref: '' },
    base: `${PAGE}?q=1`,
    level: 'base-element',
    codes: ['BASE_HREF_RELATIVE'],
  },
  {
    name: 'base element with surrounding ASCII whitespace',
    facts: { retrievalUrl: PAGE, baseElementHref: ' \n\t\f\rhttp://cdn.example.org/ \n' },
    base: 'http://cdn.example.org/',
    level: 'base-element',
    codes: [],
  },
  {
    name: 'base element with dot segments is converted to absolute form',
    facts: { retrievalUrl: PAGE, baseElementHref: 'http://cdn.example.org/a/../b/..' },
    base: 'http://cdn.example.org/',
    level: 'base-element',
    codes: [],
  },
  {
    name: 'base element invalid (space inside): skipped',
    facts: { retrievalUrl: PAGE, baseElementHref: 'http://cdn.example.org/my dir/' },
    base: PAGE,
    level: 'retrieval',
    levels: [`retrieval ${PAGE}`],
    codes: ['BASE_HREF_INVALID'],
  },
  {
    name: 'base element invalid (embedded newline, left to html/ to clean): skipped',
    facts: { retrievalUrl: PAGE, baseElementHref: 'http://cdn.exam\nple.org/' },
    base: PAGE,
    level: 'retrieval',
    codes: ['BASE_HREF_INVALID'],
  },
  {
    name: 'base element invalid (backslashes): skipped',
    facts: { retrievalUrl: PAGE, baseElementHref: '\\\\cdn\\x\\' },
    base: PAGE,
    level: 'retrieval',
    codes: ['BASE_HREF_INVALID'],
  },
  {
    name: 'base element data: URL is a base in rfc3986 mode',
    facts: { retrievalUrl: PAGE, baseElementHref: 'data:text/html,x' },
    base: 'data:text/html,x',
    level: 'base-element',
    codes: [],
  },
  // browser mode
  {
    name: 'DEVIATION(§5.1.2) browser mode ignores Content-Location',
    facts: { retrievalUrl: PAGE, contentLocation: 'page.html.en' },
    options: BROWSER,
    base: PAGE,
    level: 'retrieval',
    levels: [`retrieval ${PAGE}`],
    codes: ['BASE_CONTENT_LOCATION_IGNORED'],
  },
  {
    name: 'DEVIATION(§5.1.2) browser mode ignores Content-Base and Content-Location, even invalid ones',
    facts: { retrievalUrl: PAGE, contentLocation: 'a b', contentBase: 'http://example.com/base/' },
    options: BROWSER,
    base: PAGE,
    level: 'retrieval',
    codes: ['BASE_CONTENT_BASE_IGNORED', 'BASE_CONTENT_LOCATION_IGNORED'],
  },
  {
    name: 'browser mode: a relative base element resolves against the retrieval URL',
    facts: { retrievalUrl: PAGE, contentLocation: '/other/index.html', baseElementHref: 'sub/' },
    options: BROWSER,
    base: 'http://example.com/doc/sub/',
    level: 'base-element',
    levels: ['base-element http://example.com/doc/sub/', `retrieval ${PAGE}`],
    codes: ['BASE_HREF_RELATIVE', 'BASE_CONTENT_LOCATION_IGNORED'],
  },
  {
    name: 'DEVIATION(§5.1.1) browser mode skips a data: base element',
    facts: { retrievalUrl: PAGE, baseElementHref: 'data:text/html,x' },
    options: BROWSER,
    base: PAGE,
    level: 'retrieval',
    codes: ['BASE_HREF_SCHEME_BLOCKED'],
  },
  {
    name: 'DEVIATION(§5.1.1) browser mode skips a javascript: base element, whatever its case',
    facts: { retrievalUrl: PAGE, baseElementHref: ' JavaScript:void(0)' },
    options: BROWSER,
    base: PAGE,
    level: 'retrieval',
    codes: ['BASE_HREF_SCHEME_BLOCKED'],
  },
  {
    name: 'browser mode: default when there is no retrieval URL',
    facts: { contentLocation: 'http://example.com/x' },
    options: { mode: 'browser', defaultBase: 'file:///srv/' },
    base: 'file:///srv/',
    level: 'default',
    codes: ['BASE_CONTENT_LOCATION_IGNORED'],
  },
  // Apache MultiViews: content negotiation answers with the variant's Content-Location
  {
    name: 'Apache MultiViews: /manual/mod/core.html answered with Content-Location: core.html.en',
    facts: { retrievalUrl: 'http://httpd.example/manual/mod/core.html', contentLocation: 'core.html.en' },
    base: 'http://httpd.example/manual/mod/core.html.en',
    level: 'content-location',
    codes: [],
  },
];

describe('computeBaseChain (RFC 3986 §5.1)', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const chain = computeBaseChain(c.facts, c.options);
    expect(chain.baseText).toBe(c.base);
    expect(chain.level).toBe(c.level);
    expect(chain.findings.map((f) => f.code)).toEqual(c.codes);
    if (c.levels !== undefined) expect(chain.levels.map((l) => `${l.level} ${l.uri}`)).toEqual(c.levels);
    expect(chain.mode).toBe(c.options?.mode ?? 'rfc3986');
  });

  it('the cases cover every finding code', () => {
    const seen = new Set(CASES.flatMap((c) => c.codes));
    expect(BASE_FINDING_CODES.filter((code) => !seen.has(code))).toEqual([]);
  });

  it('base is the parsed form of baseText, without a fragment', () => {
    const chain = computeBaseChain({ retrievalUrl: PAGE, contentLocation: 'page.html.en#x' });
    expect(chain.base).toEqual({
      scheme: 'http',
      userinfo: undefined,
      host: 'example.com',
      port: undefined,
      path: '/doc/page.html.en',
      query: undefined,
      fragment: undefined,
    });
  });

  it('an invalid value is reported with the raw value and an error index into it', () => {
    const chain = computeBaseChain({ retrievalUrl: PAGE, contentLocation: '  a b', baseElementHref: '\thttp://x/%zz' });
    expect(chain.findings).toEqual([
      { code: 'BASE_HREF_INVALID', level: 'base-element', value: '\thttp://x/%zz', error: { code: 'ERR_URI_BAD_PERCENT', index: 11 } },
      { code: 'BASE_CONTENT_LOCATION_INVALID', level: 'content-location', value: '  a b', error: { code: 'ERR_URI_BAD_PATH', index: 3 } },
    ]);
    expect(chain.baseText).toBe(PAGE);
  });

  it('findings carry the raw value they concern', () => {
    const chain = computeBaseChain({ retrievalUrl: PAGE, contentLocation: ' ../en/page.html' });
    expect(chain.findings).toEqual([
      { code: 'BASE_CONTENT_LOCATION_OTHER_DIRECTORY', level: 'content-location', value: ' ../en/page.html' },
    ]);
    expect(computeBaseChain({}).findings).toEqual([{ code: 'BASE_NONE', level: undefined, value: undefined }]);
  });

  it('takes null (a Headers#get() miss) as absent', () => {
    const facts = { retrievalUrl: PAGE, contentLocation: null, contentBase: null, baseElementHref: null } as unknown as ResponseFacts;
    const chain = computeBaseChain(facts);
    expect(chain.baseText).toBe(PAGE);
    expect(chain.findings).toEqual([]);
  });

  it('gives what the other mode would settle on', () => {
    const facts = { retrievalUrl: PAGE, contentLocation: '/other/index.html', baseElementHref: 'sub/' };
    const rfc = computeBaseChain(facts);
    const browser = computeBaseChain(facts, BROWSER);
    expect(rfc.alternate).toEqual({ mode: 'browser', base: browser.base, baseText: browser.baseText, level: browser.level });
    expect(browser.alternate).toEqual({ mode: 'rfc3986', base: rfc.base, baseText: rfc.baseText, level: rfc.level });
    const plain = computeBaseChain({ retrievalUrl: PAGE });
    expect(plain.alternate).toEqual({ mode: 'browser', base: plain.base, baseText: PAGE, level: 'retrieval' });
  });

  it('returns frozen records', () => {
    const chain = computeBaseChain({ retrievalUrl: PAGE, contentLocation: 'x y' });
    expect(Object.isFrozen(chain)).toBe(true);
    expect(Object.isFrozen(chain.levels)).toBe(true);
    expect(Object.isFrozen(chain.findings)).toBe(true);
    expect(Object.isFrozen(chain.findings[0])).toBe(true);
    expect(Object.isFrozen(chain.alternate)).toBe(true);
  });

  const anyText = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
    uriReference,
    absoluteUri,
    fc.constantFrom(' ', '\t#', '//', '%', 'data:,', 'javascript:x', 'http://[::1', 'a:b', '\\\\x', '..', '?', '#'),
  );
  const field = fc.option(anyText, { nil: undefined });
  const facts = fc.record({ retrievalUrl: field, contentLocation: field, contentBase: field, baseElementHref: field });
  const options = fc.record({
    mode: fc.constantFrom('rfc3986', 'browser') as fc.Arbitrary<'rfc3986' | 'browser'>,
    defaultBase: fc.option(absoluteUri, { nil: undefined }),
  });

  it('never throws on any string in any field, and its results hang together', () => {
    fc.assert(
      fc.property(facts, options, (f, o) => {
        const chain = computeBaseChain(f, o);
        expect(chain.base === undefined).toBe(chain.level === undefined);
        expect(chain.level).toBe(chain.levels[0]?.level);
        if (chain.base === undefined) {
          expect(chain.baseText).toBeUndefined();
          expect(chain.findings.at(-1)?.code).toBe('BASE_NONE');
        } else {
          expect(chain.base.fragment).toBeUndefined();
          expect(chain.baseText).toBe(serialize(chain.base));
          expect(chain.levels[0]?.uri).toBe(chain.baseText);
          const reparsed = parseBase(chain.baseText!);
          expect(reparsed.ok).toBe(true);
        }
        if (o.mode === 'browser') expect(chain.levels.some((l) => l.level === 'content-location')).toBe(false);
        if (f.retrievalUrl !== undefined) expect(chain.levels.some((l) => l.level === 'default')).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('a valid retrieval URL alone is the base, fragment removed', () => {
    fc.assert(
      fc.property(absoluteUri, (uri) => {
        const chain = computeBaseChain({ retrievalUrl: uri });
        const parsed = parseBase(uri);
        if (!parsed.ok) throw new Error('arbitrary gave an invalid URI');
        expect(chain.baseText).toBe(serialize({ ...parsed.value, fragment: undefined }));
        expect(chain.level).toBe('retrieval');
      }),
    );
  });

  it('BASE_HREF_RELATIVE: a relative <base href>, however it is written (the one record of that fact)', () => {
    for (const href of ['/docs/', '../x', '//cdn.example/', ' sub/ ']) {
      expect(computeBaseChain({ retrievalUrl: PAGE, baseElementHref: href }).findings.map((f) => f.code), href).toEqual(['BASE_HREF_RELATIVE']);
    }
    for (const href of ['http://a/', ' HTTPS://a/', 'urn:x']) {
      expect(computeBaseChain({ retrievalUrl: PAGE, baseElementHref: href }).findings.map((f) => f.code), href).toEqual([]);
    }
    // Not a relative reference at all (RFC 3986 §4.2: a colon in the first segment), as the link extractor once said it was.
    expect(computeBaseChain({ retrievalUrl: PAGE, baseElementHref: '1http://x/' }).findings.map((f) => f.code)).toEqual(['BASE_HREF_INVALID']);
  });
});
