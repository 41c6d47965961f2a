// Putting a URL back on the frontier with what IndexStore offers today.

import type { IndexStore } from '../store/index.js';

/**
 * Move `id` (claimed but not fetched, or marked fetched from evidence since
 * contradicted) back to `queued`. IndexStore has no such method yet; its
 * documented `revokeAlias` ("undo an alias and queue it again") does it for an
 * alias, so the URL is made an alias of `otherId` for an instant and revoked: the
 * alias row is written and deleted in the same synchronous step, and the store's
 * counts are as before. Replace with `store.requeue(id)` once the store has it.
 */
export function requeueUrl(store: IndexStore, id: number, otherId: number): void {
  if (otherId === id) return;
  store.addAlias({ fromId: id, toId: otherId, evidence: 'redirect', detail: 'linkladder: requeue' });
  store.revokeAlias(id);
}
