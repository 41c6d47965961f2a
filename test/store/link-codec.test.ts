// The one encoding of a link (page_link rows, the memory store): decode ∘ encode is
// the identity on what a link records, through JSON as SQLite keeps it; rows of the
// first format (before migration 010) still read as they were written.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLink, encodeLink, type LinkFields } from '../../src/store/link-codec.js';
import { MATCH_RUNGS } from '../../src/store/index.js';

const optional = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(value, { nil: undefined });
const LADDER_RUNGS = ['new', 'string', 'syntax', 'scheme'] as const;

/** A link as the admitter makes one: a target with a rung, or an error without. */
const linkFields: fc.Arbitrary<LinkFields> = fc.oneof(
  fc
    .record({
      toUrlId: fc.integer({ min: 1, max: 1e9 }),
      rung: fc.constantFrom(...MATCH_RUNGS),
      ladderRung: fc.constantFrom(...LADDER_RUNGS),
      metUrlId: fc.integer({ min: 1, max: 1e9 }),
    })
    .map(({ toUrlId, rung, ladderRung, metUrlId }) =>
      rung === 'protocol' ? { toUrlId, rung, ladderRung, metUrlId } : { toUrlId, rung, ladderRung: rung, metUrlId: undefined },
    ),
  fc.record({ toUrlId: fc.constant(undefined), rung: fc.constant(undefined), ladderRung: fc.constant(undefined), metUrlId: fc.constant(undefined) }),
).chain((target) =>
  fc.record({
    toUrlId: fc.constant(target.toUrlId),
    rung: fc.constant(target.rung),
    ladderRung: fc.constant(target.ladderRung),
    metUrlId: fc.constant(target.metUrlId),
    rawHref: fc.string(),
    fragment: optional(fc.string()),
    element: optional(fc.string()),
    attribute: optional(fc.string()),
    baseLevel: optional(fc.constantFrom('base-element', 'content-location', 'retrieval', 'default')),
    error: target.toUrlId === undefined ? optional(fc.string()) : fc.constant(undefined),
    findings: optional(fc.array(fc.string(), { maxLength: 3 })),
    alternateTarget: optional(fc.string()),
    position: optional(fc.record({ line: fc.integer({ min: 1, max: 1e7 }), column: fc.integer({ min: 1, max: 1e7 }) })),
  }),
).map(({ position, ...fields }): LinkFields => ({ ...fields, line: position?.line, column: position?.column }));

describe('link codec', () => {
  it('decode(encode(link)) gives back every field, directly and through JSON (property)', () => {
    fc.assert(
      fc.property(linkFields, fc.nat(), fc.nat(), (link, page, position) => {
        const expected = {
          fromUrlId: page,
          position,
          toUrlId: link.toUrlId,
          rawHref: link.rawHref,
          fragment: link.fragment,
          element: link.element,
          attribute: link.attribute,
          baseLevel: link.baseLevel,
          rung: link.rung,
          ladderRung: link.ladderRung,
          error: link.error,
          findings: link.findings ?? [],
          alternateTarget: link.alternateTarget,
          metUrlId: link.metUrlId ?? link.toUrlId,
          line: link.line,
          column: link.column,
        };
        const encoded = encodeLink(link);
        expect(decodeLink(page, position, encoded)).toStrictEqual(expected);
        expect(decodeLink(page, position, JSON.parse(JSON.stringify(encoded)))).toStrictEqual(expected);
      }),
    );
  });

  it('leaves out trailing nulls, and the ladder rung and met URL where they repeat the rung and target', () => {
    const link = (fields: Partial<LinkFields>): LinkFields => ({
      toUrlId: undefined,
      rawHref: 'x',
      fragment: undefined,
      element: undefined,
      attribute: undefined,
      baseLevel: undefined,
      rung: undefined,
      ladderRung: undefined,
      metUrlId: undefined,
      error: undefined,
      findings: undefined,
      alternateTarget: undefined,
      ...fields,
    });
    // Format 2: [to, href, element, attribute, base_level, rung, line, column, fragment, ladder_rung, error, findings, alternate, met].
    expect(encodeLink(link({ toUrlId: 7, rung: 'string', ladderRung: 'string' }))).toEqual([7, 'x', null, null, null, 'string']);
    expect(encodeLink(link({ toUrlId: 7, rung: 'protocol', ladderRung: 'scheme', metUrlId: 3 }))).toEqual([
      7, 'x', null, null, null, 'protocol', null, null, null, 'scheme', null, null, null, 3,
    ]);
    expect(encodeLink(link({ error: 'ERR_URI_BAD_HOST' }))).toEqual([null, 'x', null, null, null, null, null, null, null, null, 'ERR_URI_BAD_HOST']);
    expect(encodeLink(link({}))).toEqual([null, 'x']);
    // A link of an HTML page, as most are: nothing after its position.
    expect(encodeLink(link({ toUrlId: 7, rung: 'new', ladderRung: 'new', element: 'a', attribute: 'href', baseLevel: 'retrieval', line: 12, column: 5 }))).toEqual([
      7, 'x', 'a', 'href', 'retrieval', 'new', 12, 5,
    ]);
    expect(encodeLink(link({ toUrlId: 7, rung: 'new', ladderRung: 'new', fragment: 'top' }))).toEqual([7, 'x', null, null, null, 'new', null, null, 'top']);
  });

  it('reads format 1 (rows written before migration 010) field by field', () => {
    const row = [5, 'a', 'frag', 'img', 'src', 'base-element', 'protocol', 'syntax', null, ['REF_X'], 'http://alt/', 4, 3, 9];
    expect(decodeLink(1, 2, row, 1)).toStrictEqual({
      fromUrlId: 1,
      position: 2,
      toUrlId: 5,
      rawHref: 'a',
      fragment: 'frag',
      element: 'img',
      attribute: 'src',
      baseLevel: 'base-element',
      rung: 'protocol',
      ladderRung: 'syntax',
      error: undefined,
      findings: ['REF_X'],
      alternateTarget: 'http://alt/',
      metUrlId: 4,
      line: 3,
      column: 9,
    });
  });

  it('reads a link written before positions were recorded: line and column unknown', () => {
    expect(decodeLink(1, 0, [5, 'a', null, 'a', 'href', 'retrieval', 'new'], 1)).toMatchObject({ line: undefined, column: undefined });
    expect(decodeLink(1, 0, [5, 'a', null, 'a', 'href', 'retrieval', 'new', null, null, null, null, null, 3, 9], 1)).toMatchObject({ line: 3, column: 9 });
  });

  it('reads a link written before ladder_rung and met_url were recorded (migration 002 copies old rows without them)', () => {
    expect(decodeLink(1, 0, [5, 'a', null, 'a', 'href', 'retrieval', 'scheme'], 1)).toMatchObject({ rung: 'scheme', ladderRung: 'scheme', metUrlId: 5, findings: [] });
    expect(decodeLink(1, 0, [5, 'a', null, 'a', 'href', 'retrieval', 'protocol'], 1)).toMatchObject({ rung: 'protocol', ladderRung: undefined, metUrlId: 5 });
  });
});
