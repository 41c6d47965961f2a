// Which hash partition PostgreSQL routes a site to (`PARTITION BY HASH (site)`, site an
// integer), computed here so that a statement about one site can name that partition
// itself: a statement naming the partitioned table locks every partition at each
// execution. PostgreSQL's own steps: the key hashed by hashint4extended with the
// partitioning seed (Bob Jenkins's lookup3, as its hash_bytes_uint32_extended), that
// hash combined into a row hash starting at 0 (hash_combine64), and the row hash modulo
// the partition count is the partition's remainder. Tested against the server's
// satisfies_hash_partition (test/store/pg/hash-partition.test.ts).

const MASK64 = (1n << 64n) - 1n;
/** HASH_PARTITION_SEED of PostgreSQL's partitioning (below 2^63: a bigint in SQL too). */
export const PARTITION_SEED = 0x7a5b22367996dcfdn;
/** The constant of hash_combine64 (below 2^63). */
export const HASH_COMBINE = 0x49a0f4dd15e5a8e3n;

function rot(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** hash_bytes_uint32_extended: lookup3 over one 32-bit word, with a 64-bit seed. */
function hashUint32Extended(k: number, seed: bigint): bigint {
  let a = (0x9e3779b9 + 4 + 3923095) >>> 0;
  let b = a;
  let c = a;
  if (seed !== 0n) {
    a = (a + Number(seed >> 32n)) >>> 0;
    b = (b + Number(seed & 0xffffffffn)) >>> 0;
    // mix(a, b, c)
    a = (a - c) >>> 0; a = (a ^ rot(c, 4)) >>> 0; c = (c + b) >>> 0;
    b = (b - a) >>> 0; b = (b ^ rot(a, 6)) >>> 0; a = (a + c) >>> 0;
    c = (c - b) >>> 0; c = (c ^ rot(b, 8)) >>> 0; b = (b + a) >>> 0;
    a = (a - c) >>> 0; a = (a ^ rot(c, 16)) >>> 0; c = (c + b) >>> 0;
    b = (b - a) >>> 0; b = (b ^ rot(a, 19)) >>> 0; a = (a + c) >>> 0;
    c = (c - b) >>> 0; c = (c ^ rot(b, 4)) >>> 0; b = (b + a) >>> 0;
  }
  a = (a + (k >>> 0)) >>> 0;
  // final(a, b, c)
  c = (c ^ b) >>> 0; c = (c - rot(b, 14)) >>> 0;
  a = (a ^ c) >>> 0; a = (a - rot(c, 11)) >>> 0;
  b = (b ^ a) >>> 0; b = (b - rot(a, 25)) >>> 0;
  c = (c ^ b) >>> 0; c = (c - rot(b, 16)) >>> 0;
  a = (a ^ c) >>> 0; a = (a - rot(c, 4)) >>> 0;
  b = (b ^ a) >>> 0; b = (b - rot(a, 14)) >>> 0;
  c = (c ^ b) >>> 0; c = (c - rot(b, 24)) >>> 0;
  return (BigInt(b) << 32n) | BigInt(c);
}

/** The remainder of the partition (of `partitions`, by `PARTITION BY HASH (site)`) that holds `site`'s rows. */
export function partitionOfSite(site: number, partitions: number): number {
  const hash = hashUint32Extended(site >>> 0, PARTITION_SEED);
  // hash_combine64(0, hash): 0 ^ (hash + COMBINE + (0 << 54) + (0 >> 7)).
  const row = (hash + HASH_COMBINE) & MASK64;
  return Number(row % BigInt(partitions));
}
