// Text safe in XML 1.0 content and attribute values (https://www.w3.org/TR/xml/#syntax).

// XML 1.0 §2.2 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
// Anything else (C0 controls, U+FFFE/U+FFFF, a lone surrogate) cannot appear even as a
// character reference, so it becomes U+FFFD.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // As references they survive end-of-line handling (§2.11) and attribute-value normalization (§3.3.3).
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** `text` escaped for XML content or a quoted attribute value. */
export function xmlEscape(text: string): string {
  return text.replace(NOT_XML_CHAR, '\uFFFD').replace(/[&<>"'\t\n\r]/g, (char) => ESCAPES[char] ?? char);
}
