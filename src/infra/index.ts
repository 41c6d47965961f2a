// The bottom layer: primitives every other layer may use (ASCII whitespace, option checks).
// Pure: no npm package and no node: module.

export { asciiLowerCase, isAsciiWhitespace, skipAsciiWhitespace, splitTokens, trimAsciiWhitespace } from './ascii-whitespace.js';
export {
  MAX_TIMER_MS,
  checkBoolean,
  checkFunction,
  checkInteger,
  checkKnownKeys,
  checkOptionsObject,
} from './option-checks.js';
