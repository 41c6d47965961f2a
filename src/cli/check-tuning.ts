// What `check` hands the crawl: crawl's settings less those check decides itself
// (its scope, its index, no sitemap), and how many pages are read at once.

import type { CrawlSettings } from '../config/index.js';
import { CRAWL_DEFAULTS, isPrivateUrl } from '../crawl/index.js';
import type { CheckPlan } from './check-targets.js';
import type { CrawlTuning } from './run-crawl.js';

/**
 * Settings of `crawl` that `check` does not take: its index is its own (`--db`
 * with another default, rebuilt each run), its scope is the folders and URLs given,
 * and it reads no sitemap (every file of a folder is a seed already), re-checks
 * nothing (each run is fresh) and keeps to RFC 3986 evidence.
 */
export const NOT_CHECK_SETTINGS: ReadonlySet<string> = new Set([
  'db',
  'json',
  'scope',
  'sitemap',
  'maxSitemaps',
  'maxSitemapEntries',
  'contentEvidence',
  'recheck',
  'contentLocationAlias',
]);

/** Pages in flight at once when a folder is checked (measured on a 2-core machine: 4 → 16 took a 122 MB tree from 14.5 s to 11.2 s; 64 gained nothing more). */
const LOCAL_CONCURRENCY = 16;

/** crawl()'s settings for this check: the folders and URLs given are the scope; no sitemap. */
export function tuningOf(settings: CrawlSettings, plan: CheckPlan, given: Partial<CrawlSettings>): CrawlTuning {
  const tuning: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) if (!NOT_CHECK_SETTINGS.has(key) && key !== 'userAgent') tuning[key] = value;
  const isLocal = plan.roots.length > 0;
  return {
    ...(tuning as CrawlTuning),
    sitemap: false,
    scope: isLocal ? 'prefix' : CRAWL_DEFAULTS.scope,
    // A folder's own origin is a name, never connected to: a site URL on a private address is no reason to refuse it.
    allowPrivate: settings.allowPrivate || plan.roots.some((root) => isPrivateUrl(root.prefix)),
    // Files are read many at a time (a disk has no server to spare, and a page parsed on another
    // core overlaps with the main thread's writes); each other host keeps its own limit and delay.
    concurrency: given.concurrency ?? (isLocal ? LOCAL_CONCURRENCY : settings.concurrency),
    // An unverified external link (a timeout, a 503, a 429) is asked once more at the end, politely.
    secondPass: given.secondPass ?? true,
    // Files given by name: the files they link to are read for their anchors, not followed further.
    maxDepth: given.maxDepth === undefined && plan.urls.length === 0 && plan.hasFileTargets && !hasFolders(plan) ? 1 : settings.maxDepth,
  };
}

function hasFolders(plan: CheckPlan): boolean {
  return plan.folders.length > 0;
}

export function originOf(url: string): string {
  try {
    return `${new URL(url).origin}/`;
  } catch {
    return url;
  }
}
