// What a crawl sends to prove who it is, and to whom: header fields for the seeds'
// origins (and others named one by one), HTTP Basic auth from a seed's userinfo for
// that seed's origin, and cookies by their own domain, path, secure and expiry rules
// (RFC 6265, by tough-cookie). Each is looked up per request — per redirect hop — by the
// origin or URL of that request, so a redirect or a link to another host gets nothing.
// No value is ever put in a message: errors name the option, the header's name, the
// line; never what it holds.

import { Cookie, CookieJar } from 'tough-cookie';
import { OptionError } from '../errors.js';
import { parseCookiesTxt } from './cookie-jar-file.js';
import { toRequestTarget } from './request-target.js';

/** The credentials of the requests of one crawl, asked per request (per hop). */
export interface RequestCredentials {
  /**
   * The header fields to send to `origin` (`scheme://host[:port]`, lower-cased, the
   * default port dropped), names lower-cased; an Authorization from a seed's userinfo
   * included. Empty for an origin none was given for.
   */
  headersFor(origin: string): Readonly<Record<string, string>>;
  /** The `Cookie` header for `url` (RFC 6265 §5.4), `undefined` when no cookie matches. */
  cookieHeader(url: string): string | undefined;
  /** The `Set-Cookie` fields of a response to `url`: kept for the run when asked to, else ignored. Never throws. */
  keepCookies(url: string, setCookie: readonly string[]): void;
}

export interface CredentialOptions {
  /**
   * `Name: value` fields sent on every request to the seeds' origins (`seedOrigins`),
   * their robots.txt included. A value may name environment variables, `${NAME}`
   * (from `env`); `$${` is a literal `${`.
   * @default []
   */
  readonly headers?: readonly string[] | undefined;
  /**
   * `ORIGIN Name: value` (an http(s) origin, a space, the field): for requests to that
   * origin only, beside (and over) `headers` when it is a seed's.
   * @default []
   */
  readonly headersFor?: readonly string[] | undefined;
  /** The seeds (URLs or origins) whose origins get `headers`. @default [] */
  readonly seedOrigins?: readonly string[] | undefined;
  /**
   * HTTP Basic credentials by origin: the userinfo of a seed's URL as written
   * there (`user:pa%40ss`), percent-decoded to UTF-8 here (RFC 7617 §2.1).
   * @default {}
   */
  readonly userinfo?: Readonly<Record<string, string>> | undefined;
  /** The text of a cookies.txt (`parseCookiesTxt`), and its name for messages. @default none */
  readonly cookiesTxt?: { readonly text: string; readonly source: string } | undefined;
  /** Keep the site's `Set-Cookie` for the rest of the run. @default false */
  readonly keepCookies?: boolean | undefined;
  /** Where `${NAME}` is looked up. @default {} */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * Header fields the fetcher sets itself, or that describe the connection or the
 * message rather than the request (RFC 9110 §7.6.1, RFC 9112 §6, §9.6): giving one
 * would break the transfer or its decoding, so it is refused.
 */
const REFUSED_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  host: 'the fetcher sets it from the URL',
  'content-length': 'requests have no body',
  'transfer-encoding': 'requests have no body',
  connection: 'a connection header (RFC 9110 §7.6.1)',
  'keep-alive': 'a connection header (RFC 9110 §7.6.1)',
  'proxy-connection': 'a connection header (RFC 9110 §7.6.1)',
  upgrade: 'a connection header (RFC 9110 §7.6.1)',
  te: 'a connection header (RFC 9110 §7.6.1)',
  trailer: 'requests have no body',
  expect: 'requests have no body',
  'accept-encoding': 'the fetcher asks for the codings it can undo',
  'proxy-authorization': 'proxy credentials belong in the proxy URL',
  'if-none-match': 'the fetcher sends the validators of a re-check',
  'if-modified-since': 'the fetcher sends the validators of a re-check',
  'if-match': 'the fetcher sends the validators of a re-check',
  'if-unmodified-since': 'the fetcher sends the validators of a re-check',
  'if-range': 'the fetcher reads whole bodies',
  range: 'the fetcher reads whole bodies',
});

/** RFC 9110 §5.1 `field-name = token`, §5.6.2 `tchar`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 9110 §5.5 field-value: VCHAR, obs-text, SP and HTAB; never CR, LF or NUL. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** One header field, checked. */
export interface HeaderField {
  readonly name: string;
  readonly value: string;
}

/**
 * `Name: value`, checked (RFC 9110 §5): the name a token not refused, the value
 * without CR, LF or NUL, `${NAME}` expanded from `env`. `option` and `which` name it in
 * messages; the value is never in one.
 */
export function parseHeaderField(text: string, option: string, which: string, env: Readonly<Record<string, string | undefined>>): HeaderField {
  const colon = text.indexOf(':');
  if (colon < 0) throw new OptionError(`Expected \`${option}\` to be 'Name: value', got ${which} without ":"`);
  const name = text.slice(0, colon).trim();
  if (!TOKEN.test(name)) throw new OptionError(`Expected \`${option}\` to be 'Name: value' with a field name of letters, digits and !#$%&'*+-.^_\`|~ (RFC 9110 §5.1), got ${which} with another name`);
  const refused = REFUSED_HEADERS[name.toLowerCase()];
  if (refused !== undefined) throw new OptionError(`Expected \`${option}\` not to set \`${name}\`: ${refused}`);
  const value = expandVariables(text.slice(colon + 1), env, `\`${option}\` \`${name}\``).replace(/^[ \t]+|[ \t]+$/g, '');
  if (!FIELD_VALUE.test(value)) {
    throw new OptionError(`Expected the value of \`${option}\` \`${name}\` to hold no CR, LF, NUL or other control character (RFC 9110 §5.5)`);
  }
  return { name, value };
}

/**
 * `${NAME}` replaced by the variable's value; `$${` stands for a literal `${`. A
 * variable that is not set throws `OptionError` naming it (`where` says whose value it is).
 */
export function expandVariables(text: string, env: Readonly<Record<string, string | undefined>>, where: string): string {
  return text.replace(/\$(\$?)\{([^}]*)\}/g, (whole, escaped: string, name: string) => {
    if (escaped === '$') return whole.slice(1);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new OptionError(`Expected ${where} to name environment variables as \${NAME} (letters, digits and "_"), got \${${name.length > 40 ? 'a long name' : name}}`);
    }
    const value = env[name];
    if (value === undefined) throw new OptionError(`${where} names the environment variable ${name}, which is not set`);
    return value;
  });
}

/**
 * The origin of an http(s) URL, as the fetcher names it (`scheme://host[:port]`,
 * RFC 3986 §6.2.3); `undefined` for anything else.
 */
export function requestOrigin(url: string): string | undefined {
  const target = toRequestTarget(url);
  return target.ok ? target.target.origin : undefined;
}

/** A seed as given, split: the URL without userinfo, and the userinfo of an http(s) one. */
export interface SeedUserinfo {
  readonly url: string;
  readonly userinfo: string | undefined;
}

/**
 * The userinfo of an http(s) URL taken out of it (RFC 3986 §3.2.1): the URL is
 * crawled, stored and printed without it, and the userinfo becomes Basic
 * credentials for its origin. The authority ends at the first "/", "?" or "#" and
 * the userinfo at its last "@" (as WHATWG URL reads `user:p@ss@host`). Anything
 * else is returned as it is.
 */
export function splitUserinfo(url: string): SeedUserinfo {
  const match = /^(https?:\/\/)([^/?#]*)(.*)$/is.exec(url);
  if (match === null) return { url, userinfo: undefined };
  const [, scheme, authority, rest] = match as unknown as [string, string, string, string];
  const at = authority.lastIndexOf('@');
  if (at < 0) return { url, userinfo: undefined };
  return { url: `${scheme}${authority.slice(at + 1)}${rest}`, userinfo: authority.slice(0, at) };
}

/**
 * Seeds as given, their userinfo taken out (`splitUserinfo`): the seeds to crawl, and
 * the userinfo by origin. Two seeds of one origin with different userinfo throw
 * `OptionError` (no origin has two sets of credentials).
 */
export function splitSeedUserinfo(seeds: readonly string[]): { readonly seeds: string[]; readonly userinfo: Readonly<Record<string, string>> } {
  const userinfo: Record<string, string> = Object.create(null) as Record<string, string>;
  const stripped = seeds.map((seed) => {
    if (typeof seed !== 'string') return seed;
    const split = splitUserinfo(seed);
    if (split.userinfo === undefined) return seed;
    const origin = requestOrigin(split.url);
    if (origin === undefined) return split.url;
    const before = userinfo[origin];
    if (before !== undefined && before !== split.userinfo) {
      throw new OptionError(`Expected \`seeds\` of one origin to carry one user name and password, got two for ${origin}`);
    }
    userinfo[origin] = split.userinfo;
    return split.url;
  });
  return { seeds: stripped, userinfo };
}

/**
 * RFC 7617 §2: `Basic` and the base64 of user-id ":" password, UTF-8 (§2.1), from a
 * userinfo as a URL writes it (percent-encoded, RFC 3986 §3.2.1): the first ":"
 * splits user from password, each percent-decoded to its bytes.
 */
export function basicAuthorization(userinfo: string): string {
  const colon = userinfo.indexOf(':');
  const user = colon < 0 ? userinfo : userinfo.slice(0, colon);
  const password = colon < 0 ? '' : userinfo.slice(colon + 1);
  if (/[\0-\x1f\x7f]/.test(user)) throw new OptionError('Expected a seed\'s user name to hold no control character (RFC 7617 §2)');
  const bytes = Buffer.concat([percentDecode(user), Buffer.from(':'), percentDecode(password)]);
  return `Basic ${bytes.toString('base64')}`;
}

/** `%XX` as its octet, everything else as its UTF-8 bytes; a "%" not followed by two hex digits is itself. */
function percentDecode(text: string): Buffer {
  const parts: Buffer[] = [];
  let plain = '';
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      parts.push(Buffer.from(plain, 'utf8'), Buffer.from([Number.parseInt(hex, 16)]));
      plain = '';
      i += 2;
    } else {
      plain += text[i];
    }
  }
  parts.push(Buffer.from(plain, 'utf8'));
  return Buffer.concat(parts);
}

/** The name of a `Name: value` (trimmed) when it is a token, else `undefined`: what may be shown or stored of a header. */
export function headerNameOf(text: string): string | undefined {
  const colon = text.indexOf(':');
  const name = colon < 0 ? '' : text.slice(0, colon).trim();
  return TOKEN.test(name) ? name : undefined;
}

/** `ORIGIN Name: value` split at its first run of white space. */
export function splitHeaderFor(text: string): { readonly origin: string; readonly field: string } {
  const match = /^\s*(\S+)\s+(.*)$/s.exec(text);
  return match === null ? { origin: text.trim(), field: '' } : { origin: match[1] as string, field: match[2] as string };
}

const NO_FIELDS: Readonly<Record<string, string>> = Object.freeze({});

/** RFC 6265 §6.1: 4096 bytes a cookie and 3000 cookies in all, the least a user agent should keep; no more is kept here. */
const MAX_COOKIE_BYTES = 4096;
const MAX_KEPT_COOKIES = 3000;

/**
 * The credentials of one crawl, every option checked once (a bad one throws
 * `OptionError`, whose message holds no value): given to both HTTP clients of the
 * crawl (pages and robots.txt), so the cookies the site sets are one jar.
 */
export function createRequestCredentials(options: CredentialOptions = {}): RequestCredentials {
  const env = options.env ?? {};
  const byOrigin = new Map<string, Record<string, string>>();
  const add = (origin: string, field: HeaderField): void => {
    let fields = byOrigin.get(origin);
    // Null-prototype: a field named `__proto__` is a field like any other.
    if (fields === undefined) byOrigin.set(origin, (fields = Object.create(null) as Record<string, string>));
    fields[field.name.toLowerCase()] = field.value;
  };
  const seedOrigins = new Set<string>();
  for (const seed of options.seedOrigins ?? []) {
    for (const origin of withSecureTwin(requestOrigin(seed))) seedOrigins.add(origin);
  }
  // RFC 7617: Basic credentials for the protection space of the seed's origin; a header given by name wins.
  for (const [given, userinfo] of Object.entries(options.userinfo ?? {})) {
    for (const origin of withSecureTwin(requestOrigin(given))) add(origin, { name: 'authorization', value: basicAuthorization(userinfo) });
  }
  for (const [index, text] of (options.headers ?? []).entries()) {
    if (typeof text !== 'string') throw new OptionError('Expected `header` to be a list of \'Name: value\' strings');
    const field = parseHeaderField(text, 'header', `header ${index + 1}`, env);
    for (const origin of seedOrigins) add(origin, field);
  }
  for (const [index, text] of (options.headersFor ?? []).entries()) {
    if (typeof text !== 'string') throw new OptionError('Expected `headerFor` to be a list of \'ORIGIN Name: value\' strings');
    const { origin: originText, field: fieldText } = splitHeaderFor(text);
    const origin = originOnly(originText);
    if (origin === undefined) {
      throw new OptionError(
        `Expected \`headerFor\` to be 'ORIGIN Name: value' in one argument, ORIGIN an http(s) origin such as https://cdn.example.com, got entry ${index + 1} without one`,
      );
    }
    if (fieldText === '') throw new OptionError(`Expected \`headerFor\` to be 'ORIGIN Name: value' in one argument, got ${origin} without a header field`);
    add(origin, parseHeaderField(fieldText, 'headerFor', `the entry for ${origin}`, env));
  }
  const jar = options.cookiesTxt === undefined && options.keepCookies !== true ? undefined : new CookieJar();
  if (jar !== undefined && options.cookiesTxt !== undefined) loadCookies(jar, options.cookiesTxt.text, options.cookiesTxt.source);
  const isKeeping = options.keepCookies === true;
  let kept = 0;
  const frozen = new Map([...byOrigin].map(([origin, fields]) => [origin, Object.freeze(fields)]));
  return Object.freeze({
    headersFor: (origin: string) => frozen.get(origin) ?? NO_FIELDS,
    cookieHeader: (url: string) => {
      if (jar === undefined) return undefined;
      try {
        const cookie = jar.getCookieStringSync(url);
        return cookie === '' ? undefined : cookie;
      } catch {
        return undefined;
      }
    },
    keepCookies: (url: string, setCookie: readonly string[]) => {
      if (!isKeeping || jar === undefined) return;
      for (const field of setCookie) {
        // RFC 6265 §6.1's least limits, as a bound on what a hostile site can make the jar hold.
        if (field.length > MAX_COOKIE_BYTES || kept >= MAX_KEPT_COOKIES) continue;
        kept++;
        // RFC 6265 §5.3: a cookie for another domain, or a bad one, is ignored.
        try {
          jar.setCookieSync(field, url, { ignoreError: true });
        } catch {
          // a store error: the cookie is not kept
        }
      }
    },
  });
}

/**
 * An origin, and for `http://host` on its default port its `https://host` twin: the
 * upgrade a site redirects its plain-http address to (a 301, or HSTS, RFC 6797). What
 * was given for http may go up to TLS on the same host; never down, nor to another
 * port or host.
 */
function withSecureTwin(origin: string | undefined): string[] {
  if (origin === undefined) return [];
  const plain = /^http:\/\/([^/:]+|\[[^\]]+\])$/.exec(origin);
  return plain === null ? [origin] : [origin, `https://${plain[1]}`];
}

/** An origin as `--header-for` names it: http(s), a host, at most a "/" for path; `undefined` otherwise. */
function originOnly(text: string): string | undefined {
  if (!/^https?:\/\/[^/?#@]+\/?$/i.test(text)) return undefined;
  return requestOrigin(text);
}

/** Each cookie of the file into the jar, by the rules a Set-Cookie from its domain would meet (RFC 6265 §5.3). */
function loadCookies(jar: CookieJar, text: string, source: string): void {
  const now = Date.now();
  for (const line of parseCookiesTxt(text, source)) {
    if (line.expiresAt !== undefined && line.expiresAt <= now) continue;
    const cookie = new Cookie({
      key: line.name,
      value: line.value,
      path: line.path,
      secure: line.isSecure,
      httpOnly: line.isHttpOnly,
      expires: line.expiresAt === undefined ? 'Infinity' : new Date(line.expiresAt),
      // A host-only cookie (include subdomains FALSE) gets its domain from the URL it is set for.
      ...(line.includeSubdomains ? { domain: line.domain } : {}),
    });
    const host = line.domain.includes(':') ? `[${line.domain}]` : line.domain;
    try {
      jar.setCookieSync(cookie, `${line.isSecure ? 'https' : 'http'}://${host}${line.path}`);
    } catch {
      // tough-cookie's message may quote the cookie: not shown.
      throw new OptionError(`Expected \`cookieJar\` ${source} to hold cookies a site could set, line ${line.line}: ${line.domain} is a public suffix or not a host name`);
    }
  }
}
