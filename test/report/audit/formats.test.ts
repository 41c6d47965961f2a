// The four output formats of the audit: text for a terminal, JSON Lines, CSV and
// SARIF 2.1.0 (checked against what its schema requires of each object used).

import { describe, expect, it } from 'vitest';
import {
  AUDIT_CODE_LIST,
  AUDIT_CODES,
  AUDIT_CSV_HEADER,
  formatAuditCsv,
  formatAuditJson,
  formatAuditSarif,
  formatAuditText,
  type AuditFinding,
} from '../../../src/report/index.js';
import { parseUriReference } from '../../../src/uri/index.js';
import { collect } from '../../support/collect.js';

const findings: AuditFinding[] = [
  {
    code: 'LINK_BROKEN',
    severity: 'error',
    page: 'http://h/',
    rawHref: 'missing.html',
    target: 'http://h/missing.html',
    message: 'the target answered 404',
    detail: { status: 404 },
    verdict: 'broken',
  },
  {
    code: 'HREF_TAB_OR_NEWLINE',
    severity: 'warning',
    page: 'http://h/',
    rawHref: 'a,"b"\n\u001b[31mc\u202e',
    target: 'http://h/a,%22b%22c',
    message: 'the href holds a tab or a line break',
    detail: {},
    line: 4,
    column: 9,
  },
  { code: 'HTML_BASE_IN_BODY', severity: 'warning', page: 'http://h/x', rawHref: undefined, target: undefined, message: '<base> after the body', detail: {} },
  { code: 'LINK_NOT_CANONICAL', severity: 'info', page: 'http://h/x', rawHref: '%7Eu', target: 'http://h/~u', message: 'syntax', detail: { rung: 'syntax' } },
  { code: 'REDIRECT_LOOP', severity: 'error', page: undefined, rawHref: undefined, target: undefined, message: 'site-wide', detail: { hops: 2 } },
];

describe('formatAuditText', () => {
  it('groups by page, two lines a finding, escapes controls and bidi characters, and counts', async () => {
    expect((await collect(formatAuditText(findings)))).toEqual([
      'http://h/',
      '  error    LINK_BROKEN  "missing.html" → http://h/missing.html',
      '           the target answered 404',
      '  warning  HREF_TAB_OR_NEWLINE  "a,\\"b\\"\\n\\u001b[31mc\\u{202e}" → http://h/a,%22b%22c at line 4, column 9',
      '           the href holds a tab or a line break',
      '',
      'http://h/x',
      '  warning  HTML_BASE_IN_BODY',
      '           <base> after the body',
      '  info     LINK_NOT_CANONICAL  "%7Eu" → http://h/~u',
      '           syntax',
      '',
      '(the site as a whole)',
      '  error    REDIRECT_LOOP',
      '           site-wide',
      '',
      '5 findings on 3 pages: 2 errors, 2 warnings, 1 info',
    ]);
  });

  it('says so when there is nothing', async () => {
    expect(await collect(formatAuditText([]))).toEqual(['no findings']);
    expect((await collect(formatAuditText(findings.slice(0, 1)))).at(-1)).toBe('1 finding on 1 page: 1 error, 0 warnings, 0 info');
  });

  it('streams: a line comes out before the next finding is read', async () => {
    let read = 0;
    function* source(): Generator<AuditFinding> {
      for (const f of findings) {
        read++;
        yield f;
      }
    }
    const lines = formatAuditText(source());
    await lines.next();
    expect(read).toBe(1);
  });
});

describe('formatAuditJson', () => {
  it('one object per line with every key, null when absent', async () => {
    const lines = (await collect(formatAuditJson(findings)));
    expect(lines).toHaveLength(findings.length);
    expect(lines.every((line) => !line.includes('\n'))).toBe(true);
    expect(JSON.parse(lines[0]!)).toMatchObject({ code: 'LINK_BROKEN', verdict: 'broken' });
    expect(JSON.parse(lines[1]!)).toEqual({ ...findings[1], line: 4, column: 9, verdict: null });
    expect(JSON.parse(lines[2]!)).toEqual({
      code: 'HTML_BASE_IN_BODY',
      severity: 'warning',
      page: 'http://h/x',
      rawHref: null,
      target: null,
      line: null,
      column: null,
      message: '<base> after the body',
      detail: {},
      verdict: null,
    });
  });
});

/** RFC 4180 records (LF or CRLF between records; quoted fields may hold anything). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let isQuoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (isQuoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') isQuoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"') isQuoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
    i++;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

describe('formatAuditCsv', () => {
  it('a header, then a record per finding that reads back exactly, the href with its comma, quotes and newline included', async () => {
    const text = (await collect(formatAuditCsv(findings))).join('\n') + '\n';
    const records = parseCsv(text);
    expect(records[0]).toEqual(AUDIT_CSV_HEADER.split(','));
    expect(records).toHaveLength(findings.length + 1);
    findings.forEach((f, i) => {
      const status = f.code === 'LINK_BROKEN' ? '404' : '';
      const inlinks = f.target === undefined ? '' : '1';
      expect(records[i + 1]).toEqual([f.severity, f.code, f.page ?? '', String(f.line ?? ''), String(f.column ?? ''), f.rawHref ?? '', f.target ?? '', status, inlinks, f.message]);
    });
  });
});

// ---------------------------------------------------------------------------
// SARIF 2.1.0: what the schema (sarif-schema-2.1.0.json) requires of each object the
// audit writes, and the properties it allows there (each of these objects has
// "additionalProperties": false in the schema).

const ALLOWED = {
  log: ['$schema', 'version', 'runs', 'inlineExternalProperties', 'properties'],
  run: ['tool', 'results', 'invocations', 'artifacts', 'properties', 'columnKind', 'originalUriBaseIds'],
  tool: ['driver', 'extensions', 'properties'],
  driver: ['name', 'version', 'semanticVersion', 'informationUri', 'rules', 'fullName', 'organization', 'properties'],
  rule: ['id', 'name', 'shortDescription', 'fullDescription', 'help', 'helpUri', 'defaultConfiguration', 'properties'],
  multiformatMessageString: ['text', 'markdown', 'properties'],
  configuration: ['enabled', 'level', 'rank', 'parameters', 'properties'],
  result: ['ruleId', 'ruleIndex', 'rule', 'kind', 'level', 'message', 'locations', 'partialFingerprints', 'fingerprints', 'properties'],
  message: ['text', 'markdown', 'id', 'arguments', 'properties'],
  location: ['id', 'physicalLocation', 'logicalLocations', 'message', 'properties'],
  physicalLocation: ['address', 'artifactLocation', 'region', 'contextRegion', 'properties'],
  artifactLocation: ['uri', 'uriBaseId', 'index', 'description', 'properties'],
  region: ['startLine', 'startColumn', 'endLine', 'endColumn', 'charOffset', 'charLength', 'byteOffset', 'byteLength', 'snippet', 'sourceLanguage', 'message', 'properties'],
};
const LEVELS = ['none', 'note', 'warning', 'error'];

type Json = Record<string, unknown>;

function object(value: unknown, where: string, allowed: readonly string[], required: readonly string[] = []): Json {
  expect(typeof value === 'object' && value !== null && !Array.isArray(value), `${where} is an object`).toBe(true);
  const o = value as Json;
  for (const key of Object.keys(o)) expect(allowed, `${where}.${key} is allowed`).toContain(key);
  for (const key of required) expect(o[key], `${where}.${key} is required`).toBeDefined();
  if (o['properties'] !== undefined) object(o['properties'], `${where}.properties`, Object.keys(o['properties'] as Json));
  return o;
}

function validateSarif(log: unknown): void {
  const root = object(log, 'sarifLog', ALLOWED.log, ['version', 'runs']);
  expect(root['version']).toBe('2.1.0');
  expect(typeof root['$schema']).toBe('string');
  const runs = root['runs'] as unknown[];
  expect(Array.isArray(runs)).toBe(true);
  for (const [r, runValue] of runs.entries()) {
    const run = object(runValue, `runs[${r}]`, ALLOWED.run, ['tool']);
    const tool = object(run['tool'], 'tool', ALLOWED.tool, ['driver']);
    const driver = object(tool['driver'], 'driver', ALLOWED.driver, ['name']);
    expect(typeof driver['name']).toBe('string');
    const rules = (driver['rules'] ?? []) as unknown[];
    const ids = rules.map((ruleValue, i) => {
      const rule = object(ruleValue, `rules[${i}]`, ALLOWED.rule, ['id']);
      expect(typeof rule['id']).toBe('string');
      if (rule['shortDescription'] !== undefined) {
        const text = object(rule['shortDescription'], 'shortDescription', ALLOWED.multiformatMessageString, ['text'])['text'];
        expect(typeof text).toBe('string');
      }
      if (rule['defaultConfiguration'] !== undefined) {
        const level = object(rule['defaultConfiguration'], 'defaultConfiguration', ALLOWED.configuration)['level'];
        expect(LEVELS).toContain(level);
      }
      return rule['id'] as string;
    });
    expect(new Set(ids).size, 'rules are unique').toBe(ids.length);
    const results = run['results'] as unknown[];
    expect(Array.isArray(results)).toBe(true);
    for (const [i, resultValue] of results.entries()) {
      const result = object(resultValue, `results[${i}]`, ALLOWED.result, ['message']);
      const message = object(result['message'], 'message', ALLOWED.message);
      expect(typeof message['text'] === 'string' || typeof message['id'] === 'string').toBe(true);
      if (result['level'] !== undefined) expect(LEVELS).toContain(result['level']);
      // §3.27.6: ruleIndex names the rule whose id is ruleId.
      if (result['ruleIndex'] !== undefined) {
        expect(Number.isInteger(result['ruleIndex']) && (result['ruleIndex'] as number) >= -1).toBe(true);
        expect(ids[result['ruleIndex'] as number]).toBe(result['ruleId']);
      }
      for (const [l, locationValue] of ((result['locations'] ?? []) as unknown[]).entries()) {
        const location = object(locationValue, `locations[${l}]`, ALLOWED.location);
        const physical = object(location['physicalLocation'], 'physicalLocation', ALLOWED.physicalLocation);
        const artifact = object(physical['artifactLocation'], 'artifactLocation', ALLOWED.artifactLocation);
        // "format": "uri-reference"
        expect(parseUriReference(artifact['uri'] as string).ok).toBe(true);
        if (physical['region'] !== undefined) {
          const region = object(physical['region'], 'region', ALLOWED.region, ['startLine']);
          // "minimum": 1
          expect(Number.isInteger(region['startLine']) && (region['startLine'] as number) >= 1).toBe(true);
          if (region['startColumn'] !== undefined) expect(Number.isInteger(region['startColumn']) && (region['startColumn'] as number) >= 1).toBe(true);
        }
      }
    }
  }
}

describe('formatAuditSarif', () => {
  const sarif = async (items: Iterable<AuditFinding>, options?: Parameters<typeof formatAuditSarif>[1]): Promise<Json> =>
    JSON.parse((await collect(formatAuditSarif(items, options))).join('\n')) as Json;

  it('is a valid SARIF 2.1.0 log: a rule per code, a result per finding at its page', async () => {
    const log = await sarif(findings, { toolVersion: '1.2.3', informationUri: 'https://example.com/linkladder' });
    validateSarif(log);
    const run = (log['runs'] as Json[])[0]!;
    const driver = (run['tool'] as Json)['driver'] as Json;
    expect(driver).toMatchObject({ name: 'linkladder', version: '1.2.3', informationUri: 'https://example.com/linkladder' });
    const rules = driver['rules'] as Json[];
    expect(rules.map((r) => r['id'])).toEqual(AUDIT_CODE_LIST);
    expect(rules[0]).toEqual({
      id: 'LINK_BROKEN',
      shortDescription: { text: AUDIT_CODES.LINK_BROKEN.summary },
      defaultConfiguration: { level: 'error' },
      properties: { subject: 'link' },
    });
    const results = run['results'] as Json[];
    expect(results).toHaveLength(findings.length);
    expect(results[0]).toEqual({
      ruleId: 'LINK_BROKEN',
      ruleIndex: 0,
      level: 'error',
      message: { text: '"missing.html" (→ http://h/missing.html): the target answered 404' },
      locations: [{ physicalLocation: { artifactLocation: { uri: 'http://h/' } } }],
      properties: { status: 404, rawHref: 'missing.html', target: 'http://h/missing.html', verdict: 'broken' },
    });
    expect(results.map((r) => r['level'])).toEqual(['error', 'warning', 'warning', 'note', 'error']);
    // A finding about no page has no location.
    expect(results[4]).not.toHaveProperty('locations');
  });

  it('is valid with no findings, and without the optional tool facts', async () => {
    const log = await sarif([]);
    validateSarif(log);
    expect((log['runs'] as Json[])[0]!['results']).toEqual([]);
    expect(((log['runs'] as Json[])[0]!['tool'] as Json)['driver']).not.toHaveProperty('version');
  });

  it('checks its options at once', async () => {
    expect(() => formatAuditSarif([], { toolVersion: 1 as never })).toThrow('Expected `toolVersion` to be a string, got `1` (number)');
  });

  it('streams: one line per result between the opening and the closing', async () => {
    const lines = (await collect(formatAuditSarif(findings)));
    expect(lines).toHaveLength(findings.length + 2);
    expect(lines.slice(2, -1).every((line) => line.startsWith(',{"ruleId"'))).toBe(true);
  });
});
