// An exact in-memory hash table from strings to row ids, in front of SQLite tables
// that have no index on those strings (migration 002). The texts are kept as bytes
// in 16 MiB chunks rather than as JavaScript strings: 17 bytes a slot (at most
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
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Append-only UTF-8 storage for the texts, in chunks that are never copied. */
class TextArena {
  readonly #chunks: Uint8Array[] = [];
  #used = CHUNK_SIZE; // forces a first chunk

  /**
   * Store `text`: ASCII as one byte a character, anything else as UTF-16 code
   * units (two bytes each: exact even for lone surrogates, which UTF-8 cannot
   * keep apart). Returns where (chunk × 16 MiB + offset) and the length in bytes.
   */
  add(text: string, ascii: boolean): [address: number, length: number] {
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
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (ascii) chunk[start + i] = unit;
      else {
        chunk[start + 2 * i] = unit >>> 8;
        chunk[start + 2 * i + 1] = unit & 0xff;
      }
    }
    this.#used += length;
    return [(this.#chunks.length - 1) * CHUNK_SIZE + start, length];
  }

  /** Whether the bytes at `address` are `text`, stored as `add` stores it. */
  equals(address: number, length: number, text: string, ascii: boolean): boolean {
    if (length !== (ascii ? text.length : text.length * 2)) return false;
    const chunk = this.#chunks[Math.floor(address / CHUNK_SIZE)]!;
    const start = address % CHUNK_SIZE;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (ascii ? chunk[start + i] !== unit : chunk[start + 2 * i] !== unit >>> 8 || chunk[start + 2 * i + 1] !== (unit & 0xff)) {
        return false;
      }
    }
    return true;
  }
}

export class KeyTable {
  readonly #arena = new TextArena();
  #mask: number;
  #hashes: Uint32Array;
  #ids: Uint32Array;
  // Where each slot's text is in the arena, and its length in bytes.
  #addresses: Uint32Array;
  #lengths: Uint32Array;
  #ascii: Uint8Array;
  #size = 0;

  constructor(expected = 0) {
    let slots = MIN_SLOTS;
    while (slots < expected * 2) slots *= 2;
    this.#mask = slots - 1;
    this.#hashes = new Uint32Array(slots);
    this.#ids = new Uint32Array(slots);
    this.#addresses = new Uint32Array(slots);
    this.#lengths = new Uint32Array(slots);
    this.#ascii = new Uint8Array(slots);
  }

  get size(): number {
    return this.#size;
  }

  /** The id stored for exactly `text`, or `undefined`. */
  get(text: string): number | undefined {
    const hash = hashText(text);
    const ascii = isAscii(text);
    const ids = this.#ids;
    for (let slot = hash & this.#mask; ids[slot] !== EMPTY; slot = (slot + 1) & this.#mask) {
      // An ASCII text and a UTF-16 one never meet: their stored lengths differ in kind.
      if (this.#hashes[slot] === hash && this.#ascii[slot] === (ascii ? 1 : 0) && this.#arena.equals(this.#addresses[slot]!, this.#lengths[slot]!, text, ascii)) {
        return ids[slot];
      }
    }
    return undefined;
  }

  /** Remember that row `id` (≥ 1) holds `text`, which the table must not have yet. */
  add(text: string, id: number): void {
    if ((this.#size + 1) * 2 > this.#ids.length) this.#grow();
    const ascii = isAscii(text);
    const [address, length] = this.#arena.add(text, ascii);
    this.#place(hashText(text), id, address, length, ascii ? 1 : 0);
    this.#size++;
  }

  #place(hash: number, id: number, address: number, length: number, ascii: number): void {
    const ids = this.#ids;
    let slot = hash & this.#mask;
    while (ids[slot] !== EMPTY) slot = (slot + 1) & this.#mask;
    this.#hashes[slot] = hash;
    ids[slot] = id;
    this.#addresses[slot] = address;
    this.#lengths[slot] = length;
    this.#ascii[slot] = ascii;
  }

  #grow(): void {
    const [hashes, ids, addresses, lengths, ascii] = [this.#hashes, this.#ids, this.#addresses, this.#lengths, this.#ascii];
    const slots = ids.length * 2;
    this.#mask = slots - 1;
    this.#hashes = new Uint32Array(slots);
    this.#ids = new Uint32Array(slots);
    this.#addresses = new Uint32Array(slots);
    this.#lengths = new Uint32Array(slots);
    this.#ascii = new Uint8Array(slots);
    for (let slot = 0; slot < ids.length; slot++) {
      if (ids[slot] !== EMPTY) this.#place(hashes[slot]!, ids[slot]!, addresses[slot]!, lengths[slot]!, ascii[slot]!);
    }
  }
}
