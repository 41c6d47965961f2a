// Option checks any layer's public entry point may use: options are validated once,
// at the boundary, and a bad one throws an OptionError whose message names the option,
// what was expected and what was given (``Expected `x` to be …, got `0` (number)``).

import { OptionError, describeValue } from '../errors.js';

/** The largest delay `setTimeout` honours (2^31 − 1 ms); a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Throw unless `options` is a plain object (or `undefined`, read as `{}`). */
export function checkOptionsObject(options: unknown): Readonly<Record<string, unknown>> {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new OptionError(`Expected \`options\` to be an object, got ${describeValue(options)}`);
  }
  return options as Record<string, unknown>;
}

/**
 * Throw for a key that is not an option: a typo would otherwise be silently ignored.
 * `renamed` maps a former or foreign name to the option that replaces it.
 */
export function checkKnownKeys(
  options: Readonly<Record<string, unknown>>,
  known: readonly string[],
  renamed: Readonly<Record<string, string>>,
): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const replacement = renamed[key];
    throw new OptionError(
      replacement === undefined
        ? `Unknown option \`${key}\`; the options are ${known.map((name) => `\`${name}\``).join(', ')}`
        : `Option \`${key}\` is not supported; use \`${replacement}\``,
    );
  }
}

/** An integer in `[min, max]`, or `fallback` when the option is `undefined`. */
export function checkInteger(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `between ${min} and ${max}`;
    throw new OptionError(`Expected \`${name}\` to be an integer ${range}, got ${describeValue(value)}`);
  }
  return value;
}

/** A function, or `fallback` when the option is `undefined`. */
export function checkFunction<F>(name: string, value: unknown, fallback: F): F {
  if (value === undefined) return fallback;
  if (typeof value !== 'function') {
    throw new OptionError(`Expected \`${name}\` to be a function, got ${describeValue(value)}`);
  }
  return value as F;
}

/** A boolean, or `fallback` when the option is `undefined`. */
export function checkBoolean(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new OptionError(`Expected \`${name}\` to be true or false, got ${describeValue(value)}`);
  return value;
}
