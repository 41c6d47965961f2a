// An independent reading of RFC 3986 Appendix A as regular expressions, and the
// Appendix B splitting regex: the oracle the hand-written parser is checked against.

const unreserved = "[A-Za-z0-9\\-._~]";
const pctEncoded = '%[0-9A-Fa-f]{2}';
const subDelims = "[!$&'()*+,;=]";
const pchar = `(?:${unreserved}|${pctEncoded}|${subDelims}|[:@])`;
const scheme = '[A-Za-z][A-Za-z0-9+\\-.]*';
const userinfo = `(?:${unreserved}|${pctEncoded}|${subDelims}|:)*`;
const decOctet = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])';
const ipv4 = `${decOctet}\\.${decOctet}\\.${decOctet}\\.${decOctet}`;
const h16 = '[0-9A-Fa-f]{1,4}';
const ls32 = `(?:${h16}:${h16}|${ipv4})`;
const ipv6 = [
  `(?:${h16}:){6}${ls32}`,
  `::(?:${h16}:){5}${ls32}`,
  `(?:${h16})?::(?:${h16}:){4}${ls32}`,
  `(?:(?:${h16}:){0,1}${h16})?::(?:${h16}:){3}${ls32}`,
  `(?:(?:${h16}:){0,2}${h16})?::(?:${h16}:){2}${ls32}`,
  `(?:(?:${h16}:){0,3}${h16})?::${h16}:${ls32}`,
  `(?:(?:${h16}:){0,4}${h16})?::${ls32}`,
  `(?:(?:${h16}:){0,5}${h16})?::${h16}`,
  `(?:(?:${h16}:){0,6}${h16})?::`,
]
  .map((alternative) => `(?:${alternative})`)
  .join('|');
const ipvFuture = `[vV][0-9A-Fa-f]+\\.(?:${unreserved}|${subDelims}|:)+`;
const ipLiteral = `\\[(?:${ipv6}|${ipvFuture})\\]`;
const regName = `(?:${unreserved}|${pctEncoded}|${subDelims})*`;
const host = `(?:${ipLiteral}|${ipv4}|${regName})`;
const authority = `(?:${userinfo}@)?${host}(?::[0-9]*)?`;
const segment = `${pchar}*`;
const segmentNz = `${pchar}+`;
const segmentNzNc = `(?:${unreserved}|${pctEncoded}|${subDelims}|@)+`;
const pathAbempty = `(?:/${segment})*`;
const pathAbsolute = `/(?:${segmentNz}(?:/${segment})*)?`;
const pathNoscheme = `${segmentNzNc}(?:/${segment})*`;
const pathRootless = `${segmentNz}(?:/${segment})*`;
const query = `(?:${pchar}|[/?])*`;
const hierPart = `(?://${authority}${pathAbempty}|${pathAbsolute}|${pathRootless}|)`;
const relativePart = `(?://${authority}${pathAbempty}|${pathAbsolute}|${pathNoscheme}|)`;
const uri = `${scheme}:${hierPart}(?:\\?${query})?(?:#${query})?`;
const relativeRef = `${relativePart}(?:\\?${query})?(?:#${query})?`;

/** URI-reference = URI / relative-ref */
export const URI_REFERENCE = new RegExp(`^(?:${uri}|${relativeRef})$`);

/** Appendix B: ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))? */
export const APPENDIX_B = /^(([^:/?#]+):)?(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?/s;
