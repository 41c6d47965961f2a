// A small crawl for the HTML report tests: pages, an alias, a redirect chain, and
// findings whose text tries to break out of the page.

import type { AuditFinding } from '../../../src/report/audit/finding.js';
import type { IndexReader } from '../../../src/store/index.js';
import { readerOf } from '../support/memory-index.js';

export const HOSTILE = '</script><script>window.__pwned = true</script><!--';

/**
 * Written through a MemoryStore: a seed linking /docs (a redirect to /docs/, learned
 * from the response), a page whose URL holds HOSTILE, and another site; /docs/
 * links back, to an image at the hostile URL, and to itself in another spelling.
 */
export function reportReader(): Promise<IndexReader> {
  return readerOf({
    urls: [
      { id: 1, key: 'http://site.test/', depth: 0, fetches: [{}] },
      { id: 2, key: 'http://site.test/docs', from: 1, depth: 1, aliasOf: 3, detail: '301' },
      { id: 3, key: 'http://site.test/docs/', depth: 1, fetches: [{ redirects: [{ from: 'http://site.test/docs', to: 'http://site.test/docs/', status: 301 }] }] },
      { id: 4, key: `http://site.test/${encodeURIComponent(HOSTILE)}`, from: 1, depth: 1, state: 'failed', fetches: [{ status: 404 }] },
      { id: 5, key: 'http://elsewhere.test/', from: 1, depth: 1, state: 'skipped' },
    ],
    spellings: ['HTTP://site.test:80/'],
    links: [
      { from: 1, rawHref: 'docs/', to: 3 },
      { from: 1, rawHref: 'docs/', to: 3 },
      { from: 1, rawHref: 'http://elsewhere.test/', to: 5, element: 'link' },
      { from: 1, rawHref: 'http://[', error: 'ERR_URI_BAD_IP_LITERAL' },
      { from: 3, rawHref: '/', to: 1 },
      { from: 3, rawHref: 'x.png', to: 4, element: 'img', attribute: 'src' },
      { from: 3, rawHref: '%64ocs/', target: 'http://site.test/%64ocs/' },
    ],
  });
}

export function finding(code: string, severity: AuditFinding['severity'], page: string | undefined, message: string, rawHref?: string): AuditFinding {
  return { code, severity, page, rawHref, target: undefined, message, detail: {} };
}

export const FINDINGS: readonly AuditFinding[] = [
  finding('LINK_BROKEN', 'error', 'http://site.test/', 'the link leads to a 404', HOSTILE),
  finding('LINK_BROKEN', 'error', 'http://site.test/docs/', 'the image leads to a 404'),
  finding('LINK_REDIRECTED', 'warning', 'http://site.test/', 'the link goes through a 301 redirect', '/docs'),
  finding('HREF_BACKSLASH', 'warning', 'http://site.test/docs/', 'a backslash in an href', 'a\\b'),
  finding('SITE_ROBOTS', 'info', undefined, `robots.txt disallows 1 URL ${HOSTILE}`),
];
