// What a worker remembers of the shared index between batches: only facts
// no worker can undo once committed, so that a batch need not read them again.
//   - a URL's key names that URL for good (keys and url rows are never deleted);
//   - a spelling recorded at the `string` rung stays so (only `syntax` becomes `string`);
//   - a URL that is not `skipped` never becomes skipped again, keeps its site, and its
//     role only rises (raised while queued; `followSkipped` acts on skipped URLs only),
//     so the role remembered is one it has at least.
// Whether a URL is an alias comes and goes (recorded, then revoked): it is read fresh by
// every batch. Nothing learned inside a transaction is remembered before it commits.
// Bounded: two generations of at most `capacity` entries each; a fact met in the older
// one moves to the younger, and the older is dropped when the younger is full.

import type { UrlRole } from '../types.js';

/** A URL known to be followed (never skipped again), with its site and a role it has at least. */
export interface KnownUrl {
  readonly site: number;
  readonly role: UrlRole;
}

/** Facts a batch learned, remembered once what they stand on is committed. */
export interface LearnedFacts {
  readonly keys: [text: string, id: number][];
  readonly forms: [text: string, id: number][];
  readonly urls: [id: number, url: KnownUrl][];
  /** URLs whose role this batch raised: read again next time (the raise may not have applied). */
  readonly forget: number[];
}

export function noFacts(): LearnedFacts {
  return { keys: [], forms: [], urls: [], forget: [] };
}

/** A map of two generations: the older is dropped when the younger reaches `capacity`. */
class Generations<K, V> {
  #young = new Map<K, V>();
  #old = new Map<K, V>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(key: K): V | undefined {
    const value = this.#young.get(key);
    if (value !== undefined) return value;
    const old = this.#old.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: K, value: V): void {
    if (this.#young.size >= this.#capacity) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(key, value);
  }

  delete(key: K): void {
    this.#young.delete(key);
    this.#old.delete(key);
  }

  get size(): number {
    return this.#young.size + this.#old.size;
  }
}

export class KnownUrls {
  readonly #keys: Generations<string, number>;
  readonly #forms: Generations<string, number>;
  readonly #urls: Generations<number, KnownUrl>;
  // Guesses: after a wrong one, this many batches are read first (doubling while they stay wrong).
  #readFirst = 0;
  #backoff = 0;

  /** `capacity`: entries of each kind (keys, spellings, URLs) in a generation. */
  constructor(capacity = 500_000) {
    this.#keys = new Generations(capacity);
    this.#forms = new Generations(capacity);
    this.#urls = new Generations(capacity);
  }

  /** The URL whose key is `text`. */
  urlByKey(text: string): number | undefined {
    return this.#keys.get(text);
  }

  /** The URL a spelling seen as written (`string` rung) names. */
  urlBySpelling(text: string): number | undefined {
    return this.#forms.get(text);
  }

  url(id: number): KnownUrl | undefined {
    return this.#urls.get(id);
  }

  learn(facts: LearnedFacts): void {
    for (const [text, id] of facts.keys) this.#keys.set(text, id);
    for (const [text, id] of facts.forms) this.#forms.set(text, id);
    for (const [id, url] of facts.urls) this.#urls.set(id, url);
    for (const id of facts.forget) this.#urls.delete(id);
  }

  /**
   * Whether a batch should be admitted on what is remembered alone, taking the texts it
   * does not know to be new (its write checks that). No, for a while, after a wrong guess:
   * what this worker remembers is then not all there is (other workers, a new process).
   */
  shouldGuess(): boolean {
    if (this.#readFirst === 0) return true;
    this.#readFirst--;
    return false;
  }

  /** How the last guess went. */
  guessed(isRight: boolean): void {
    if (isRight) this.#backoff = 0;
    else this.#readFirst = this.#backoff = Math.min(Math.max(1, this.#backoff * 2), 256);
  }

  /** Entries held (keys, spellings and URLs; each at most twice its capacity). */
  get size(): number {
    return this.#keys.size + this.#forms.size + this.#urls.size;
  }
}
