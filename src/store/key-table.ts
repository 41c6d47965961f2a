// An exact in-memory hash table from strings to row ids, in front of SQLite tables
// that have no index on those strings (migration 002). The texts are kept as bytes
// in 16 MiB chunks rather than as JavaScript strings: 16 bytes a slot (at most
// half the slots used) plus the text itself, with nothing for the garbage
// collector to walk. Lookups compare the text itself, so no two strings can ever
// be taken for one (a hash collision only costs a comparison).

const EMPTY = 0;
const MIN_SLOTS = 1 << 10;
const CHUNK_BITS = 24;
const CHUNK_SIZE = 1 << CHUNK_BITS; // 16 MiB
const MAX_CHUNKS = 2 ** (32 - CHUNK_BITS);

/** FNV-1a over the UTF-16 code units, with a final avalanche so that the low bits spread. */
export function hashText(text: string): number {
  return avalanche(fnv1a(text));
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

function avalanche(fnv: number): number {
  let hash = fnv ^ (fnv >>> 16);
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}

// hashText and whether the text is ASCII, in one pass over it (the hot path of
// every lookup): set in `lastAscii`, read right after the call.
let lastAscii = true;
function hashAndClassify(text: string): number {
  let hash = 0x811c9dc5;
  let units = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    units |= unit;
    hash = Math.imul(hash ^ unit, 0x01000193);
  }
  lastAscii = units <= 0x7f;
  return avalanche(hash);
}

/** Append-only UTF-8 storage for the texts, in chunks that are never copied. */
class TextArena {
  readonly #chunks: Uint8Array[] = [];
  #used = CHUNK_SIZE; // forces a first chunk

  /**
   * Store `text`: ASCII as one byte a character, anything else as UTF-16 code
   * units (two bytes each: exact even for lone surrogates, which UTF-8 cannot
   * keep apart). Returns where: chunk × 16 MiB + offset.
   */
  add(text: string, ascii: boolean): number {
    const length = ascii ? text.length : text.length * 2;
    if (length > CHUNK_SIZE) throw new RangeError(`a key of ${length} bytes is longer than ${CHUNK_SIZE}`);
    if (this.#used + length > CHUNK_SIZE) {
      // Addresses are 32-bit: 256 chunks, 4 GiB of keys (some 50 million URLs).
      if (this.#chunks.length === MAX_CHUNKS) throw new RangeError('more than 4 GiB of keys in one index');
      this.#chunks.push(new Uint8Array(CHUNK_SIZE));
      this.#used = 0;
    }
    const chunk = this.#chunks[this.#chunks.length - 1]!;
    const start = this.#used;
    if (ascii) for (let i = 0; i < text.length; i++) chunk[start + i] = text.charCodeAt(i);
    else {
      for (let i = 0; i < text.length; i++) {
        const unit = text.charCodeAt(i);
        chunk[start + 2 * i] = unit >>> 8;
        chunk[start + 2 * i + 1] = unit & 0xff;
      }
    }
    this.#used += length;
    return (this.#chunks.length - 1) * CHUNK_SIZE + start;
  }

  /** Whether the bytes at `address`, of `text`'s stored length, are `text` stored as `add` stores it. */
  equals(address: number, text: string, ascii: boolean): boolean {
    const chunk = this.#chunks[Math.floor(address / CHUNK_SIZE)]!;
    const start = address % CHUNK_SIZE;
    if (ascii) {
      for (let i = 0; i < text.length; i++) if (chunk[start + i] !== text.charCodeAt(i)) return false;
      return true;
    }
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (chunk[start + 2 * i] !== unit >>> 8 || chunk[start + 2 * i + 1] !== (unit & 0xff)) return false;
    }
    return true;
  }
}

// The slots of the table, four 32-bit words each side by side, so that a probe
// reads one cache line: the hash, the id (0: empty), where the text is in the
// arena, and its length in bytes with the top bit set when it is stored as ASCII.
const WORDS = 4;
const HASH = 0;
const ID = 1;
const ADDRESS = 2;
const SHAPE = 3;
const ASCII_BIT = 0x80000000;

// The SHAPE word of a text: its stored length, and how it is stored (an ASCII
// text and a UTF-16 one never meet, even where their bytes would).
function shapeOf(text: string, ascii: boolean): number {
  return ascii ? (text.length | ASCII_BIT) >>> 0 : text.length * 2;
}

export class KeyTable {
  readonly #arena = new TextArena();
  #slots: Uint32Array;
  #mask: number;
  #size = 0;

  constructor(expected = 0) {
    let count = MIN_SLOTS;
    while (count < expected * 2) count *= 2;
    this.#slots = new Uint32Array(count * WORDS);
    this.#mask = count - 1;
  }

  get size(): number {
    return this.#size;
  }

  /** The id stored for exactly `text`, or `undefined`. */
  get(text: string): number | undefined {
    const hash = hashAndClassify(text);
    const ascii = lastAscii;
    const shape = shapeOf(text, ascii);
    const slots = this.#slots;
    const mask = this.#mask;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = slot * WORDS;
      const id = slots[at + ID]!;
      if (id === EMPTY) return undefined;
      if (slots[at + HASH] === hash && slots[at + SHAPE] === shape && this.#arena.equals(slots[at + ADDRESS]!, text, ascii)) return id;
    }
  }

  /** Remember that row `id` (≥ 1) holds `text`, which the table must not have yet. */
  add(text: string, id: number): void {
    if ((this.#size + 1) * 2 > this.#slots.length / WORDS) this.#grow();
    const hash = hashAndClassify(text);
    const ascii = lastAscii;
    const address = this.#arena.add(text, ascii);
    this.#place(hash, id, address, shapeOf(text, ascii));
    this.#size++;
  }

  // Linear probing from the hash's slot to the first empty one.
  #place(hash: number, id: number, address: number, shape: number): void {
    const slots = this.#slots;
    let slot = hash & this.#mask;
    while (slots[slot * WORDS + ID] !== EMPTY) slot = (slot + 1) & this.#mask;
    const at = slot * WORDS;
    slots[at + HASH] = hash;
    slots[at + ID] = id;
    slots[at + ADDRESS] = address;
    slots[at + SHAPE] = shape;
  }

  #grow(): void {
    const old = this.#slots;
    const count = (old.length / WORDS) * 2;
    this.#slots = new Uint32Array(count * WORDS);
    this.#mask = count - 1;
    for (let at = 0; at < old.length; at += WORDS) {
      if (old[at + ID] !== EMPTY) this.#place(old[at + HASH]!, old[at + ID]!, old[at + ADDRESS]!, old[at + SHAPE]!);
    }
  }
}
