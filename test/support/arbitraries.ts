// fast-check arbitraries that produce strings valid under the RFC 3986 grammar
// (Appendix A), built component by component.

import fc from 'fast-check';

const ALPHA = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGIT = '0123456789';
const UNRESERVED = ALPHA + DIGIT + '-._~';
const SUB_DELIMS = "!$&'()*+,;=";
const HEX = '0123456789abcdefABCDEF';

const charFrom = (chars: string): fc.Arbitrary<string> => fc.constantFrom(...chars.split(''));

/** pct-encoded = "%" HEXDIG HEXDIG */
export const pctEncoded: fc.Arbitrary<string> = fc
  .tuple(charFrom(HEX), charFrom(HEX))
  .map(([a, b]) => `%${a}${b}`);

const stringOf = (chars: string, maxLength = 8, withPct = true): fc.Arbitrary<string> =>
  fc
    .array(withPct ? fc.oneof({ weight: 6, arbitrary: charFrom(chars) }, { weight: 1, arbitrary: pctEncoded }) : charFrom(chars), {
      maxLength,
    })
    .map((parts) => parts.join(''));

export const scheme: fc.Arbitrary<string> = fc
  .tuple(charFrom(ALPHA), stringOf(ALPHA + DIGIT + '+-.', 6, false))
  .map(([first, rest]) => first + rest);

export const userinfo = stringOf(UNRESERVED + SUB_DELIMS + ':', 8);
export const regName = stringOf(UNRESERVED + SUB_DELIMS, 10);
export const decOctet = fc.integer({ min: 0, max: 255 }).map(String);
export const ipv4 = fc.tuple(decOctet, decOctet, decOctet, decOctet).map((o) => o.join('.'));

/** Eight 16-bit pieces. */
export const ipv6Pieces = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), {
  minLength: 8,
  maxLength: 8,
});

/** An IPv6address in one of its many spellings, with the pieces it stands for. */
export const ipv6 = fc
  .tuple(ipv6Pieces, fc.boolean(), fc.boolean(), fc.nat(), fc.nat(), fc.boolean())
  .map(([pieces, upper, padded, runStart, runLength, dottedTail]) => {
    const hex = (v: number): string => {
      let text = v.toString(16);
      if (padded) text = text.padStart(4, '0');
      return upper ? text.toUpperCase() : text;
    };
    const useTail = dottedTail;
    const hexCount = useTail ? 6 : 8;
    const words = pieces.slice(0, hexCount).map(hex);
    const tail = useTail ? `${pieces[6]! >> 8}.${pieces[6]! & 255}.${pieces[7]! >> 8}.${pieces[7]! & 255}` : undefined;
    // Compress a run of zero pieces with "::" when there is one at the chosen place.
    const start = runStart % hexCount;
    let end = start;
    while (end < hexCount && end - start < 1 + (runLength % hexCount) && pieces[end] === 0) end++;
    let text: string;
    if (end > start) {
      const left = words.slice(0, start).join(':');
      const right = [...words.slice(end), ...(tail ? [tail] : [])].join(':');
      text = `${left}::${right}`;
    } else {
      text = [...words, ...(tail ? [tail] : [])].join(':');
    }
    return { text, pieces };
  });

export const ipvFuture = fc
  .tuple(stringOf(HEX, 3, false).filter((s) => s !== ''), stringOf(UNRESERVED + SUB_DELIMS + ':', 6, false).filter((s) => s !== ''))
  .map(([version, tail]) => `v${version}.${tail}`);

export const host: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: regName },
  { weight: 1, arbitrary: ipv4 },
  { weight: 1, arbitrary: ipv6.map((v) => `[${v.text}]`) },
  { weight: 1, arbitrary: ipvFuture.map((v) => `[${v}]`) },
);

export const port = stringOf(DIGIT, 5, false);

const PCHAR = UNRESERVED + SUB_DELIMS + ':@';
/** A path segment, with a good share of dot segments. */
export const segment: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: stringOf(PCHAR, 6) },
  { weight: 1, arbitrary: fc.constantFrom('.', '..', '%2E', '%2e%2E', '') },
);
const segmentNoColon = fc.oneof(
  { weight: 5, arbitrary: stringOf(UNRESERVED + SUB_DELIMS + '@', 6) },
  { weight: 1, arbitrary: fc.constantFrom('.', '..') },
);
export const queryOrFragment = stringOf(PCHAR + '/?', 10);

const segments = fc.array(segment, { maxLength: 6 });

/** path-abempty = *( "/" segment ) */
export const pathAbempty = segments.map((s) => s.map((x) => '/' + x).join(''));
/** path-absolute = "/" [ segment-nz *( "/" segment ) ] */
export const pathAbsolute = fc
  .tuple(segment.filter((s) => s !== ''), segments)
  .map(([first, rest]) => '/' + [first, ...rest].join('/'))
  .chain((p) => fc.constantFrom(p, '/'));
/** path-rootless = segment-nz *( "/" segment ) */
export const pathRootless = fc.tuple(segment.filter((s) => s !== ''), segments).map(([f, r]) => [f, ...r].join('/'));
/** path-noscheme = segment-nz-nc *( "/" segment ) */
export const pathNoscheme = fc
  .tuple(segmentNoColon.filter((s) => s !== ''), segments)
  .map(([f, r]) => [f, ...r].join('/'));

const optional = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.option(arb, { nil: undefined, freq: 2 });

export interface Parts {
  scheme: string | undefined;
  userinfo: string | undefined;
  host: string | undefined;
  port: string | undefined;
  path: string;
  query: string | undefined;
  fragment: string | undefined;
}

const authority = fc.record({ userinfo: optional(userinfo), host, port: optional(port) });

/** The components of a valid URI-reference, with or without a scheme. */
export function referenceParts(options: { withScheme?: boolean } = {}): fc.Arbitrary<Parts> {
  const schemeArb = options.withScheme === true ? scheme : options.withScheme === false ? fc.constant(undefined) : optional(scheme);
  return fc
    .tuple(schemeArb, optional(authority), optional(queryOrFragment), optional(queryOrFragment))
    .chain(([s, auth, query, fragment]) => {
      const pathArb =
        auth !== undefined
          ? pathAbempty
          : fc.oneof(pathAbsolute, s !== undefined ? pathRootless : pathNoscheme, fc.constant(''));
      return pathArb.map(
        (path): Parts => ({
          scheme: s,
          userinfo: auth?.userinfo,
          host: auth?.host,
          port: auth?.port,
          path,
          query,
          fragment,
        }),
      );
    });
}

/** RFC 3986 §5.3, written independently of the code under test. */
export function compose(p: Parts): string {
  let out = p.scheme !== undefined ? `${p.scheme}:` : '';
  if (p.host !== undefined) {
    out += '//' + (p.userinfo !== undefined ? `${p.userinfo}@` : '') + p.host + (p.port !== undefined ? `:${p.port}` : '');
  }
  out += p.path;
  if (p.query !== undefined) out += `?${p.query}`;
  if (p.fragment !== undefined) out += `#${p.fragment}`;
  return out;
}

export const uriReference = referenceParts().map(compose);
export const absoluteUri = referenceParts({ withScheme: true }).map(compose);
export const relativeRef = referenceParts({ withScheme: false }).map(compose);
/** Absolute URIs of a hierarchical kind (with authority), usable as bases of relative paths. */
export const hierarchicalBase = referenceParts({ withScheme: true })
  .filter((p) => p.host !== undefined)
  .map((p) => compose({ ...p, fragment: undefined }));
