// The order claims take queued URLs in, the same on every store: shallowest first and,
// within a depth, hosts in turn — every host's first URL (lowest id first) before any
// host's second — so that one host with many queued URLs does not keep the others
// waiting behind it (its requests are spaced by its per-host limit and delay; the
// others' would sit idle). Turns are dealt among the first TURN_WINDOW queued URLs by
// (depth, id): a host whose first URL lies past them waits until the frontier ahead of
// it is that short, and the claim's cost stays bounded. PostgreSQL keeps each host's
// first queued URL in the host's row and reads hosts in that order (pg-frontier.ts).
// The window is short because dealing turns reads all of it (about 2 µs a URL on SQLite).

/** How many queued URLs (shallowest, then oldest) a claim deals turns among. */
export const TURN_WINDOW = 256;

/** The candidates (in (depth, id) order) a claim of `limit` takes, in turn order. */
export function inTurns<T extends { readonly id: number; readonly depth: number; readonly host?: string | null | undefined }>(candidates: readonly T[], limit: number): T[] {
  const seen = new Map<string, number>();
  const ranked = candidates.slice(0, TURN_WINDOW).map((row) => {
    const key = `${row.depth} ${row.host ?? ''}`;
    const turn = (seen.get(key) ?? 0) + 1;
    seen.set(key, turn);
    return { row, turn };
  });
  ranked.sort((a, b) => a.row.depth - b.row.depth || a.turn - b.turn || a.row.id - b.row.id);
  return ranked.slice(0, limit).map((r) => r.row);
}
