// The one encoding of a link in the index: a JSON array, trailing nulls left out.
// SQLite and PostgreSQL keep a page's encoded links in one `page_link` row, whose
// `format` says which layout its arrays have; the memory store keeps the arrays of
// the current format.
//
// - Format 1 (migrations 002 and 008; rows written before migration 010): [to_url,
//   raw_href, fragment, element, attribute, base_level, rung, ladder_rung, error,
//   findings, alternate_target, met_url, line, column].
// - Format 2 (migration 010): the fields most links have first, so that the rare
//   ones are trailing nulls left out (a third less text a link): [to_url, raw_href,
//   element, attribute, base_level, rung, line, column, fragment, ladder_rung,
//   error, findings, alternate_target, met_url].
//
// In both, `ladder_rung` and `met_url` are set only where they differ from `rung`
// and `to_url` (a `protocol` link). `line` and `column` (1-based, the column in UTF-16
// code units) place the href's value in the page's source; rows written before they
// were recorded have neither (position unknown).

import type { LadderRung, NewLink } from './admitter.js';
import type { BaseLevel, LinkRow, MatchRung } from './types.js';

/** The layout of a `page_link` row's arrays. */
export type LinkFormat = 1 | 2;

/** The layout `encodeLink` writes. */
export const LINK_FORMAT: LinkFormat = 2;

type Field = string | number | readonly string[] | null;

/** One encoded link: its fields in the order of its row's `LinkFormat`. */
export type EncodedLink = readonly Field[];

/** What is encoded of a link: everything but its page and position. */
export type LinkFields = Omit<NewLink, 'fromUrlId'>;

export function encodeLink(link: LinkFields): EncodedLink {
  const encoded: Field[] = [
    link.toUrlId ?? null,
    link.rawHref,
    link.element ?? null,
    link.attribute ?? null,
    link.baseLevel ?? null,
    link.rung ?? null,
    link.line ?? null,
    link.line === undefined ? null : (link.column ?? null),
    link.fragment ?? null,
    link.ladderRung !== link.rung ? (link.ladderRung ?? null) : null,
    link.error ?? null,
    link.findings ?? null,
    link.alternateTarget ?? null,
    link.metUrlId ?? null,
  ];
  let length = encoded.length;
  while (length > 2 && encoded[length - 1] === null) length--;
  encoded.length = length;
  return encoded;
}

// Where each field is in a format's arrays.
const FIELDS = {
  1: { toUrl: 0, rawHref: 1, fragment: 2, element: 3, attribute: 4, baseLevel: 5, rung: 6, ladderRung: 7, error: 8, findings: 9, alternateTarget: 10, metUrl: 11, line: 12, column: 13 },
  2: { toUrl: 0, rawHref: 1, element: 2, attribute: 3, baseLevel: 4, rung: 5, line: 6, column: 7, fragment: 8, ladderRung: 9, error: 10, findings: 11, alternateTarget: 12, metUrl: 13 },
} as const;

/** The rung of an encoded link of `format`, without decoding the rest; `undefined` for a link without a target. */
export function rungOf(link: EncodedLink, format: LinkFormat = LINK_FORMAT): MatchRung | undefined {
  return (link[FIELDS[format].rung] ?? undefined) as MatchRung | undefined;
}

/** The link at `position` of page `fromUrlId`, as reports read it, from an array of `format`. */
export function decodeLink(fromUrlId: number, position: number, link: EncodedLink, format: LinkFormat = LINK_FORMAT): LinkRow {
  const at = FIELDS[format];
  const toUrl = (link[at.toUrl] ?? undefined) as number | undefined;
  const rung = rungOf(link, format);
  const line = (link[at.line] ?? undefined) as number | undefined;
  const findings = link[at.findings] as readonly string[] | null | undefined;
  return {
    fromUrlId,
    position,
    toUrlId: toUrl,
    rawHref: link[at.rawHref] as string,
    fragment: (link[at.fragment] ?? undefined) as string | undefined,
    element: (link[at.element] ?? undefined) as string | undefined,
    attribute: (link[at.attribute] ?? undefined) as string | undefined,
    baseLevel: (link[at.baseLevel] ?? undefined) as BaseLevel | undefined,
    rung,
    ladderRung: ((link[at.ladderRung] ?? undefined) as LadderRung | undefined) ?? (rung === 'protocol' ? undefined : rung),
    error: (link[at.error] ?? undefined) as string | undefined,
    findings: findings === null || findings === undefined ? [] : [...findings],
    alternateTarget: (link[at.alternateTarget] ?? undefined) as string | undefined,
    metUrlId: ((link[at.metUrl] ?? undefined) as number | undefined) ?? toUrl,
    line,
    column: line === undefined ? undefined : ((link[at.column] ?? undefined) as number | undefined),
  };
}
