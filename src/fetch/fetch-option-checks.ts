// Checks of options that only the fetcher and the robots.txt policy have.

import { OptionError, describeValue } from '../errors.js';

/** A string, or `fallback` when the option is `undefined`. */
export function checkUserAgent(value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  // RFC 9110 §10.1.5: a field value; CR, LF and NUL would make undici refuse every request.
  if (typeof value !== 'string' || value.trim() === '' || /[\0\r\n]/.test(value)) {
    throw new OptionError(
      `Expected \`userAgent\` to be a non-empty string without CR, LF or NUL, got ${describeValue(value)}`,
    );
  }
  return value;
}

/** Host names or IP literals, lower-cased, IPv6 literals without brackets; `[]` when `undefined`. */
export function checkHosts(name: string, value: unknown): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value) || value.some((host) => typeof host !== 'string' || host === '')) {
    throw new OptionError(`Expected \`${name}\` to be an array of host names, got ${describeValue(value)}`);
  }
  return Object.freeze((value as string[]).map((host) => host.toLowerCase().replace(/^\[(.*)\]$/, '$1')));
}
