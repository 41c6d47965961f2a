// A fixed set of lower-case names, looked up straight in the text being tokenized.
//
// The tag reader sees a tag or attribute name as a range of the page. Cutting it out
// and lower-casing it allocates for every tag of a page, and the string it gives is
// new each time, so every Set or Map lookup hashes it again. A name this table knows
// costs neither: `find` hashes the range in place, compares it code unit by code
// unit, and returns the table's own (interned) string. Whether a name is in the table
// is exactly whether `text.slice(start, end).toLowerCase()` is one of its names: a
// range with a non-ASCII code unit (say U+212A KELVIN SIGN, which lower-cases to "k")
// takes that slow path.

/** Open addressing over a power-of-two table, at most a quarter full. */
export class NameTable {
  readonly #byName: ReadonlyMap<string, string>;
  readonly #slots: (string | undefined)[];
  readonly #mask: number;

  /** `names` must be lower case. */
  constructor(names: Iterable<string>) {
    const unique = [...new Set(names)];
    this.#byName = new Map(unique.map((name) => [name, name]));
    let size = 16;
    while (size < unique.length * 4) size *= 2;
    this.#mask = size - 1;
    this.#slots = new Array<string | undefined>(size).fill(undefined);
    for (const name of unique) {
      let slot = hashOf(name, 0, name.length) & this.#mask;
      while (this.#slots[slot] !== undefined) slot = (slot + 1) & this.#mask;
      this.#slots[slot] = name;
    }
  }

  /** The table's name for an already lower-cased `name`, or `undefined`. */
  get(name: string): string | undefined {
    return this.#byName.get(name);
  }

  /** The table's name equal to `text.slice(start, end).toLowerCase()`, or `undefined`. */
  find(text: string, start: number, end: number): string | undefined {
    const length = end - start;
    let hash = 0;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) return this.#byName.get(text.slice(start, end).toLowerCase());
      hash = (Math.imul(hash, 31) + (c >= 0x41 && c <= 0x5a ? c | 0x20 : c)) | 0;
    }
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const name = this.#slots[slot];
      if (name === undefined) return undefined;
      if (name.length === length && equalsLowerCased(name, text, start)) return name;
    }
  }
}

function hashOf(name: string, start: number, end: number): number {
  let hash = 0;
  for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + name.charCodeAt(i)) | 0;
  return hash;
}

/** Whether `text` from `start` holds `name` (lower case, ASCII) up to ASCII case. */
function equalsLowerCased(name: string, text: string, start: number): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = text.charCodeAt(start + i);
    if ((c >= 0x41 && c <= 0x5a ? c | 0x20 : c) !== name.charCodeAt(i)) return false;
  }
  return true;
}
