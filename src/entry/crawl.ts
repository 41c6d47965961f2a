// linkladder/crawl: crawl(seed, options), as `linkladder crawl`; the HTTP fetcher and
// robots.txt policy it uses (or that a caller passes in); explain().

export { crawl, type CrawlOptions } from '../api.js';
export { explain, CrawlError, type CrawlSummary, type CrawlEvent, type Explanation } from '../crawl/index.js';
export {
  createFetcher,
  createRobotsPolicy,
  createRequestCredentials,
  type CredentialOptions,
  type RequestCredentials,
  type Fetcher,
  type FetchedResponse,
  type FetcherOptions,
  type FetchCallOptions,
  type BeforeRedirect,
  type OnExchange,
  type WireExchange,
  type RobotsPolicy,
  type RobotsCache,
  type RobotsCacheEntry,
} from '../fetch/index.js';
