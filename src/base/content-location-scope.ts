// How far the content-location level (RFC 3986 §5.1.2) strays from the retrieval
// URL (§5.1.3): compared at the scheme rung (§6.2.3), so spelling alone never counts.

import { normalizeReference } from '../ladder/index.js';
import type { AbsoluteUri } from '../uri/index.js';

export interface ContentLocationScope {
  /** Another scheme, host or port: the origin differs. */
  readonly isOtherOrigin: boolean;
  /** Another origin, or a path that differs before its last "/": relative references resolve elsewhere (§5.2.3). */
  readonly isOtherDirectory: boolean;
}

export function contentLocationScope(contentLocation: AbsoluteUri, retrieval: AbsoluteUri): ContentLocationScope {
  const a = normalizeReference(contentLocation, 'scheme');
  const b = normalizeReference(retrieval, 'scheme');
  const isOtherOrigin = a.scheme !== b.scheme || a.host !== b.host || a.port !== b.port;
  return { isOtherOrigin, isOtherDirectory: isOtherOrigin || a.userinfo !== b.userinfo || directoryOf(a.path) !== directoryOf(b.path) };
}

// RFC 3986 §5.2.3: what merge keeps of a base path — all but its last segment.
function directoryOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

