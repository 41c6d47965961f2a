// The RFC 3986 §5.1 base chain: pure, synchronous, no I/O, never throws on a response's facts.

export { BASE_LEVELS, isBaseLevel, type BaseLevel } from './base-level.js';
export { BASE_FINDINGS, BASE_FINDING_CODES, type BaseFinding, type BaseFindingCode } from './base-findings.js';
export {
  BASE_MODES,
  BASE_CHAIN_DEFAULTS,
  isBaseMode,
  validateBaseChainOptions,
  type BaseMode,
  type BaseChainOptions,
  type ValidBaseChainOptions,
} from './base-chain-options.js';
export {
  computeBaseChain,
  type ResponseFacts,
  type BaseChain,
  type BaseChainLevel,
  type BaseChoice,
} from './compute-base-chain.js';
export { baseLevelsDiffer } from './base-levels-differ.js';
export { isSameDocumentReference } from './same-document.js';
export { PageResolver, type ResolvedReference } from './page-resolver.js';
export {
  REFERENCE_FINDINGS,
  REFERENCE_FINDING_CODES,
  countDotSegmentsAboveRoot,
  pathToRemoveDotsFrom,
  referenceFindings,
  type ReferenceFindingCode,
} from './reference-findings.js';
