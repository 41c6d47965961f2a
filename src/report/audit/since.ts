// `audit --since`: which findings are new since an earlier state of the site, and
// which were fixed. A finding is known across runs by its identity — its code, the
// page's URL key, the target's URL key (with the fragment the href carries) and the
// href as written — never by its line, message or detail, which change when the page
// is edited or the target answers another error status: a link still broken is the
// same finding. A site-wide finding has the empty page; a finding without a target
// or href has the empty target or href.

import type { FindingIdentity, IndexReader } from '../../store/index.js';
import { audit } from './audit.js';
import { AUDIT_CODES, isAuditCode } from './codes.js';
import type { AuditFinding, AuditFindings } from './finding.js';

/** The identity a finding is known by from run to run (kept in the `run_finding` table). */
export function findingIdentity(f: AuditFinding): FindingIdentity {
  return { code: f.code, page: f.page ?? '', target: f.target ?? '', href: f.rawHref ?? '' };
}

/** One string per identity, for sets. */
export function identityKey(id: FindingIdentity): string {
  return JSON.stringify([id.code, id.page, id.target, id.href]);
}

/** The identities of every finding of the audit of `reader`, each once. */
export async function auditIdentities(reader: IndexReader): Promise<FindingIdentity[]> {
  const byKey = new Map<string, FindingIdentity>();
  for await (const f of audit(reader)) {
    const id = findingIdentity(f);
    byKey.set(identityKey(id), id);
  }
  return [...byKey.values()];
}

/**
 * A finding known only by its identity (kept for an earlier run): its severity and
 * message are the catalog's for its code; it has no line, column or detail. A code
 * the catalog no longer has (an index of another version) is `info`.
 */
export function identityFinding(id: FindingIdentity): AuditFinding {
  const spec = isAuditCode(id.code) ? AUDIT_CODES[id.code] : undefined;
  return {
    code: id.code,
    severity: spec?.severity ?? 'info',
    page: id.page === '' ? undefined : id.page,
    rawHref: id.href === '' ? undefined : id.href,
    target: id.target === '' ? undefined : id.target,
    message: spec?.summary ?? id.code,
    detail: {},
  };
}

/** What changed between two audits. */
export interface FindingChanges {
  /** Findings now whose identity the earlier state did not have, in the audit's order. */
  readonly added: readonly AuditFinding[];
  /** Findings of the earlier state whose identity is gone now, in its order. */
  readonly fixed: readonly AuditFinding[];
}

/** The changes, and every finding of the earlier state (identities as `identityFinding`s). */
export interface FindingComparison extends FindingChanges {
  readonly before: readonly AuditFinding[];
}

/**
 * Compare the findings `now` with those `before` (full findings, or identities kept
 * for a run: those fixed are then `identityFinding`s). Findings of one identity
 * (an href written twice on a page) are all new or all fixed together.
 */
export async function compareFindings(before: AuditFindings | Iterable<FindingIdentity>, now: AuditFindings): Promise<FindingComparison> {
  const earlier: AuditFinding[] = [];
  for await (const item of before) earlier.push(isFinding(item) ? item : identityFinding(item));
  const earlierKeys = new Set(earlier.map((f) => identityKey(findingIdentity(f))));
  const nowKeys = new Set<string>();
  const added: AuditFinding[] = [];
  for await (const f of now) {
    const key = identityKey(findingIdentity(f));
    nowKeys.add(key);
    if (!earlierKeys.has(key)) added.push(f);
  }
  const fixed = earlier.filter((f) => !nowKeys.has(identityKey(findingIdentity(f))));
  return { added, fixed, before: earlier };
}

function isFinding(item: AuditFinding | FindingIdentity): item is AuditFinding {
  return 'severity' in item;
}
