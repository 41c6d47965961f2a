// The kinds of value a crawl setting takes, as zod pieces with their messages, and how
// a setting is presented (README, --help): the building blocks of crawl-settings.ts.
// Each check's message is a sentence of its own ("Expected an integer >= 1"): the
// boundary that reports it adds the name and the value it was given.

import * as z from 'zod';
import { LINK_KINDS, type LinkKind } from '../html/index.js';
import { STATUS_POLICY_EXPECTED, formatStatusPolicy, readStatusPolicy } from './verdict.js';

/** How README and --help present a setting: what the schema does not say. */
export interface SettingMeta {
  /** The flag's value, as README writes it (`PATH`, `N`); lower-cased in --help (`<path>`). A switch has none. */
  readonly argument?: string;
  /** What it does, in README's words (Markdown: `code`, **bold**); --help shows it without the marks. */
  readonly description: string;
  /** The default as README and --help show it, where the value itself does not say it well. */
  readonly defaultText?: string;
  /** A setting with a value that `--no-<flag>` also sets: this value (`--no-proxy`: `none`). */
  readonly negation?: string;
}

/** Each setting's presentation, keyed by the setting's field schema. */
export const SETTING_META = z.registry<SettingMeta>();

export function integerAtLeast(min: number) {
  const error = `Expected an integer >= ${min}`;
  return z.int({ error }).min(min, { error });
}

/** An integer in a sane range: a number past it is a mistake (a delay past Node's timer range fires at once). */
export function integerBetween(min: number, max: number) {
  const error = `Expected an integer from ${min} to ${max}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
}

/** An integer >= 0, or no limit: `Infinity`, or `null` (JSON has no Infinity). Parsed to a number. */
export function limit() {
  const error = 'Expected an integer >= 0';
  return z.union([integerAtLeast(0), z.literal(Infinity), z.null()], { error }).transform((value) => value ?? Infinity);
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `Expected one of ${values.join(', ')}` });
}

export const isOn = z.boolean({ error: 'Expected true or false' });

/**
 * A regular expression: a RegExp, or its source as a string (JavaScript syntax, no
 * flags), compiled once, here. A global or sticky RegExp keeps state between
 * `test()` calls, so it is copied without those flags.
 */
export const pattern = z
  .union([z.instanceof(RegExp), z.string()], { error: 'Expected a regular expression (a RegExp or a string)' })
  .transform((value, context) => {
    if (value instanceof RegExp) return /[gy]/.test(value.flags) ? new RegExp(value.source, value.flags.replace(/[gy]/g, '')) : value;
    try {
      return new RegExp(value);
    } catch (error) {
      // V8 says what is wrong: "Invalid regular expression: /(/: Unterminated group".
      context.issues.push({ code: 'custom', message: error instanceof Error ? error.message : String(error), input: value });
      return z.NEVER;
    }
  });

export const patterns = z.array(pattern, { error: 'Expected an array of regular expressions (RegExp or strings)' });

/** A status policy as written (`readStatusPolicy`), checked here and kept as text, spaces dropped. */
export const statusPolicyText = z.string({ error: `Expected ${STATUS_POLICY_EXPECTED}` }).transform((value, context) => {
  const policy = readStatusPolicy(value);
  if (typeof policy !== 'string') return formatStatusPolicy(policy);
  context.issues.push({ code: 'custom', message: `Expected ${STATUS_POLICY_EXPECTED}; ${policy}`, input: value });
  return z.NEVER;
});

export const linkKinds = z.array(oneOf(LINK_KINDS as readonly LinkKind[] as [LinkKind, ...LinkKind[]]), {
  error: `Expected an array of ${LINK_KINDS.join(', ')}`,
});

/**
 * `Name: value` header fields, as text: checked when the crawl's credentials are made
 * (fetch/credentials.ts), whose messages never show a value — a check here would
 * echo it.
 */
export const headerLines = z.array(z.string({ error: "Expected 'Name: value' strings" }), { error: "Expected an array of 'Name: value' strings" });

/**
 * `ORIGIN Name: value` lines; a config file may also write them as an object of
 * origin → list of `Name: value`, made into such lines.
 */
export const headerForLines = z.union(
  [
    headerLines,
    z.record(z.string(), z.array(z.string()), { error: "Expected an object of origin → list of 'Name: value'" }).transform((byOrigin) =>
      Object.entries(byOrigin).flatMap(([origin, fields]) => fields.map((field) => `${origin} ${field}`)),
    ),
  ],
  { error: "Expected an array of 'ORIGIN Name: value' strings, or an object of origin → list of 'Name: value'" },
);
/** `http:` or `https:` with a host. */
function isProxyUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const PROXY_ERROR = 'Expected an http: or https: proxy URL such as http://proxy.example:3128, or none';

/** A proxy: its URL, `none`, or empty for the environment's. */
export const proxySetting = z.string({ error: PROXY_ERROR }).refine((text) => text === '' || text === 'none' || isProxyUrl(text), { error: PROXY_ERROR });
