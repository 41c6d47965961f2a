// `check` as GitHub Actions workflow commands: one `::error`, `::warning` or `::notice`
// line per finding, which the runner turns into an annotation on the file and line
// of the pull request (https://docs.github.com/actions/reference/workflow-commands-for-github-actions).
// A finding at or above `--fail-on` is an error, whatever its severity; the others keep
// theirs (`info` is a notice). A page not read from a file (a live site) has no file to
// annotate: the command names the page in its message instead.

import { describeValue, OptionError } from '../../errors.js';
import { SEVERITIES, type Severity } from '../audit/index.js';
import type { CheckFinding } from './check-finding.js';
import { findingSentence, isFailing, positionWords, SITE_WIDE } from './finding-text.js';

export interface CheckGithubOptions {
  /**
   * The severity from which a finding is an `::error` (`--fail-on`).
   * @default 'error'
   */
  readonly failOn?: Severity | undefined;
}

type CommandName = 'error' | 'warning' | 'notice';

// The escaping of the runner's own toolkit (@actions/core `escapeData`, `escapeProperty`):
// the message ends at a line break, a property value at `,`, and `%` escapes them all.
function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/**
 * Other C0 and C1 controls, DEL and the bidirectional formatting characters, written
 * as `\u{…}` so that an href cannot recolour the log or reorder what it shows.
 */
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function logSafe(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
}

function commandName(f: CheckFinding, failOn: Severity): CommandName {
  if (isFailing(f, failOn)) return 'error';
  return f.severity === 'info' ? 'notice' : f.severity === 'error' ? 'error' : 'warning';
}

/** The workflow command for one finding (one line, no line break). */
export function githubCommand(f: CheckFinding, failOn: Severity = 'error'): string {
  const properties: string[] = [];
  let message = findingSentence(f);
  if (f.file !== undefined) {
    properties.push(`file=${escapeProperty(f.file)}`);
    if (f.line !== undefined) {
      properties.push(`line=${f.line}`);
      if (f.column !== undefined) properties.push(`col=${f.column}`);
    }
  } else {
    const position = positionWords(f);
    message = `${f.page ?? SITE_WIDE}${position === '' ? '' : ` (${position})`}: ${message}`;
  }
  properties.push(`title=${escapeProperty(f.code)}`);
  return `::${commandName(f, failOn)} ${properties.join(',')}::${escapeData(logSafe(message))}`;
}

/** The workflow commands for `findings`, one line each (`''` when there are none). */
export function formatCheckGithub(findings: Iterable<CheckFinding>, options: CheckGithubOptions = {}): string {
  const failOn: unknown = options.failOn ?? 'error';
  if (!SEVERITIES.includes(failOn as Severity)) {
    throw new OptionError(`Expected \`failOn\` to be one of ${SEVERITIES.join(', ')}, got ${describeValue(failOn)}`);
  }
  let out = '';
  for (const f of findings) out += `${githubCommand(f, failOn as Severity)}\n`;
  return out;
}
