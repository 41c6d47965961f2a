// A small crawl for the HTML report tests: pages, an alias, a redirect chain, and
// findings whose text tries to break out of the page.

import type { AuditFinding } from '../../../src/report/audit/finding.js';
import { FakeReader, aliasRow, edgeRow, fetchRow, formRow, urlRow } from '../support/fake-reader.js';

export const HOSTILE = '</script><script>window.__pwned = true</script><!--';

export function reportReader(): FakeReader {
  return new FakeReader({
    urls: [
      urlRow({ id: 1, key: 'http://site.test/', depth: 0, lastFetch: fetchRow({ id: 1, urlId: 1 }) }),
      urlRow({ id: 2, key: 'http://site.test/docs', depth: 1, state: 'alias', aliasOf: 3 }),
      urlRow({ id: 3, key: 'http://site.test/docs/', depth: 1, lastFetch: fetchRow({ id: 2, urlId: 3 }) }),
      urlRow({ id: 4, key: `http://site.test/${encodeURIComponent(HOSTILE)}`, depth: 1, state: 'failed', lastFetch: fetchRow({ id: 3, urlId: 4, status: 404 }) }),
      urlRow({ id: 5, key: 'http://elsewhere.test/', depth: 1, state: 'skipped' }),
    ],
    forms: [formRow(1, 'HTTP://site.test:80/'), formRow(3, 'http://site.test/%64ocs/', 'syntax')],
    edges: [
      edgeRow({ fromUrlId: 1, toUrlId: 3, count: 2 }),
      edgeRow({ fromUrlId: 1, toUrlId: 4 }),
      edgeRow({ fromUrlId: 1, toUrlId: 5, element: 'link', attribute: 'href' }),
      edgeRow({ fromUrlId: 3, toUrlId: 1 }),
      edgeRow({ fromUrlId: 3, toUrlId: 4, element: 'img', attribute: 'src' }),
    ],
    fetches: [
      fetchRow({ id: 1, urlId: 1 }),
      fetchRow({ id: 2, urlId: 3, redirects: [{ from: 'http://site.test/docs', to: 'http://site.test/docs/', status: 301 }] }),
      fetchRow({ id: 3, urlId: 4, status: 404 }),
    ],
    aliases: [aliasRow({ fromId: 2, fromKey: 'http://site.test/docs', toId: 3, toKey: 'http://site.test/docs/', evidence: 'redirect', detail: '301' })],
    funnel: { rawLinks: 9, distinctStrings: 6, distinctSyntax: 5, distinctScheme: 4, afterAliases: 3, unresolved: 1 },
    errorsByCode: { HTTP_404: 1 },
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
