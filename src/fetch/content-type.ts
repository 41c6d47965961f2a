// The Content-Type field (RFC 9110 §8.3): media type and charset parameter,
// read leniently — a malformed value yields what can be read, never an error.

/** HTML and XHTML: the fetcher decodes the body to text, the HTML extractor reads its links. */
export const HTML_MEDIA_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

export interface ContentType {
  /** `type/subtype`, lower-cased, without parameters; `undefined` when the value has none. */
  readonly mediaType: string | undefined;
  /** The `charset` parameter as written (unquoted, trimmed), or `undefined`. */
  readonly charset: string | undefined;
}

const NONE: ContentType = Object.freeze({ mediaType: undefined, charset: undefined });

/** RFC 9110 §8.3.1 `media-type = type "/" subtype parameters`, read leniently. */
export function parseContentType(value: string | undefined): ContentType {
  if (value === undefined) return NONE;
  const semicolon = value.indexOf(';');
  const essence = (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  const mediaType = /^[^\s/]+\/[^\s/]+$/.test(essence) ? essence : undefined;
  let charset: string | undefined;
  if (semicolon !== -1) {
    // RFC 9110 §5.6.6 parameters: name is case-insensitive, the value a token or a quoted-string.
    for (const match of value.slice(semicolon + 1).matchAll(/(?:^|;)\s*([^=;\s]+)\s*=\s*("(?:[^"\\]|\\.)*"?|[^;]*)/g)) {
      if (match[1]?.toLowerCase() !== 'charset') continue;
      const raw = (match[2] ?? '').trim();
      const unquoted = raw.startsWith('"') ? raw.slice(1, raw.endsWith('"') && raw.length > 1 ? -1 : undefined) : raw;
      const text = unquoted.replace(/\\(.)/g, '$1').trim();
      if (text !== '') charset = text;
      break;
    }
  }
  return mediaType === undefined && charset === undefined ? NONE : { mediaType, charset };
}

/** The media type of a stylesheet (RFC 2318). */
export const CSS_MEDIA_TYPE = 'text/css';

export function isCssMediaType(mediaType: string | undefined): boolean {
  return mediaType === CSS_MEDIA_TYPE;
}

export function isHtmlMediaType(mediaType: string | undefined): boolean {
  return mediaType !== undefined && HTML_MEDIA_TYPES.has(mediaType);
}

/** Markdown (RFC 7763 `text/markdown`, and the `text/x-markdown` servers still send): read and decoded for its links. */
export const MARKDOWN_MEDIA_TYPES: ReadonlySet<string> = new Set(['text/markdown', 'text/x-markdown']);

export function isMarkdownMediaType(mediaType: string | undefined): boolean {
  return mediaType !== undefined && MARKDOWN_MEDIA_TYPES.has(mediaType);
}
