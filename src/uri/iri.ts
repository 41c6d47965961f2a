// RFC 3987 §3.1 Mapping of IRIs to URIs: every character outside US-ASCII is
// replaced by the percent-encoded octets of its UTF-8 form. ASCII characters are
// left alone — the URI parser then says whether the result is a valid URI.
// The host is percent-encoded too (§3.1 step 2 allows it); the ladder's scheme
// rung turns such a DNS host into its IDNA ASCII form.

import { fail, ok, type Result } from './result.js';
import { utf8PercentEncode } from './percent-encoding.js';

/** RFC 3987 §3.1: map an IRI (or any string with raw non-ASCII) to a URI string. */
export function mapIriToUri(iri: string): Result<string> {
  let out = '';
  let copiedTo = 0;
  for (let i = 0; i < iri.length; i++) {
    const c = iri.charCodeAt(i);
    if (c < 128) continue;
    let codePoint = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = iri.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return fail('ERR_URI_BAD_IRI', i);
      codePoint = ((c - 0xd800) << 10) + (next - 0xdc00) + 0x10000;
      width = 2;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return fail('ERR_URI_BAD_IRI', i);
    }
    out += iri.slice(copiedTo, i) + utf8PercentEncode(codePoint);
    i += width - 1;
    copiedTo = i + 1;
  }
  return ok(copiedTo === 0 ? iri : out + iri.slice(copiedTo));
}
