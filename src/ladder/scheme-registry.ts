import { lowerCaseOutsideTriplets } from './syntax-normalize.js';

// RFC 3986 §6.2.3 Scheme-Based Normalization needs, per scheme, what that scheme's
// own definition licenses. Default ports and rules come from RFC 1738 (ftp §3.2,
// gopher §3.4, mailto §3.5, news §3.6, nntp §3.7, telnet §3.8, wais §3.9, file §3.10,
// prospero §3.11), RFC 9110 §4.2 (http, https), RFC 6455 §3 (ws, wss), RFC 8089
// (file) and RFC 6068 (mailto).

export interface SchemeSpec {
  /** Lower-case scheme name. */
  readonly name: string;
  /** The port a URI of this scheme means when it names none. */
  readonly defaultPort: number | undefined;
  /** Whether the host is an Internet host name: IDNA to ASCII, IPv6 to RFC 5952 text. */
  readonly hasInternetHost: boolean;
  /** What an empty path after an authority means (`http://a` ≡ `http://a/`). */
  readonly emptyPathWithAuthority: string | undefined;
  /** Further rules the scheme's definition licenses, on the path of an already syntax-normalized reference. */
  readonly normalizePath?: (path: string, host: string | undefined) => string;
  /** Host names that mean the same as the empty host. */
  readonly localHostNames?: readonly string[];
  /** Where the rules come from. */
  readonly source: string;
}

// RFC 1738 §3.4: "If <gopher-path> is empty ... the gophertype defaults to '1'",
// and the "/" before an empty gopher-path is optional.
function normalizeGopherPath(path: string, host: string | undefined): string {
  return host !== undefined && (path === '' || path === '/') ? '/1' : path;
}

// RFC 6068 §2 (after RFC 5322): in each addr-spec of the "to" list the domain is
// case-insensitive, the local part is not.
function normalizeMailtoPath(path: string): string {
  if (path.indexOf('@') === -1) return path;
  return path
    .split(',')
    .map((address) => {
      const at = address.lastIndexOf('@');
      if (at === -1) return address;
      const domain = address.slice(at + 1);
      return address.slice(0, at + 1) + lowerCaseOutsideTriplets(domain);
    })
    .join(',');
}

const web = (name: string, defaultPort: number, source: string): SchemeSpec => ({
  name,
  defaultPort,
  hasInternetHost: true,
  emptyPathWithAuthority: '/',
  source,
});

const internet = (name: string, defaultPort: number, source: string): SchemeSpec => ({
  name,
  defaultPort,
  hasInternetHost: true,
  emptyPathWithAuthority: undefined,
  source,
});

/** The built-in registry. */
export const SCHEMES: ReadonlyMap<string, SchemeSpec> = new Map(
  [
    web('http', 80, 'RFC 9110 §4.2.1, RFC 3986 §6.2.3'),
    web('https', 443, 'RFC 9110 §4.2.2, RFC 3986 §6.2.3'),
    web('ws', 80, 'RFC 6455 §3'),
    web('wss', 443, 'RFC 6455 §3'),
    // RFC 1738 §3.2: ftp://host is ftp://host/ (the url-path and its "/" are optional).
    web('ftp', 21, 'RFC 1738 §3.2'),
    {
      ...internet('gopher', 70, 'RFC 1738 §3.4, RFC 4266'),
      normalizePath: normalizeGopherPath,
    },
    // RFC 1738 §3.8: "telnet://<user>:<password>@<host>:<port>/" — the final "/" may be omitted.
    web('telnet', 23, 'RFC 1738 §3.8, RFC 4248'),
    internet('nntp', 119, 'RFC 1738 §3.7, RFC 5538'),
    { ...internet('news', 119, 'RFC 1738 §3.6, RFC 5538'), defaultPort: undefined },
    internet('wais', 210, 'RFC 1738 §3.9, RFC 4156'),
    internet('prospero', 1525, 'RFC 1738 §3.11, RFC 4157'),
    {
      ...internet('file', 0, 'RFC 1738 §3.10, RFC 8089 §2'),
      defaultPort: undefined,
      localHostNames: ['localhost'],
    },
    {
      name: 'mailto',
      defaultPort: undefined,
      hasInternetHost: false,
      emptyPathWithAuthority: undefined,
      normalizePath: normalizeMailtoPath,
      source: 'RFC 1738 §3.5, RFC 6068 §2',
    },
  ].map((spec): [string, SchemeSpec] => [spec.name, Object.freeze(spec)]),
);

/** The registry entry of a (lower-case) scheme, if it has one. */
export function lookupScheme(scheme: string): SchemeSpec | undefined {
  return SCHEMES.get(scheme);
}
