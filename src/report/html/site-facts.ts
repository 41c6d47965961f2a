// The site a report is about: its seeds and their hosts, which the report's title
// names. What is external is the crawl's scope's to say (the URL's role), not the host's.

import type { CrawlRunRow, IndexReader } from '../../store/index.js';
import { parseUriReference } from '../../uri/index.js';
import { redactPassword } from '../redact.js';

export interface SiteFacts {
  /** The seeds (every run's, first seen first; else the URLs at depth 0), passwords redacted. */
  readonly seeds: readonly string[];
  /** The seeds' hosts (RFC 3986 §3.2.2, without port), in seed order. */
  readonly hosts: readonly string[];
}

/** The seeds of the crawl runs, or (an index from before runs were recorded) the URLs at depth 0. */
export async function siteOf(reader: IndexReader, runs: readonly CrawlRunRow[]): Promise<SiteFacts> {
  const seeds = new Set<string>();
  for (const run of runs) for (const seed of run.seeds) seeds.add(seed);
  if (seeds.size === 0) {
    for await (const url of reader.urls()) {
      if (url.depth !== 0) break;
      if (url.state !== 'alias') seeds.add(url.key);
    }
  }
  const hosts = new Set<string>();
  for (const seed of seeds) {
    const host = hostOf(seed);
    if (host !== undefined) hosts.add(host);
  }
  return { seeds: [...seeds].map(redactPassword), hosts: [...hosts] };
}

/** The host of a URL key (RFC 3986 §3.2.2), or `undefined` when it has none. */
export function hostOf(key: string): string | undefined {
  const parsed = parseUriReference(key);
  return parsed.ok ? parsed.value.host?.toLowerCase() : undefined;
}

/** The page title's name for the site: its seeds' hosts, with their ports (RFC 3986 §3.2). */
export function siteName(site: SiteFacts): string {
  const names = new Set<string>();
  for (const seed of site.seeds) {
    const parsed = parseUriReference(seed);
    const host = parsed.ok ? parsed.value.host : undefined;
    names.add(host === undefined || !parsed.ok ? seed : `${host}${parsed.value.port === undefined || parsed.value.port === '' ? '' : `:${parsed.value.port}`}`);
  }
  const all = [...names];
  if (all.length === 0) return 'an empty index';
  return all.length <= 3 ? all.join(', ') : `${all.slice(0, 3).join(', ')} and ${all.length - 3} more`;
}
