// RFC 3986 §5.3 Component Recomposition.

import type { UriReference } from './uri-reference.js';

/** RFC 3986 §5.3: recompose a reference from its components. */
export function serialize(ref: UriReference): string {
  let result = '';
  if (ref.scheme !== undefined) result = ref.scheme + ':';
  if (ref.host !== undefined) result += '//' + serializeAuthority(ref);
  result += ref.path;
  if (ref.query !== undefined) result += '?' + ref.query;
  if (ref.fragment !== undefined) result += '#' + ref.fragment;
  return result;
}

/** RFC 3986 §5.3 without the fragment (§4.3 absolute-URI form of a URI): what names the resource. */
export function serializeWithoutFragment(ref: UriReference): string {
  let result = '';
  if (ref.scheme !== undefined) result = ref.scheme + ':';
  if (ref.host !== undefined) result += '//' + serializeAuthority(ref);
  result += ref.path;
  if (ref.query !== undefined) result += '?' + ref.query;
  return result;
}

/** RFC 3986 §3.2 authority = [ userinfo "@" ] host [ ":" port ]; "" when there is none. */
export function serializeAuthority(ref: UriReference): string {
  if (ref.host === undefined) return '';
  let authority = ref.host;
  if (ref.userinfo !== undefined) authority = ref.userinfo + '@' + authority;
  if (ref.port !== undefined) authority += ':' + ref.port;
  return authority;
}
