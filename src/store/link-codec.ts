// The one encoding of a link in the index (migration 002): a JSON array in the
// column order of the `link` view, [to_url, raw_href, fragment, element, attribute,
// base_level, rung, ladder_rung, error, findings, alternate_target, met_url],
// trailing nulls left out. `ladder_rung` and `met_url` are set only where they
// differ from `rung` and `to_url` (a `protocol` link). SQLite keeps a page's
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
];

/** What is encoded of a link: everything but its page and position. */
export type LinkFields = Omit<NewLink, 'fromUrlId'>;

export function encodeLink(link: LinkFields): EncodedLink {
  const fields: EncodedLink = [
    link.toUrlId ?? null,
    link.rawHref,
    link.fragment ?? null,
    link.element ?? null,
    link.attribute ?? null,
    (link.baseLevel as BaseLevel | undefined) ?? null,
    link.rung ?? null,
    link.ladderRung !== link.rung ? (link.ladderRung ?? null) : null,
    link.error ?? null,
    link.findings ?? null,
    link.alternateTarget ?? null,
    link.metUrlId ?? null,
  ];
  let end = fields.length;
  while (end > 2 && fields[end - 1] === null) end--;
  return end === fields.length ? fields : (fields.slice(0, end) as EncodedLink);
}

/** The link at `position` of page `fromUrlId`, as reports read it. */
export function decodeLink(fromUrlId: number, position: number, link: EncodedLink): LinkRow {
  const [toUrl, rawHref, fragment, element, attribute, baseLevel, rung, ladderRung, error, findings, alternateTarget, metUrl] = link;
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
  };
}
