// The html layer: streaming link extraction from pages, the HTML microsyntaxes that
// hold URLs (srcset, meta refresh), the HTTP Link header, and the browser-style
// clean-up of hrefs, and the URLs of stylesheets (CSS references). No I/O; never
// throws on bad markup or bad input.

export {
  HTML_FINDINGS,
  HTML_FINDING_CODES,
  type CssFindingCode,
  type HtmlFindingCode,
  type HrefFindingCode,
  type PageFindingCode,
} from './findings.js';
export {
  cleanHref,
  NOT_FETCHABLE_SCHEMES,
  SPECIAL_SCHEMES,
  type CleanedHref,
  type HrefFinding,
} from './clean-href.js';
export {
  createLinkExtractor,
  extractLinks,
  type ExtractedLinks,
  type LinkExtractor,
  type LinkExtractorOptions,
  type LinkReference,
  type PageFinding,
  type PageUrl,
} from './link-extractor.js';
export { DEFAULT_FOLLOW, LINK_KINDS, URL_ATTRIBUTES, isLinkKind, type LinkKind, type UrlAttribute } from './url-attributes.js';
export { parseSrcset, type SrcsetCandidate } from './srcset.js';
export { parseMetaRefresh, type MetaRefresh } from './meta-refresh.js';
export { parseLinkHeader, type LinkHeaderLink, type LinkHeaderParam } from './link-header.js';
export {
  CSS_REFERENCE_DEFAULTS,
  extractCssReferences,
  scanCssReferences,
  validateCssReferenceOptions,
  type CssFinding,
  type CssReference,
  type CssReferenceKind,
  type CssReferenceOptions,
  type CssReferences,
  type CssReferenceSyntax,
  type Positioned,
} from './css-references.js';
export {
  MARKDOWN_MAX_LENGTH,
  createMarkdownExtractor,
  extractMarkdownLinks,
  type MarkdownExtractor,
  type MarkdownLinkOptions,
} from './markdown-links.js';
export { LineIndex, type LineIndexOptions, type SourcePosition } from './line-index.js';
