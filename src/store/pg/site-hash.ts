// The distribution column of the large tables (migrations/postgresql/001): a 32-bit hash
// of a URL's host, so that the rows of one host are kept together when the schema
// is partitioned by it or distributed with Citus. FNV-1a over the UTF-16 code units
// of the host as the key spells it (lower case after RFC 3986 §6.2.2.1).

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** The site of a URL with this host (0 for a URL without one, such as mailto:). */
export function siteOf(host: string | undefined): number {
  if (host === undefined || host === '') return 0;
  let hash = FNV_OFFSET;
  for (let i = 0; i < host.length; i++) {
    hash ^= host.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash | 0;
}
