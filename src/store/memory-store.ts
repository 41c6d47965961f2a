// The IndexStore in plain Maps: for tests and short-lived use. It shares the
// admitter with the SQLite store and passes the same contract tests.

import { ALIAS_EVIDENCE, resourceKey } from '../ladder/index.js';
import { parseUriReference } from '../uri/index.js';
import { StoreError } from '../errors.js';
import { Admitter, type FormHit, type NewLink } from './admitter.js';
import {
  MATCH_RUNGS,
  URL_STATES,
  zeroCounts,
  type AdmitEntry,
  type AdmitResult,
  type AliasRecord,
  type ClaimedUrl,
  type FetchRecord,
  type IndexStore,
  type StoreStats,
  type UrlRecord,
  type UrlState,
} from './types.js';

interface MemoryUrl {
  id: number;
  key: string;
  host: string | undefined;
  state: UrlState;
  depth: number;
  aliasOf: number | undefined;
}

export interface MemoryStoreOptions {
  /** @default 200_000 */
  readonly cacheSize?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

export class MemoryStore implements IndexStore {
  readonly #urls: MemoryUrl[] = [];
  readonly #byKey = new Map<string, MemoryUrl>();
  readonly #forms = new Map<string, FormHit>();
  readonly #links: NewLink[] = [];
  readonly #aliases = new Map<string, AliasRecord>();
  #fetches = 0;
  readonly #admitter: Admitter;

  // Undo steps of the batch being admitted, replayed backwards if it throws.
  #undo: (() => void)[] = [];

  constructor(options?: MemoryStoreOptions) {
    const now = options?.now ?? Date.now;
    this.#admitter = new Admitter(
      {
        findForm: (text) => this.#forms.get(text),
        putForm: (text, urlId, rung) => {
          const existing = this.#forms.get(text);
          if (existing !== undefined && rung !== 'string') return;
          this.#undo.push(existing === undefined ? () => this.#forms.delete(text) : () => this.#forms.set(text, existing));
          this.#forms.set(text, { urlId: existing?.urlId ?? urlId, rung });
        },
        findUrlByKey: (key) => this.#byKey.get(key),
        urlState: (id) => this.#urls[id - 1]?.state,
        insertUrl: (url) => {
          const row: MemoryUrl = { id: this.#urls.length + 1, key: url.key, host: url.host, state: url.state, depth: url.depth, aliasOf: undefined };
          this.#urls.push(row);
          this.#byKey.set(row.key, row);
          this.#undo.push(() => {
            this.#urls.pop();
            this.#byKey.delete(row.key);
          });
          return row.id;
        },
        followSkipped: (id, depth) => {
          const row = this.#urls[id - 1];
          if (row?.state !== 'skipped') return false;
          const before = row.depth;
          this.#undo.push(() => Object.assign(row, { state: 'skipped', depth: before }));
          row.state = 'queued';
          row.depth = Math.min(row.depth, depth);
          return true;
        },
        insertLink: (link) => {
          this.#links.push(link);
          this.#undo.push(() => this.#links.pop());
        },
        aliasTarget: (id) => this.#urls[id - 1]?.aliasOf,
      },
      { cacheSize: options?.cacheSize, now },
    );
  }

  admit(batch: readonly AdmitEntry[]): AdmitResult[] {
    this.#undo = [];
    try {
      return batch.map((entry) => this.#admitter.admit(entry));
    } catch (error) {
      for (const step of this.#undo.reverse()) step();
      this.#admitter.forget();
      throw error;
    } finally {
      this.#undo = [];
    }
  }

  claim(limit: number): ClaimedUrl[] {
    return this.#urls
      .filter((u) => u.state === 'queued')
      .sort((a, b) => a.depth - b.depth || a.id - b.id)
      .slice(0, limit)
      .map((u) => {
        u.state = 'fetching';
        return { id: u.id, key: u.key, depth: u.depth, host: u.host };
      });
  }

  recordFetch(record: FetchRecord): void {
    const row = this.#require(record.urlId);
    this.#fetches++;
    if (row.state !== 'alias') row.state = record.outcome;
  }

  addAlias(record: AliasRecord): void {
    const from = this.#require(record.fromId);
    this.#require(record.toId);
    this.#aliases.set(`${record.fromId} ${record.evidence}`, record);
    if (record.evidence !== 'canonical' && record.fromId !== record.toId) {
      from.state = 'alias';
      from.aliasOf = record.toId;
    }
  }

  revokeAlias(fromId: number): void {
    const row = this.#require(fromId);
    for (const evidence of ['redirect', 'content-location'] as const) this.#aliases.delete(`${fromId} ${evidence}`);
    if (row.state === 'alias') {
      row.state = 'queued';
      row.aliasOf = undefined;
    }
  }

  getUrl(id: number): UrlRecord | undefined {
    const row = this.#urls[id - 1];
    return row && { id: row.id, key: row.key, state: row.state, depth: row.depth, aliasOf: row.aliasOf };
  }

  findUrl(uri: string): UrlRecord | undefined {
    const parsed = parseUriReference(uri);
    const row = parsed.ok ? this.#byKey.get(resourceKey(parsed.value)) : undefined;
    return row && this.getUrl(row.id);
  }

  stats(): StoreStats {
    const urlsByState = zeroCounts(URL_STATES);
    for (const u of this.#urls) urlsByState[u.state]++;
    const linksByRung = zeroCounts(MATCH_RUNGS);
    let linksWithoutTarget = 0;
    for (const l of this.#links) {
      if (l.rung === undefined) linksWithoutTarget++;
      else linksByRung[l.rung]++;
    }
    const aliasesByEvidence = zeroCounts(ALIAS_EVIDENCE);
    for (const a of this.#aliases.values()) aliasesByEvidence[a.evidence]++;
    return { urlsByState, links: this.#links.length, linksByRung, linksWithoutTarget, aliasesByEvidence, fetches: this.#fetches };
  }

  close(): void {}

  #require(id: number): MemoryUrl {
    const row = this.#urls[id - 1];
    if (row === undefined) throw new StoreError('ERR_STORE_NOT_FOUND', `no URL with id ${id} in the index`);
    return row;
  }
}
