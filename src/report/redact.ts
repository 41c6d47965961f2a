// Userinfo stays in keys as written (it is part of the URI's identity), but nothing the tool prints shows a
// password (RFC 3986 §3.2.1: "user:password" is deprecated, and must not be shown).
// The password is what follows the first ":" of the userinfo — written ":" or "%3A",
// since a percent-encoded colon hides the same secret from a reader.

const USERINFO_PASSWORD = /^([A-Za-z][A-Za-z0-9+.-]*:)?(\/\/)([^/?#@]*)@/;

/** Every authority with a userinfo in a line of text (a URL, JSON, a table). */
const USERINFO_IN_TEXT = /\/\/([^\s/?#@"'<>\\]*)@/g;

/**
 * `text` with the password of its userinfo replaced by `***`:
 * `http://u:secret@h/` → `http://u:***@h/`. Works on a raw href too (`//u:p@h/x`,
 * leading whitespace aside); anything else is returned as it is.
 */
export function redactPassword(text: string): string {
  const start = text.length - text.trimStart().length;
  const match = USERINFO_PASSWORD.exec(text.slice(start));
  if (match === null) return text;
  const [whole, scheme = '', slashes, userinfo = ''] = match;
  const redacted = redactUserinfo(userinfo);
  return redacted === userinfo ? text : `${text.slice(0, start)}${scheme}${slashes}${redacted}@${text.slice(start + whole.length)}`;
}

/** `text` with every password of every URL in it replaced by `***`: for lines the CLI prints. */
export function redactPasswords(text: string): string {
  if (!text.includes('@')) return text;
  return text.replace(USERINFO_IN_TEXT, (whole, userinfo: string) => {
    const redacted = redactUserinfo(userinfo);
    return redacted === userinfo ? whole : `//${redacted}@`;
  });
}

// RFC 3986 §3.2.1 userinfo = user [ ":" password ]; an empty password is none.
function redactUserinfo(userinfo: string): string {
  const colon = userinfo.indexOf(':');
  const encoded = userinfo.search(/%3a/i);
  const end = colon === -1 ? (encoded === -1 ? -1 : encoded + 3) : encoded === -1 || colon < encoded ? colon + 1 : encoded + 3;
  if (end === -1 || end === userinfo.length) return userinfo;
  return `${userinfo.slice(0, end)}***`;
}
