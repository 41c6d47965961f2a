// Which element attributes hold a URL (HTML Living Standard, the "URL" and "srcset"
// content attributes of each element), and what kind of reference each one is.

/**
 * What a reference is for. The crawl follows some kinds and only records the others.
 * - `navigation`: `<a href>`, `<area href>` — a link a reader follows
 * - `frame`: `<iframe src>`, `<frame src>` — a document shown inside the page
 * - `refresh`: `<meta http-equiv=refresh content="…; url=…">` — a client-side redirect
 * - `link`: `<link href>` — stylesheets, icons, alternates, canonical, preloads …
 * - `resource`: what the page embeds — `src` of img, script, source, embed, video, audio,
 *   track and input; `srcset` of img and source, `imagesrcset` of link; `<video poster>`;
 *   `<object data>`; `href` (and `xlink:href`) of SVG image and use; the obsolete
 *   `background` of body and table parts, which browsers still load; and the `url()`s of
 *   `<style>` text and `style` attributes (the link extractor reads those)
 * - `form`: `<form action>`, `<button formaction>`, `<input formaction>`
 * - `cite`: `cite` of q, blockquote, del and ins — a source the page quotes
 */
export type LinkKind = 'navigation' | 'frame' | 'refresh' | 'link' | 'resource' | 'form' | 'cite';

/** Every kind, in the order listed above. */
export const LINK_KINDS: readonly LinkKind[] = Object.freeze([
  'navigation',
  'frame',
  'refresh',
  'link',
  'resource',
  'form',
  'cite',
]);

export function isLinkKind(value: unknown): value is LinkKind {
  return typeof value === 'string' && (LINK_KINDS as readonly string[]).includes(value);
}

/** How an attribute's value is read. */
export interface UrlAttribute {
  readonly kind: LinkKind;
  /** A srcset: several URLs, each with its descriptors. */
  readonly isSrcset: boolean;
}

const url = (kind: LinkKind): UrlAttribute => ({ kind, isSrcset: false });
const srcset: UrlAttribute = { kind: 'resource', isSrcset: true };

/** element name → attribute name → how to read it. Names are lower case, as the parser gives them. */
export const URL_ATTRIBUTES: ReadonlyMap<string, ReadonlyMap<string, UrlAttribute>> = new Map(
  Object.entries({
    a: { href: url('navigation') },
    area: { href: url('navigation') },
    // HTML §4.2.4: imagesrcset is the srcset a <link rel=preload as=image> fetches.
    link: { href: url('link'), imagesrcset: srcset },
    iframe: { src: url('frame') },
    frame: { src: url('frame') },
    img: { src: url('resource'), srcset },
    source: { src: url('resource'), srcset },
    script: { src: url('resource') },
    embed: { src: url('resource') },
    video: { src: url('resource'), poster: url('resource') },
    audio: { src: url('resource') },
    track: { src: url('resource') },
    input: { src: url('resource'), formaction: url('form') },
    object: { data: url('resource') },
    // SVG 2 §5.10 <image>, §5.6 <use>: href, and xlink:href as SVG 1.1 wrote it. Only in
    // foreign content: an HTML <image> start tag is <img> (tag-reader.ts).
    image: { href: url('resource'), 'xlink:href': url('resource') },
    use: { href: url('resource'), 'xlink:href': url('resource') },
    // HTML §15 Rendering ("The page", "Tables"): background on body and table parts maps
    // to background-image; obsolete (§16) but still loaded by browsers.
    body: { background: url('resource') },
    table: { background: url('resource') },
    thead: { background: url('resource') },
    tbody: { background: url('resource') },
    tfoot: { background: url('resource') },
    tr: { background: url('resource') },
    td: { background: url('resource') },
    th: { background: url('resource') },
    form: { action: url('form') },
    button: { formaction: url('form') },
    q: { cite: url('cite') },
    blockquote: { cite: url('cite') },
    del: { cite: url('cite') },
    ins: { cite: url('cite') },
  }).map(([element, attributes]) => [element, new Map(Object.entries(attributes))]),
);

/** Followed unless the caller says otherwise: what a reader (or the browser, unasked) navigates to. */
export const DEFAULT_FOLLOW: readonly LinkKind[] = Object.freeze(['navigation', 'frame', 'refresh']);
