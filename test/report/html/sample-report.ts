// A small crawl for the HTML report tests: pages, an alias, a redirect chain, a broken
// target, another site, a crawl run, and findings whose text tries to break out of the page.

import type { AuditFinding } from '../../../src/report/audit/finding.js';
import type { IndexReader, MemoryStore } from '../../../src/store/index.js';
import { writeIndex, type IndexSpec } from '../support/memory-index.js';

export const HOSTILE = '</script><script>window.__pwned = true</script><!--';
export const HOSTILE_URL = `http://site.test/${encodeURIComponent(HOSTILE)}`;

const SPEC: IndexSpec = {
  urls: [
    { id: 1, key: 'http://site.test/', depth: 0, fetches: [{}] },
    { id: 2, key: 'http://site.test/docs', from: 1, depth: 1, aliasOf: 3, detail: '301' },
    { id: 3, key: 'http://site.test/docs/', depth: 1, fetches: [{ redirects: [{ from: 'http://site.test/docs', to: 'http://site.test/docs/', status: 301 }] }] },
    { id: 4, key: HOSTILE_URL, from: 1, depth: 1, state: 'failed', fetches: [{ status: 404 }] },
    { id: 5, key: 'http://elsewhere.test/', from: 1, depth: 1, state: 'skipped', role: 'external' },
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
};

/** When the sample crawl ran: 2023-11-14 22:13:20 UTC, for 75 s. */
export const RUN_STARTED_AT = 1_700_000_000_000;
export const RUN_ENDED_AT = RUN_STARTED_AT + 75_000;

/**
 * Written through a MemoryStore: a seed linking /docs (a redirect to /docs/, learned
 * from the response), a page whose URL holds HOSTILE (a 404), and another site;
 * /docs/ links back, to an image at the hostile URL, and to itself in another
 * spelling. One crawl run, with its settings, is recorded.
 */
export async function reportReader(options: { readonly hasRun?: boolean } = {}): Promise<IndexReader> {
  const store = (await writeIndex(SPEC)) as MemoryStore;
  if (options.hasRun !== false) {
    const id = await store.startRun({ startedAt: RUN_STARTED_AT, seeds: ['http://site.test/'], settings: { scope: 'host', maxDepth: null, exclude: [HOSTILE] } });
    await store.endRun(id, { endedAt: RUN_ENDED_AT, stoppedBy: 'frontier-empty', outcome: 'frontier-empty', counts: { requests: 4 } });
  }
  return store.reader();
}

export function finding(
  code: string,
  severity: AuditFinding['severity'],
  page: string | undefined,
  message: string,
  rawHref?: string,
  target?: string,
  detail: AuditFinding['detail'] = {},
): AuditFinding {
  return { code, severity, page, rawHref, target, message, detail };
}

export const FINDINGS: readonly AuditFinding[] = [
  finding('LINK_BROKEN', 'error', 'http://site.test/', 'the link leads to a 404', HOSTILE, HOSTILE_URL, { status: 404, line: 12 }),
  finding('LINK_BROKEN', 'error', 'http://site.test/docs/', 'the image leads to a 404', 'x.png', `${HOSTILE_URL}#top`, { status: 404 }),
  finding('LINK_REDIRECT', 'warning', 'http://site.test/', 'the link goes through a 301 redirect', '/docs', 'http://site.test/docs'),
  finding('HREF_BACKSLASH', 'warning', 'http://site.test/docs/', 'a backslash in an href', 'a\\b'),
  finding('SITE_ROBOTS', 'info', undefined, `robots.txt disallows 1 URL ${HOSTILE}`),
];
