// RFC 3986 §3 and §4.1: the components of a URI-reference.

/**
 * A parsed URI-reference. A component that is absent is `undefined`; one that is
 * present but empty is `""` — the two are kept apart, as §5.2.1 and §5.3 require
 * (`http://a/?` has an empty query, `http://a/` none).
 *
 * The authority is present exactly when `host` is defined (it may be `""`).
 * `host` keeps the brackets of an IP-literal. `path` is always defined (maybe `""`).
 */
export interface UriReference {
  readonly scheme: string | undefined;
  readonly userinfo: string | undefined;
  readonly host: string | undefined;
  readonly port: string | undefined;
  readonly path: string;
  readonly query: string | undefined;
  readonly fragment: string | undefined;
}

/** A URI-reference that has a scheme: a URI (§3) or, without a fragment, an absolute-URI (§4.3). */
export interface AbsoluteUri extends UriReference {
  readonly scheme: string;
}

/** Whether the reference has an authority component (§3.2). */
export function hasAuthority(ref: UriReference): boolean {
  return ref.host !== undefined;
}
