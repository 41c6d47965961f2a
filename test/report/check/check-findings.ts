// Hand-built findings of `check` for the format tests: the hard cases of each format.

import type { CheckFinding } from '../../../src/report/check/index.js';

export function checkFinding(fields: Partial<CheckFinding> & Pick<CheckFinding, 'code'>): CheckFinding {
  return {
    severity: 'error',
    page: undefined,
    rawHref: undefined,
    target: undefined,
    message: 'the target is missing',
    detail: {},
    verdict: undefined,
    file: undefined,
    ...fields,
  };
}

/** A missing file linked from a Markdown file, at line 3, column 5. */
export const BROKEN = checkFinding({
  code: 'LINK_BROKEN',
  page: 'file:///site/docs/guide.md',
  file: 'docs/guide.md',
  rawHref: '../missing.md',
  target: 'file:///site/missing.md',
  message: 'the target answered 404',
  verdict: 'broken',
  line: 3,
  column: 5,
});

/** An external host that timed out: a warning. */
export const UNVERIFIED = checkFinding({
  code: 'LINK_UNVERIFIED',
  severity: 'warning',
  page: 'file:///site/docs/guide.md',
  file: 'docs/guide.md',
  rawHref: 'https://slow.example/',
  target: 'https://slow.example/',
  message: 'the target did not answer in time',
  verdict: 'unverified',
  line: 9,
  column: 1,
});

/** A redirect: no verdict, a warning. */
export const REDIRECT = checkFinding({
  code: 'LINK_REDIRECT',
  severity: 'warning',
  page: 'file:///site/index.html',
  file: 'index.html',
  rawHref: '/old',
  target: 'file:///site/old',
  message: 'the target redirects to file:///site/old/ (1 hop): link to the final URL',
  line: 12,
});

/** A path and a message full of what each format must escape. */
export const HOSTILE = checkFinding({
  code: 'LINK_BROKEN',
  page: 'file:///site/a%2Cb/c%3Ad.md',
  file: 'a,b/c:d 100%\n.md',
  rawHref: 'x|y`z`<b>&"\'\r\n%0A*_[l](u)\u0007\u202e',
  target: 'file:///site/a,b/x|y',
  message: 'line one\nline two, 50% done: <script>alert(1)</script> \u0000\u0001\uFFFE end',
  verdict: 'broken',
  line: 7,
  column: 2,
});

/** A live page (no file), with unicode. */
export const LIVE = checkFinding({
  code: 'LINK_BROKEN',
  page: 'https://example.org/über/',
  rawHref: 'naïve/😀.html',
  target: 'https://example.org/über/na%C3%AFve/%F0%9F%98%80.html',
  message: 'the target answered 404',
  verdict: 'broken',
  line: 40,
  column: 8,
});

/** A finding with a file but no recorded position. */
export const NO_LINE = checkFinding({
  code: 'LINK_FRAGMENT_MISSING',
  page: 'file:///site/index.html',
  file: 'index.html',
  rawHref: '#nowhere',
  target: 'file:///site/index.html#nowhere',
  message: 'no element with id or name "nowhere" in the target page',
  verdict: 'broken',
});
