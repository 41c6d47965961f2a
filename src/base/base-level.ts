// RFC 3986 §5.1 Establishing a Base URI: the four levels, innermost first.

/**
 * The levels of the RFC 3986 §5.1 base chain, innermost first:
 * - `base-element`: §5.1.1, the first `<base>` element with an `href`;
 * - `content-location`: §5.1.2, the encapsulating entity — the `Content-Location`
 *   header, or the legacy `Content-Base` header of RFC 2068 §14.11;
 * - `retrieval`: §5.1.3, the URL the representation was retrieved from, after all redirects;
 * - `default`: §5.1.4, a configured default, used only when there is no retrieval URL.
 */
export const BASE_LEVELS = ['base-element', 'content-location', 'retrieval', 'default'] as const;

/** Which level of the RFC 3986 §5.1 base chain gave a base. */
export type BaseLevel = (typeof BASE_LEVELS)[number];

export function isBaseLevel(value: unknown): value is BaseLevel {
  return typeof value === 'string' && (BASE_LEVELS as readonly string[]).includes(value);
}
