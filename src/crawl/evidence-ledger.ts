// Protocol evidence can lie (a misconfigured server names one URL on every page):
// two responses that both claim, by
// Content-Location, to be one URL must be one representation. The ledger keeps,
// for this run, who claimed to be what and a fingerprint of each response, and
// says when a claim contradicts an earlier one (or the URL's own response).

import type { FetchedResponse } from '../fetch/index.js';
import type { FetchRecord } from '../store/index.js';
import { bodyDigest } from './fetch-record.js';

/** A response that claimed to be another URL's representation. */
export interface Claim {
  /** The URL whose response it was (it became an alias of the target). */
  readonly fromId: number;
  /** Its fetch, to record again if the alias is revoked (the store puts a revoked alias back on the frontier). */
  readonly record: FetchRecord;
}

export type ClaimVerdict =
  | { readonly kind: 'accept' }
  | { readonly kind: 'reject'; readonly reason: string }
  /** The claim contradicts earlier ones: revoke them; requeue the target if its only representation came from them. */
  | { readonly kind: 'contradict'; readonly reason: string; readonly revoke: readonly Claim[]; readonly requeueTarget: boolean };

interface Entry {
  readonly fingerprint: string;
  readonly claims: Claim[];
  /** The target got no request of its own: it was marked fetched from the first claim. */
  isDerived: boolean;
  isContested: boolean;
}

/** How many fingerprints of responses fetched at their own URL are kept (oldest dropped first). */
export const FINGERPRINT_MEMORY = 100_000;

/**
 * What identifies a representation: a hash of the decoded text when there is one,
 * else its media type and size (a weaker test, which can only miss a contradiction,
 * never invent one between equal bodies). Never the ETag.
 */
export function fingerprintOf(response: FetchedResponse): string {
  return bodyDigest(response) ?? `${response.contentType ?? ''};${response.bytes}`;
}

export class EvidenceLedger {
  readonly #claims = new Map<number, Entry>();
  readonly #fetched = new Map<number, string>();

  /** A response for `claim.fromId` says it is `targetId`'s representation. */
  claim(targetId: number, claim: Claim, fingerprint: string): ClaimVerdict {
    const entry = this.#claims.get(targetId);
    if (entry?.isContested === true) {
      return { kind: 'reject', reason: 'earlier responses that claimed this URL differed: it is contested' };
    }
    const own = this.#fetched.get(targetId);
    if (own !== undefined && own !== fingerprint) {
      return { kind: 'reject', reason: 'the response fetched at that URL itself differs' };
    }
    if (entry === undefined) {
      this.#claims.set(targetId, { fingerprint, claims: [claim], isDerived: false, isContested: false });
      return { kind: 'accept' };
    }
    if (entry.fingerprint !== fingerprint) {
      entry.isContested = true;
      const revoke = entry.claims.splice(0);
      return {
        kind: 'contradict',
        reason: 'two responses claim to be this URL with different bodies',
        revoke,
        requeueTarget: entry.isDerived,
      };
    }
    entry.claims.push(claim);
    return { kind: 'accept' };
  }

  /** The target of an accepted claim was marked fetched from it. */
  markDerived(targetId: number): void {
    const entry = this.#claims.get(targetId);
    if (entry !== undefined) entry.isDerived = true;
  }

  /**
   * `id` was fetched at its own URL. Returns the claims its response contradicts
   * (they were accepted while it was in flight), which are then to be revoked.
   */
  fetched(id: number, fingerprint: string): readonly Claim[] {
    this.#fetched.delete(id);
    this.#fetched.set(id, fingerprint);
    if (this.#fetched.size > FINGERPRINT_MEMORY) this.#fetched.delete(this.#fetched.keys().next().value!);
    const entry = this.#claims.get(id);
    if (entry === undefined || entry.isContested || entry.fingerprint === fingerprint) return [];
    entry.isContested = true;
    return entry.claims.splice(0);
  }
}
