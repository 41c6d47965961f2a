// Zod issues as OptionError messages of the one form every option check uses, naming
// the option, what was expected and what was given: ``Expected `concurrency` to
// be an integer >= 1, got `0` (number)``. The schemas' messages are sentences of
// their own ("Expected an integer >= 1"); here they get the option's name and value.

import type { z } from 'zod';
import { OptionError, describeValue } from '../errors.js';
import { checkKnownKeys } from '../infra/index.js';

/** `include[1]`. */
export function optionPath(at: readonly PropertyKey[]): string {
  return at.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`)).join('');
}

/** The value at `at` in `input`, for the message's "got …". */
export function valueAt(input: unknown, at: readonly PropertyKey[]): unknown {
  let value = input;
  for (const part of at) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[part] : undefined;
  return value;
}

/** The settings whose values are never shown in a message. */
const SECRET_SETTINGS: ReadonlySet<string> = new Set(['header', 'headerFor']);

/** One issue, named after the option (and item) it is about. */
export function describeOptionIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const name = `\`${optionPath(issue.path)}\``;
  const value = valueAt(input, issue.path);
  // A header's value is a credential: its type is said, never the value.
  const got = SECRET_SETTINGS.has(String(issue.path[0])) ? `a value of type ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}` : describeValue(value);
  if (issue.message.startsWith('Expected ')) return `Expected ${name} to be ${issue.message.slice('Expected '.length)}, got ${got}`;
  // A check that says what is wrong rather than what it expects: the RegExp compiler's.
  return `Expected ${name} to be valid, got ${got}: ${issue.message}`;
}

/**
 * The data options among `given` (the keys of `schema`), parsed with it: defaults
 * filled in, every bad value reported in one `OptionError`. Keys in `otherKeys`
 * (the caller's non-data options) are left out; any other key throws.
 */
export function parseOptionData<S extends z.ZodObject>(
  schema: S,
  given: Readonly<Record<string, unknown>>,
  otherKeys: readonly string[],
  renamed: Readonly<Record<string, string>>,
): z.output<S> {
  const dataKeys = Object.keys(schema.shape);
  checkKnownKeys(given, [...otherKeys, ...dataKeys], renamed);
  const data = Object.fromEntries(Object.entries(given).filter(([key]) => dataKeys.includes(key)));
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  throw new OptionError(result.error.issues.map((issue) => describeOptionIssue(issue, data)).join('; '));
}
