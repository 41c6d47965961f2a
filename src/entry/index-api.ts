// linkladder/index: the dedup index — open it to write (a crawl's store) or to read
// (reports), and its types. Loads the SQLite and PostgreSQL drivers, not the crawler.

export { openIndex, openIndexReader, type OpenIndexOptions } from '../open-index.js';
export type {
  IndexWriter,
  AdmitEntry,
  AdmitResult,
  AliasRecord,
  ArchivedRecord,
  BaseLevel,
  ClaimedUrl,
  FetchRecord,
  MatchRung,
  RedirectHop,
  StoreStats,
  UrlRecord,
  UrlState,
  UrlHistory,
  IndexReader,
  UrlRow,
  LinkRow,
  EdgeRow,
  FetchRow,
  AliasRow,
  FormRow,
  Funnel,
} from '../store/index.js';
export { StoreError } from '../errors.js';
