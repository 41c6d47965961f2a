// DESIGN.md §4: userinfo stays in keys as written, but a report never prints a
// password (RFC 3986 §3.2.1: "user:password" is deprecated, and must not be shown).

const USERINFO_PASSWORD = /^([A-Za-z][A-Za-z0-9+.-]*:)?(\/\/[^/?#@]*?:)([^/?#@]*)@/;

/**
 * `text` with the password of its userinfo (after the first ":" of the userinfo)
 * replaced by `***`: `http://u:secret@h/` → `http://u:***@h/`. Works on a raw href
 * too (`//u:p@h/x`, leading whitespace aside); anything else is returned as it is.
 */
export function redactPassword(text: string): string {
  const start = text.length - text.trimStart().length;
  const match = USERINFO_PASSWORD.exec(text.slice(start));
  if (match === null || match[3] === '') return text;
  const [, scheme = '', authorityToColon] = match;
  return `${text.slice(0, start)}${scheme}${authorityToColon}***@${text.slice(start + match[0].length)}`;
}
