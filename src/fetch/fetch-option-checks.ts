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

/**
 * A proxy URL (`http:` or `https:`, with a host; userinfo is its credentials), `false`
 * (none) or `undefined` (the environment's). A refused URL is shown without its userinfo.
 */
export function checkProxy(value: unknown): string | false | undefined {
  if (value === undefined || value === false) return value;
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    const shown = typeof value === 'string' ? `\`${value.replace(/\/\/[^/@]*@/, '//…@')}\`` : describeValue(value);
    throw new OptionError(`Expected \`proxy\` to be an http: or https: URL such as http://proxy.example:3128, false or undefined, got ${shown}`);
  }
  return value as string;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----/;

/** PEM texts of certificates, each with at least one; `undefined` when `undefined`. */
export function checkCa(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((pem) => typeof pem !== 'string' || !PEM_CERTIFICATE.test(pem))) {
    throw new OptionError(`Expected \`ca\` to be an array of PEM texts, each with a "-----BEGIN CERTIFICATE-----", got ${describeValue(value)}`);
  }
  return Object.freeze([...(value as string[])]);
}
