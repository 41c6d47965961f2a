// The RFC 3986 §6.2 comparison ladder: pure, synchronous.

export { RUNGS, isRung, rungLevel, type Rung, type SyntacticRung } from './rung.js';
export { normalizeSyntax, lowerCaseOutsideTriplets } from './syntax-normalize.js';
export { normalizeScheme } from './scheme-normalize.js';
export { SCHEMES, lookupScheme, type SchemeSpec } from './scheme-registry.js';
export {
  DEFAULT_RUNG,
  normalizeReference,
  normalizeParsed,
  resourceKey,
  resourceKeyOf,
  ladderForms,
  normalKeyPrefix,
  type LadderForms,
  tryNormalize,
  validateNormalizeOptions,
  type NormalizeOptions,
} from './normalize.js';
export { compareReferences, tryCompare, type Comparison, type CompareOptions } from './compare.js';
export {
  AliasMap,
  ALIAS_EVIDENCE,
  ALIAS_MAKING_EVIDENCE,
  CONTENT_EVIDENCE,
  EVIDENCE_WEIGHT,
  RESOURCE_EVIDENCE,
  isAliasMaking,
  splitByEvidence,
  type AliasEdge,
  type AliasEvidence,
  type AliasMapOptions,
  type AliasResolution,
} from './alias-map.js';
export { urlDifference, type UrlDifference } from './url-difference.js';
export { walkAliases, AliasEnds, type AliasNode, type AliasWalk } from './alias-walk.js';
