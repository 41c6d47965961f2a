// Per-rung statistics of a crawl: the ladder funnel and what it saved.

export {
  collectStats,
  FETCHES_SAVED_DEFINITION,
  LINKS_NOT_FETCHED_DEFINITION,
  type CrawlStats,
  type FoldedByRung,
  type WorkersState,
} from './crawl-stats.js';
export { formatStats, requestKindsText } from './format-stats.js';
export { collectDuplicateStats, DUPLICATE_PAIRS_KEPT, type DuplicateStats, type PrefixPair } from './duplicate-stats.js';
