// The one error the crawl throws: a fatal outcome stopped it.

import { LinkladderError, type ErrorCode } from '../errors.js';
import type { CrawlSummary } from './crawl-summary.js';

export type CrawlErrorCode = Extract<ErrorCode, `ERR_CRAWL_${string}`>;

/** The crawl stopped on a fatal error; `cause` is that error, `summary` what was done until then. */
export class CrawlError extends LinkladderError {
  declare readonly code: CrawlErrorCode;
  readonly summary: CrawlSummary | undefined;

  constructor(code: CrawlErrorCode, message: string, options: { cause?: unknown; summary?: CrawlSummary | undefined }) {
    super(code, message, { cause: options.cause });
    this.summary = options.summary;
    this.name = 'CrawlError';
  }
}
