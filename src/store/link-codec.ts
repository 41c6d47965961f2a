// The one encoding of a link in the index (migration 002): a JSON array in the
// column order of the `link` view, [to_url, raw_href, fragment, element, attribute,
// base_level, rung, ladder_rung, error, findings, alternate_target, met_url, line,
// column], trailing nulls left out. `ladder_rung` and `met_url` are set only where they
// differ from `rung` and `to_url` (a `protocol` link). `line` and `column` (1-based,
// the column in UTF-16 code units) place the href's value in the page's source; rows
// written before they were recorded have neither (position unknown). SQLite keeps a page's
// encoded links in one `page_link` row; the memory store keeps the same arrays.

import type { LadderRung, NewLink } from './admitter.js';
import type { BaseLevel, LinkRow, MatchRung } from './types.js';

export type EncodedLink = [
  toUrl: number | null,
  rawHref: string,
  fragment?: string | null,
  element?: string | null,
  attribute?: string | null,
  baseLevel?: BaseLevel | null,
  rung?: MatchRung | null,
  ladderRung?: LadderRung | null,
  error?: string | null,
  findings?: readonly string[] | null,
  alternateTarget?: string | null,
  metUrl?: number | null,
  line?: number | null,
  column?: number | null,
];

/** What is encoded of a link: everything but its page and position. */
export type LinkFields = Omit<NewLink, 'fromUrlId'>;

export function encodeLink(link: LinkFields): EncodedLink {
  const fragment = link.fragment ?? null;
  const element = link.element ?? null;
  const attribute = link.attribute ?? null;
  const baseLevel = (link.baseLevel as BaseLevel | undefined) ?? null;
  const rung = link.rung ?? null;
  const ladderRung = link.ladderRung !== link.rung ? (link.ladderRung ?? null) : null;
  const error = link.error ?? null;
  const findings = link.findings ?? null;
  const alternateTarget = link.alternateTarget ?? null;
  const metUrl = link.metUrlId ?? null;
  const toUrl = link.toUrlId ?? null;
  const line = link.line ?? null;
  // Built at its final length (one array a link, the hot path of every admit).
  if (line !== null) {
    return [toUrl, link.rawHref, fragment, element, attribute, baseLevel, rung, ladderRung, error, findings, alternateTarget, metUrl, line, link.column ?? null];
  }
  if (metUrl !== null) {
    return [toUrl, link.rawHref, fragment, element, attribute, baseLevel, rung, ladderRung, error, findings, alternateTarget, metUrl];
  }
  if (alternateTarget !== null) return [toUrl, link.rawHref, fragment, element, attribute, baseLevel, rung, ladderRung, error, findings, alternateTarget];
  if (findings !== null) return [toUrl, link.rawHref, fragment, element, attribute, baseLevel, rung, ladderRung, error, findings];
  if (error !== null) return [toUrl, link.rawHref, fragment, element, attribute, baseLevel, rung, ladderRung, error];
  if (ladderRung !== null) return [toUrl, link.rawHref, fragment, element, attribute, baseLevel, rung, ladderRung];
  if (rung !== null) return [toUrl, link.rawHref, fragment, element, attribute, baseLevel, rung];
  if (baseLevel !== null) return [toUrl, link.rawHref, fragment, element, attribute, baseLevel];
  if (attribute !== null) return [toUrl, link.rawHref, fragment, element, attribute];
  if (element !== null) return [toUrl, link.rawHref, fragment, element];
  if (fragment !== null) return [toUrl, link.rawHref, fragment];
  return [toUrl, link.rawHref];
}

/** The link at `position` of page `fromUrlId`, as reports read it. */
export function decodeLink(fromUrlId: number, position: number, link: EncodedLink): LinkRow {
  const [toUrl, rawHref, fragment, element, attribute, baseLevel, rung, ladderRung, error, findings, alternateTarget, metUrl, line, column] =
    link;
  return {
    fromUrlId,
    position,
    toUrlId: toUrl ?? undefined,
    rawHref,
    fragment: fragment ?? undefined,
    element: element ?? undefined,
    attribute: attribute ?? undefined,
    baseLevel: baseLevel ?? undefined,
    rung: rung ?? undefined,
    ladderRung: ladderRung ?? (rung === 'protocol' || rung === null || rung === undefined ? undefined : rung),
    error: error ?? undefined,
    findings: findings === null || findings === undefined ? [] : [...findings],
    alternateTarget: alternateTarget ?? undefined,
    metUrlId: metUrl ?? toUrl ?? undefined,
    line: line ?? undefined,
    column: line === null || line === undefined ? undefined : (column ?? undefined),
  };
}
