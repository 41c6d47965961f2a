// A cookies.txt as curl (`-c`) and wget (`--save-cookies`) write it: the Netscape
// format, one cookie a line of seven TAB-separated fields — domain, include
// subdomains (TRUE/FALSE), path, secure (TRUE/FALSE), expiry (seconds since the
// epoch, 0 for a session cookie), name, value. `#` starts a comment, except curl's
// `#HttpOnly_` prefix on the domain, which marks an HttpOnly cookie.

import { OptionError } from '../errors.js';

/** One cookie of the file, as written there. */
export interface CookieLine {
  /** Without a leading dot, lower-cased. */
  readonly domain: string;
  readonly includeSubdomains: boolean;
  readonly path: string;
  readonly isSecure: boolean;
  readonly isHttpOnly: boolean;
  /** ms since the epoch; `undefined`: a session cookie (expiry 0). */
  readonly expiresAt: number | undefined;
  readonly name: string;
  readonly value: string;
  /** 1-based, for messages. */
  readonly line: number;
}

const HTTP_ONLY_PREFIX = '#HttpOnly_';

/**
 * The cookies of a cookies.txt. A malformed line throws `OptionError` naming the line
 * (never its value); `source` names the file in that message.
 */
export function parseCookiesTxt(text: string, source: string): CookieLine[] {
  const cookies: CookieLine[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    let body = raw;
    let isHttpOnly = false;
    if (body.startsWith(HTTP_ONLY_PREFIX)) {
      isHttpOnly = true;
      body = body.slice(HTTP_ONLY_PREFIX.length);
    } else if (body.startsWith('#') || body.trim() === '') {
      continue;
    }
    const fields = body.split('\t');
    // A cookie with an empty value may lose its last TAB in files edited by hand.
    if (fields.length === 6) fields.push('');
    const bad = (why: string): OptionError => new OptionError(`Expected \`cookieJar\` ${source} to be a cookies.txt (Netscape format), line ${line}: ${why}`);
    if (fields.length !== 7) throw bad(`expected 7 TAB-separated fields, got ${fields.length}`);
    const [domainField, subdomains, path, secure, expiry, name, value] = fields as [string, string, string, string, string, string, string];
    const domain = domainField.trim().replace(/^\./, '').toLowerCase();
    if (domain === '' || /[\s/]/.test(domain)) throw bad('the domain (field 1) is empty or not a host name');
    const includeSubdomains = flag(subdomains);
    const isSecure = flag(secure);
    if (includeSubdomains === undefined) throw bad('field 2 (include subdomains) is neither TRUE nor FALSE');
    if (isSecure === undefined) throw bad('field 4 (secure) is neither TRUE nor FALSE');
    if (!path.startsWith('/')) throw bad('the path (field 3) does not start with "/"');
    if (!/^\d+$/.test(expiry.trim())) throw bad('the expiry (field 5) is not a number of seconds');
    const seconds = Number(expiry.trim());
    if (name === '') throw bad('the name (field 6) is empty');
    cookies.push({
      domain,
      includeSubdomains,
      path,
      isSecure,
      isHttpOnly,
      expiresAt: seconds === 0 ? undefined : seconds * 1000,
      name,
      value,
      line,
    });
  }
  return cookies;
}

function flag(text: string): boolean | undefined {
  const upper = text.trim().toUpperCase();
  return upper === 'TRUE' ? true : upper === 'FALSE' ? false : undefined;
}
