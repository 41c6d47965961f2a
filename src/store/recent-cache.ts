// A bounded map that keeps what was used lately: two generations of Maps, the
// older dropped whole when the newer fills up (O(1), no per-hit reordering).
// Hits in the older generation move to the newer, so hot keys survive a flip.

export class RecentCache<K, V> {
  readonly #capacity: number;
  #current = new Map<K, V>();
  #previous = new Map<K, V>();

  /** At most `capacity` entries are kept (0 turns the cache off). */
  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(key: K): V | undefined {
    const value = this.#current.get(key);
    if (value !== undefined || this.#capacity === 0) return value;
    const old = this.#previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: K, value: V): void {
    if (this.#capacity === 0) return;
    if (this.#current.size >= Math.ceil(this.#capacity / 2)) {
      this.#previous = this.#current;
      this.#current = new Map();
    }
    this.#current.set(key, value);
  }

  clear(): void {
    this.#current = new Map();
    this.#previous = new Map();
  }

  get size(): number {
    return this.#current.size + this.#previous.size;
  }
}
