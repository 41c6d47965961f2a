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

/** The slots of the table, one entry per slot in each array (0 in `ids`: empty). */
interface Slots {
  readonly hashes: Uint32Array;
  readonly ids: Uint32Array;
  /** Where the slot's text is in the arena, its length in bytes, and 1 when it is stored as ASCII. */
  readonly addresses: Uint32Array;
  readonly lengths: Uint32Array;
  readonly ascii: Uint8Array;
}

function newSlots(count: number): Slots {
  return {
    hashes: new Uint32Array(count),
    ids: new Uint32Array(count),
    addresses: new Uint32Array(count),
    lengths: new Uint32Array(count),
    ascii: new Uint8Array(count),
  };
}

export class KeyTable {
  readonly #arena = new TextArena();
  #slots: Slots;
  #mask: number;
  #size = 0;

  constructor(expected = 0) {
    let count = MIN_SLOTS;
    while (count < expected * 2) count *= 2;
    this.#slots = newSlots(count);
    this.#mask = count - 1;
  }

  get size(): number {
    return this.#size;
  }

  /** The id stored for exactly `text`, or `undefined`. */
  get(text: string): number | undefined {
    const hash = hashAndClassify(text);
    const ascii = lastAscii ? 1 : 0;
    const { hashes, ids, addresses, lengths } = this.#slots;
    const mask = this.#mask;
    for (let slot = hash & mask; ids[slot] !== EMPTY; slot = (slot + 1) & mask) {
      // An ASCII text and a UTF-16 one never meet, even where their bytes would.
      if (hashes[slot] === hash && this.#slots.ascii[slot] === ascii && this.#arena.equals(addresses[slot]!, lengths[slot]!, text, ascii === 1)) {
        return ids[slot];
      }
    }
    return undefined;
  }

  /** Remember that row `id` (≥ 1) holds `text`, which the table must not have yet. */
  add(text: string, id: number): void {
    if ((this.#size + 1) * 2 > this.#slots.ids.length) this.#grow();
    const hash = hashAndClassify(text);
    const ascii = lastAscii;
    const [address, length] = this.#arena.add(text, ascii);
    this.#place(hash, id, address, length, ascii ? 1 : 0);
    this.#size++;
  }

  // Linear probing from the hash's slot to the first empty one.
  #place(hash: number, id: number, address: number, length: number, ascii: number): void {
    const slots = this.#slots;
    let slot = hash & this.#mask;
    while (slots.ids[slot] !== EMPTY) slot = (slot + 1) & this.#mask;
    slots.hashes[slot] = hash;
    slots.ids[slot] = id;
    slots.addresses[slot] = address;
    slots.lengths[slot] = length;
    slots.ascii[slot] = ascii;
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = newSlots(old.ids.length * 2);
    this.#mask = old.ids.length * 2 - 1;
    for (let slot = 0; slot < old.ids.length; slot++) {
      if (old.ids[slot] !== EMPTY) this.#place(old.hashes[slot]!, old.ids[slot]!, old.addresses[slot]!, old.lengths[slot]!, old.ascii[slot]!);
    }
  }
}
