// The two renderings of a URI syntax error: a stderr line and a JSON object.

import { ERROR_MESSAGES, type ErrorSubject, type UriSyntaxError } from '../index.js';

export interface ErrorJson {
  readonly code: UriSyntaxError['code'];
  readonly index: number;
  readonly message: string;
  /** Which argument the index points into, for two-input operations. */
  readonly subject?: ErrorSubject;
}

export function errorToJson(error: UriSyntaxError): ErrorJson {
  const { code, index, subject } = error;
  const json = { code, index, message: ERROR_MESSAGES[code] };
  return subject === undefined ? json : { ...json, subject };
}

/**
 * `error: "<culprit>": <CODE> at index <N>[ of <subject>]: <message>`. `culprit` is the
 * string the index points into. It is JSON-quoted so that an empty input or
 * trailing spaces show, and control characters cannot reach the terminal raw.
 */
export function formatErrorLine(culprit: string, error: UriSyntaxError): string {
  const where = error.subject === undefined ? '' : ` of ${error.subject}`;
  const { code, index } = error;
  return `error: ${JSON.stringify(culprit)}: ${code} at index ${index}${where}: ${ERROR_MESSAGES[code]}`;
}
