// The audit as a SARIF 2.1.0 log (OASIS, https://docs.oasis-open.org/sarif/sarif/v2.1.0/),
// for CI systems: one run, a rule per audit code (`ruleId` = the code), one result per
// finding located at its page (`artifactLocation.uri`): the page's URL, or — given
// source roots — the file it is served from, with the line and column of the href
// (`region`), so that code-scanning tools annotate the HTML. Written line by line: one
// result per line between the log's opening and closing, so memory stays bounded.

import { describeValue, OptionError } from '../../errors.js';
import { AUDIT_CODE_LIST, AUDIT_CODES } from './codes.js';
import type { AuditFinding, AuditFindings, Severity } from './finding.js';
import { sourceFileOf, type SourceRoot } from './source-roots.js';

export const SARIF_VERSION = '2.1.0';
export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

export interface SarifOptions {
  /**
   * The tool's version (`tool.driver.version`).
   * @default undefined (left out)
   */
  readonly toolVersion?: string | undefined;
  /**
   * Where the tool and its codes are documented (`tool.driver.informationUri`).
   * @default undefined (left out)
   */
  readonly informationUri?: string | undefined;
  /**
   * Where pages' files are (`parseSourceRoot`): a page under one is located at its
   * file, relative to where the log is read, instead of at its URL.
   * @default [] (locations are page URLs)
   */
  readonly sourceRoots?: readonly SourceRoot[] | undefined;
  /**
   * A finding's file, relative to where the log is read (`/` separators), when it is
   * known (`check` reads pages from disk): the result is located there.
   * @default undefined (`sourceRoots`, else the page's URL)
   */
  readonly fileOf?: ((f: AuditFinding) => string | undefined) | undefined;
  /**
   * Each result's state against a baseline (§3.27.24 `baselineState`): `new`, or
   * `absent` for a finding of the baseline that is gone (`audit --since`).
   * @default undefined (no baselineState)
   */
  readonly baselineState?: ((f: AuditFinding) => SarifBaselineState | undefined) | undefined;
}

/** SARIF §3.27.24 `baselineState`. */
export type SarifBaselineState = 'new' | 'unchanged' | 'updated' | 'absent';

/** SARIF §3.27.10 `level`: `info` is a `note`. */
const LEVELS: Readonly<Record<Severity, 'error' | 'warning' | 'note'>> = { error: 'error', warning: 'warning', info: 'note' };

const RULE_INDEX: ReadonlyMap<string, number> = new Map(AUDIT_CODE_LIST.map((code, i) => [code, i]));

/** The SARIF rules (§3.49 reportingDescriptor): one per audit code, in catalog order. */
export function sarifRules(): Record<string, unknown>[] {
  return AUDIT_CODE_LIST.map((code) => {
    const spec = AUDIT_CODES[code];
    return {
      id: code,
      shortDescription: { text: spec.summary },
      defaultConfiguration: { level: LEVELS[spec.severity] },
      properties: { subject: spec.subject },
    };
  });
}

/** One finding as a SARIF result (§3.27), located at its page's file when `sourceRoots` maps it, else at its URL. */
export function sarifResult(f: AuditFinding, sourceRoots: readonly SourceRoot[] = [], fileOf?: (f: AuditFinding) => string | undefined): Record<string, unknown> {
  const properties: Record<string, unknown> = { ...f.detail };
  if (f.rawHref !== undefined) properties['rawHref'] = f.rawHref;
  if (f.target !== undefined) properties['target'] = f.target;
  if (f.verdict !== undefined) properties['verdict'] = f.verdict;
  const file = fileOf?.(f);
  const ruleIndex = RULE_INDEX.get(f.code);
  return {
    ruleId: f.code,
    ...(ruleIndex === undefined ? {} : { ruleIndex }),
    level: LEVELS[f.severity],
    message: { text: messageText(f) },
    ...(file !== undefined
      ? { locations: [{ physicalLocation: physicalLocation(f, fileUri(file)) }] }
      : f.page === undefined
        ? {}
        : { locations: [{ physicalLocation: physicalLocation(f, (sourceRoots.length === 0 ? undefined : sourceFileOf(f.page, sourceRoots)) ?? f.page) }] }),
    properties,
  };
}

/** §3.29: the page's file or URL (§3.4), and the href's line and column (§3.30, 1-based, UTF-16 code units). */
function physicalLocation(f: AuditFinding, uri: string): Record<string, unknown> {
  const location: Record<string, unknown> = { artifactLocation: { uri } };
  if (f.line !== undefined) location['region'] = f.column === undefined ? { startLine: f.line } : { startLine: f.line, startColumn: f.column };
  return location;
}

/** §3.4.3: a relative file path as a URI reference — each segment percent-encoded (a name may hold "%", "#" or spaces), `/` kept. */
export function fileUri(file: string): string {
  return file
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/** The message a CI system shows: the href and what it resolves to, then what is wrong. */
function messageText(f: AuditFinding): string {
  if (f.rawHref === undefined) return f.message;
  const target = f.target === undefined ? '' : ` (→ ${f.target})`;
  return `${JSON.stringify(f.rawHref)}${target}: ${f.message}`;
}

/** The SARIF log as lines of one JSON document, streamed. */
export function formatAuditSarif(findings: AuditFindings, options: SarifOptions = {}): AsyncGenerator<string> {
  for (const name of ['toolVersion', 'informationUri'] as const) {
    const value: unknown = options[name];
    if (value !== undefined && typeof value !== 'string') {
      throw new OptionError(`Expected \`${name}\` to be a string, got ${describeValue(value)}`);
    }
  }
  const roots: unknown = options.sourceRoots ?? [];
  if (!Array.isArray(roots) || !roots.every((r: unknown) => typeof (r as SourceRoot | null)?.urlPrefix === 'string' && typeof (r as SourceRoot).dir === 'string')) {
    throw new OptionError(`Expected \`sourceRoots\` to be an array of { urlPrefix, dir } (parseSourceRoot), got ${describeValue(roots)}`);
  }
  const baselineState: unknown = options.baselineState;
  if (baselineState !== undefined && typeof baselineState !== 'function') {
    throw new OptionError(`Expected \`baselineState\` to be a function, got ${describeValue(baselineState)}`);
  }
  return sarifLines(findings, options);
}

async function* sarifLines(findings: AuditFindings, options: SarifOptions): AsyncGenerator<string> {
  const sourceRoots = options.sourceRoots ?? [];
  const driver: Record<string, unknown> = { name: 'linkladder' };
  if (options.toolVersion !== undefined) driver['version'] = options.toolVersion;
  if (options.informationUri !== undefined) driver['informationUri'] = options.informationUri;
  driver['rules'] = sarifRules();
  // §3.14.17: columns count UTF-16 code units, as the crawl records them.
  const head = JSON.stringify({ $schema: SARIF_SCHEMA, version: SARIF_VERSION, runs: [{ tool: { driver }, columnKind: 'utf16CodeUnits', results: [] }] });
  // Everything up to the empty results array is the opening; what follows it, the closing.
  const cut = head.lastIndexOf('[]');
  yield head.slice(0, cut + 1);
  let isFirst = true;
  for await (const f of findings) {
    const result = sarifResult(f, sourceRoots, options.fileOf);
    const state = options.baselineState?.(f);
    if (state !== undefined) result['baselineState'] = state;
    yield `${isFirst ? '' : ','}${JSON.stringify(result)}`;
    isFirst = false;
  }
  yield head.slice(cut + 1);
}
