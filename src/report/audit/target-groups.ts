// Findings by target: a missing page linked from 17 pages is one thing to fix, not
// 17. Groups are ranked by severity, then by how many pages link to the target;
// each lists every referring link with its href as written and where it is.

import { SEVERITY_RANK } from './codes.js';
import type { AuditFinding, Severity } from './finding.js';

/** The findings of one code about one target. */
export interface TargetGroup {
  readonly code: string;
  readonly severity: Severity;
  /** The target; without its fragment, except for `LINK_FRAGMENT_MISSING` (the fragment is what is wrong). */
  readonly target: string;
  /** The target's HTTP status, else its error code, when the findings say. */
  readonly status: number | string | undefined;
  /** How many distinct pages link to it (with this finding). */
  readonly pages: number;
  /** Every finding of the group, in the order they came (page order). */
  readonly findings: readonly AuditFinding[];
}

export interface TargetGroups {
  readonly groups: readonly TargetGroup[];
  /** Findings that have no target (about a page, or an href that did not resolve). */
  readonly withoutTarget: readonly AuditFinding[];
}

/** The key a finding is grouped under, or `undefined` when it has no target. */
export function targetKey(f: AuditFinding): string | undefined {
  if (f.target === undefined) return undefined;
  const target = f.code === 'LINK_FRAGMENT_MISSING' ? f.target : withoutFragment(f.target);
  return `${f.code} ${target}`;
}

/**
 * The HTTP status a finding's detail records; its error code instead when there is
 * no status, or the status is a redirect that could not be followed (a loop, no Location).
 */
export function findingStatus(f: AuditFinding): number | string | undefined {
  const status = f.detail['status'];
  const errorCode = f.detail['errorCode'];
  if (errorCode !== undefined && (typeof status !== 'number' || (status >= 300 && status < 400))) return errorCode;
  return status;
}

/** Group `findings` by code and target, most severe first, then most linked. */
export function groupByTarget(findings: readonly AuditFinding[]): TargetGroups {
  const byKey = new Map<string, { first: AuditFinding; target: string; pages: Set<string | undefined>; findings: AuditFinding[] }>();
  const withoutTarget: AuditFinding[] = [];
  for (const f of findings) {
    const key = targetKey(f);
    if (key === undefined) {
      withoutTarget.push(f);
      continue;
    }
    let group = byKey.get(key);
    if (group === undefined) {
      group = { first: f, target: key.slice(f.code.length + 1), pages: new Set(), findings: [] };
      byKey.set(key, group);
    }
    group.pages.add(f.page);
    group.findings.push(f);
  }
  const groups = [...byKey.values()].map(
    (g): TargetGroup => ({
      code: g.first.code,
      severity: g.first.severity,
      target: g.target,
      status: findingStatus(g.first),
      pages: g.pages.size,
      findings: g.findings,
    }),
  );
  groups.sort(
    (a, b) =>
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      b.pages - a.pages ||
      b.findings.length - a.findings.length ||
      (a.target < b.target ? -1 : a.target > b.target ? 1 : 0) ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
  return { groups, withoutTarget };
}

/** How many distinct pages have a finding of the same code on the same target, per group key. */
export function countInlinks(findings: readonly AuditFinding[]): ReadonlyMap<string, number> {
  const pages = new Map<string, Set<string | undefined>>();
  for (const f of findings) {
    const key = targetKey(f);
    if (key === undefined) continue;
    let set = pages.get(key);
    if (set === undefined) pages.set(key, (set = new Set()));
    set.add(f.page);
  }
  return new Map([...pages].map(([key, set]) => [key, set.size]));
}

function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash === -1 ? uri : uri.slice(0, hash);
}
