// `check` as a JUnit XML report, the dialect the test reporters of GitLab, Jenkins
// and GitHub read (the Ant/Surefire schema): one suite, one test case per checked
// page — its file, or its URL for a live site — so pages without findings show as
// passed. A page's findings at or above `--fail-on` are its one `<failure>`, one line
// each; the others are told in its `<system-out>`.

import { describeValue, OptionError } from '../../errors.js';
import { SEVERITIES, type Severity } from '../audit/index.js';
import { xmlEscape } from '../graph/xml-escape.js';
import type { CheckFinding } from './check-finding.js';
import { byPosition, findingPlace, findingSentence, isFailing, plural, positionWords, SITE_WIDE } from './finding-text.js';

export interface CheckJunitOptions {
  /**
   * Every page checked, in the order to list them: files (relative, `/` separators, as
   * `CheckFinding.file`) and, for a live site, URLs. A page with a finding that is not
   * listed gets its test case after them.
   */
  readonly checkedFiles: readonly string[];
  /**
   * The severity from which a finding fails its test case (`--fail-on`).
   * @default 'error'
   */
  readonly failOn?: Severity | undefined;
  /**
   * linkladder's version, recorded as the suite's `linkladder.version` property.
   * @default undefined (left out)
   */
  readonly toolVersion?: string | undefined;
  /**
   * How long the check took, in seconds (the suite's `time`).
   * @default 0
   */
  readonly seconds?: number | undefined;
}

const SUITE = 'linkladder check';
const CLASSNAME = 'linkladder.check';

/** A page given as a URL (`scheme://…`) rather than as a file path. */
const URL_PAGE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** Element content: markup escaped, line breaks kept as they are (XML 1.0 §2.4). */
function xmlText(text: string): string {
  // xmlEscape writes tabs and line feeds as references; in content they may stay literal (CR may not, §2.11).
  return xmlEscape(text).replaceAll('&#10;', '\n').replaceAll('&#9;', '\t');
}

function attributes(pairs: Readonly<Record<string, string | number | undefined>>): string {
  return Object.entries(pairs)
    .filter((pair): pair is [string, string | number] => pair[1] !== undefined)
    .map(([name, value]) => ` ${name}="${xmlEscape(String(value))}"`)
    .join('');
}

/** One line of a failure or of the output: where, the code, the href and its target, what is wrong. */
function findingLine(f: CheckFinding): string {
  const position = positionWords(f);
  const verdict = f.verdict === undefined ? '' : ` (${f.verdict})`;
  return `${position === '' ? '' : `${position}: `}${f.severity} ${f.code}${verdict} ${findingSentence(f)}`;
}

function validate(options: CheckJunitOptions): void {
  const files: unknown = (options as Partial<CheckJunitOptions> | undefined)?.checkedFiles;
  if (!Array.isArray(files) || !files.every((file) => typeof file === 'string')) {
    throw new OptionError(`Expected \`checkedFiles\` to be an array of strings, got ${describeValue(files)}`);
  }
  const failOn: unknown = options.failOn;
  if (failOn !== undefined && !SEVERITIES.includes(failOn as Severity)) {
    throw new OptionError(`Expected \`failOn\` to be one of ${SEVERITIES.join(', ')}, got ${describeValue(failOn)}`);
  }
  const seconds: unknown = options.seconds;
  if (seconds !== undefined && (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0)) {
    throw new OptionError(`Expected \`seconds\` to be a finite number >= 0, got ${describeValue(seconds)}`);
  }
  const version: unknown = options.toolVersion;
  if (version !== undefined && typeof version !== 'string') {
    throw new OptionError(`Expected \`toolVersion\` to be a string, got ${describeValue(version)}`);
  }
}

/** The JUnit XML document for `findings`, every checked page a test case. */
export function formatCheckJunit(findings: Iterable<CheckFinding>, options: CheckJunitOptions): string {
  validate(options);
  const failOn = options.failOn ?? 'error';
  const byPlace = new Map<string, CheckFinding[]>();
  for (const file of options.checkedFiles) byPlace.set(file, []);
  for (const f of findings) {
    const place = findingPlace(f);
    const list = byPlace.get(place);
    if (list === undefined) byPlace.set(place, [f]);
    else list.push(f);
  }

  const cases: string[] = [];
  let failures = 0;
  for (const [place, list] of byPlace) {
    const sorted = [...list].sort(byPosition);
    const failing = sorted.filter((f) => isFailing(f, failOn));
    const passing = sorted.filter((f) => !isFailing(f, failOn));
    const file = place === SITE_WIDE || URL_PAGE.test(place) ? undefined : place;
    const head = `    <testcase${attributes({ classname: CLASSNAME, name: place, file, time: 0 })}`;
    if (sorted.length === 0) {
      cases.push(`${head}/>`);
      continue;
    }
    const body: string[] = [];
    if (failing.length > 0) {
      failures++;
      const codes = [...new Set(failing.map((f) => f.code))].join(' ');
      const message = `${plural(failing.length, 'finding')} at or above ${failOn}: ${failing.length === 1 ? findingSentence(failing[0]!) : codes}`;
      body.push(`      <failure${attributes({ message, type: codes })}>${xmlText(failing.map(findingLine).join('\n'))}</failure>`);
    }
    if (passing.length > 0) body.push(`      <system-out>${xmlText(passing.map(findingLine).join('\n'))}</system-out>`);
    cases.push(`${head}>`, ...body, '    </testcase>');
  }

  const counts = { tests: byPlace.size, failures, errors: 0, skipped: 0, time: options.seconds ?? 0 };
  const properties =
    options.toolVersion === undefined
      ? []
      : ['    <properties>', `      <property${attributes({ name: 'linkladder.version', value: options.toolVersion })}/>`, '    </properties>'];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    // The Ant/Surefire schema has no `skipped` on the root.
    `<testsuites${attributes({ name: SUITE, tests: counts.tests, failures: counts.failures, errors: counts.errors, time: counts.time })}>`,
    `  <testsuite${attributes({ name: SUITE, ...counts })}>`,
    ...properties,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
