import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CRAWL_SETTINGS_DEFAULTS, ConfigError, loadCrawlSettings, type ConfigSources, type CrawlSettings } from '../../src/config/index.js';

const root = mkdtempSync(path.join(tmpdir(), 'linkladder-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
/** A fresh working directory; `defaultFile` (JSON, or raw text) becomes its linkladder.config.json. */
function workdir(defaultFile?: unknown): string {
  count++;
  const dir = path.join(root, `cwd-${count}`);
  mkdirSync(dir, { recursive: true });
  if (defaultFile !== undefined) writeFile(path.join(dir, 'linkladder.config.json'), defaultFile);
  return dir;
}

function writeFile(file: string, content: unknown): void {
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
}

function load(sources: Partial<ConfigSources> & { cwd: string }): Promise<CrawlSettings> {
  return loadCrawlSettings({ env: {}, ...sources });
}

async function failure(sources: Partial<ConfigSources> & { cwd: string }): Promise<ConfigError> {
  try {
    await load(sources);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ name: 'ConfigError', code: 'ERR_CONFIG_INVALID' });
    expect((error as Error).message).not.toContain('\n');
    return error as ConfigError;
  }
  throw new Error('expected ERR_CONFIG_INVALID');
}

describe('loadCrawlSettings: where each setting comes from', () => {
  it('no linkladder.config.json (ENOENT), no variables, no flags: the schema defaults', async () => {
    const cwd = path.join(root, 'nowhere'); // not even a config/ folder
    await expect(load({ cwd })).resolves.toEqual(CRAWL_SETTINGS_DEFAULTS);
    await expect(load({ cwd: workdir() })).resolves.toEqual(CRAWL_SETTINGS_DEFAULTS);
  });

  // [key, in the file, variable, its text, its value, flag value]
  const cases: [keyof CrawlSettings, unknown, string, string, unknown, unknown][] = [
    ['concurrency', 2, 'LINKLADDER_CONCURRENCY', '8', 8, 16],
    ['baseMode', 'browser', 'LINKLADDER_BASE_MODE', 'rfc3986', 'rfc3986', 'browser'],
    ['scope', 'host', 'LINKLADDER_SCOPE', 'domain', 'domain', 'prefix'],
    ['maxPages', 10, 'LINKLADDER_MAX_PAGES', '20', 20, 30],
    ['maxDepth', 3, 'LINKLADDER_MAX_DEPTH', '0', 0, 1],
    ['perHostConcurrency', 2, 'LINKLADDER_PER_HOST_CONCURRENCY', '3', 3, 4],
    ['perHostDelayMs', 100, 'LINKLADDER_PER_HOST_DELAY_MS', '200', 200, 300],
    ['retryDelayMs', 10, 'LINKLADDER_RETRY_DELAY_MS', '20', 20, 30],
    ['contentLocationAlias', 'off', 'LINKLADDER_CONTENT_LOCATION_ALIAS', 'same-origin', 'same-origin', 'negotiated'],
    ['retries', 0, 'LINKLADDER_RETRIES', '5', 5, 1],
    ['userAgent', 'file-bot', 'LINKLADDER_USER_AGENT', 'env-bot/1.0', 'env-bot/1.0', 'flag-bot'],
    ['db', 'file.db', 'LINKLADDER_DB', 'env.db', 'env.db', 'flag.db'],
    ['allowPrivate', true, 'LINKLADDER_ALLOW_PRIVATE', 'false', false, true],
    ['json', true, 'LINKLADDER_JSON', '0', false, true],
    ['statusPolicy', '403=broken', 'LINKLADDER_STATUS_POLICY', '999=ok, 5xx=broken', '999=ok,5xx=broken', '403=ok'],
  ];

  it.each(cases)('%s: default < file < env < flag', async (key, fileValue, variable, text, envValue, flagValue) => {
    const cwd = workdir({ [key]: fileValue });
    const env = { [variable]: text };
    const fromFile = await load({ cwd });
    expect(fromFile[key]).toEqual(fileValue);
    expect({ ...fromFile, [key]: CRAWL_SETTINGS_DEFAULTS[key] }).toEqual(CRAWL_SETTINGS_DEFAULTS);
    expect((await load({ cwd, env }))[key]).toEqual(envValue);
    expect((await load({ cwd, env, flags: { [key]: flagValue } }))[key]).toEqual(flagValue);
    // Without the file, the variable still beats the default, and the flag the variable.
    expect((await load({ cwd: workdir(), env }))[key]).toEqual(envValue);
    expect((await load({ cwd: workdir(), flags: { [key]: flagValue } }))[key]).toEqual(flagValue);
  });

  it('patterns: the file lists strings, the variable holds one, a flag list replaces both', async () => {
    const cwd = workdir({ include: ['^http://a/', '^http://b/'], exclude: ['/private/'] });
    const fromFile = await load({ cwd });
    expect(fromFile.include.map((pattern) => pattern.source)).toEqual(['^http:\\/\\/a\\/', '^http:\\/\\/b\\/']);
    expect(fromFile.exclude[0]?.test('http://a/private/x')).toBe(true);
    const fromEnv = await load({ cwd, env: { LINKLADDER_INCLUDE: '^https://c/|^https://d/' } });
    expect(fromEnv.include.map((pattern) => pattern.source)).toEqual(['^https:\\/\\/c\\/|^https:\\/\\/d\\/']);
    expect(fromEnv.exclude).toHaveLength(1); // untouched by the variable of another setting
    const fromFlags = await load({ cwd, env: { LINKLADDER_INCLUDE: 'x' }, flags: { include: [/^y/] } });
    expect(fromFlags.include).toEqual([/^y/]);
  });

  it('several sources at once: each setting from the highest source that has it', async () => {
    const cwd = workdir({ concurrency: 2, retries: 0, scope: 'host', maxDepth: 5 });
    const settings = await load({
      cwd,
      env: { LINKLADDER_RETRIES: '3', LINKLADDER_SCOPE: 'domain', PATH: '/usr/bin', HOME: '/root' },
      flags: { scope: 'prefix' },
    });
    expect(settings).toEqual({ ...CRAWL_SETTINGS_DEFAULTS, concurrency: 2, retries: 3, scope: 'prefix', maxDepth: 5 });
  });

  it('--config FILE replaces linkladder.config.json (the default file is not read at all) and is found from the working directory', async () => {
    const cwd = workdir({ concurrency: 7, retries: 0 });
    writeFile(path.join(cwd, 'crawl.json'), { concurrency: 3 });
    const settings = await load({ cwd, configPath: 'crawl.json' });
    expect(settings.concurrency).toBe(3);
    expect(settings.retries).toBe(CRAWL_SETTINGS_DEFAULTS.retries);
    expect((await load({ cwd: root, configPath: path.join(cwd, 'crawl.json') })).concurrency).toBe(3);
  });

  it('null is no limit for maxDepth and maxPages (JSON has no Infinity), and a file may set it', async () => {
    const settings = await load({ cwd: workdir({ maxDepth: null, maxPages: null }) });
    expect(settings).toMatchObject({ maxDepth: Infinity, maxPages: Infinity });
  });

  it('tolerates a UTF-8 byte order mark', async () => {
    expect((await load({ cwd: workdir('\uFEFF{"retries": 1}') })).retries).toBe(1);
  });
});

describe('loadCrawlSettings: the result', () => {
  it('is deep-frozen: the object, its lists and their patterns', async () => {
    const settings = await load({ cwd: workdir({ include: ['^a'] }), env: { LINKLADDER_EXCLUDE: 'b' } });
    expect(Object.isFrozen(settings)).toBe(true);
    expect(Object.isFrozen(settings.include)).toBe(true);
    expect(Object.isFrozen(settings.include[0])).toBe(true);
    expect(Object.isFrozen(settings.exclude)).toBe(true);
    expect(() => {
      (settings as { concurrency: number }).concurrency = 99;
    }).toThrow(TypeError);
    expect(() => (settings.include as RegExp[]).push(/x/)).toThrow(TypeError);
    // A frozen pattern still matches (a pattern without g or y never writes lastIndex).
    expect(settings.include[0]?.test('abc')).toBe(true);
    expect(settings.exclude[0]?.test('abc')).toBe(true);
  });

  it('is a new object on each call, and the defaults are frozen too', async () => {
    const cwd = workdir();
    const a = await load({ cwd });
    const b = await load({ cwd });
    expect(a).not.toBe(b);
    expect(a).toEqual(b);
    expect(Object.isFrozen(CRAWL_SETTINGS_DEFAULTS)).toBe(true);
    expect(Object.isFrozen(CRAWL_SETTINGS_DEFAULTS.include)).toBe(true);
  });
});

describe('loadCrawlSettings: ERR_CONFIG_INVALID', () => {
  it('an unknown key in the file, named with the file, with the setting meant', async () => {
    const error = await failure({ cwd: workdir({ concurency: 8, maxdepth: 2, perHost: 2, frobnicate: true }) });
    expect(error.source).toBe('linkladder.config.json');
    expect(error.message).toMatch(/^invalid config file linkladder\.config\.json: /);
    expect(error.issues).toEqual([
      'unknown key `concurency` (did you mean `concurrency`?)',
      'unknown key `maxdepth` (did you mean `maxDepth`?)',
      'unknown key `perHost` (did you mean `perHostConcurrency`?)',
      'unknown key `frobnicate`',
    ]);
    for (const issue of error.issues) expect(error.message).toContain(issue);
  });

  it('bad values in the file: every issue, with the key, what was expected and what was given', async () => {
    const cwd = workdir();
    writeFile(path.join(cwd, 'bad.json'), {
      concurrency: 0,
      retries: '2',
      maxDepth: -1,
      maxPages: 1.5,
      perHostDelayMs: Infinity, // JSON.stringify writes null
      follow: ['navigation', 'anchor'],
      scope: 'planet',
      include: ['ok', '('],
      exclude: '/private/',
      allowPrivate: 'yes',
      userAgent: '',
      db: 42,
    });
    const error = await failure({ cwd, configPath: 'bad.json' });
    expect(error.source).toBe('bad.json');
    expect(error.message).toMatch(/^invalid config file bad\.json: /);
    expect(error.issues).toEqual([
      'Expected `db` to be a non-empty path, got `42` (number)',
      'Expected `scope` to be one of origin, host, domain, prefix, got `planet` (string)',
      'Expected `include[1]` to be valid, got `(` (string): Invalid regular expression: /(/: Unterminated group',
      'Expected `exclude` to be an array of regular expressions (RegExp or strings), got `/private/` (string)',
      'Expected `follow[1]` to be one of navigation, frame, refresh, link, resource, form, cite, got `anchor` (string)',
      'Expected `maxDepth` to be an integer >= 0, got `-1` (number)',
      'Expected `maxPages` to be an integer >= 0, got `1.5` (number)',
      'Expected `concurrency` to be an integer from 1 to 1000, got `0` (number)',
      'Expected `perHostDelayMs` to be an integer from 0 to 3600000, got `null`',
      'Expected `retries` to be an integer from 0 to 10, got `2` (string)',
      'Expected `allowPrivate` to be true or false, got `yes` (string)',
      'Expected `userAgent` to be a non-empty string without CR, LF or NUL, got `` (string)',
    ]);
  });

  it('a file that is not an object of settings', async () => {
    const error = await failure({ cwd: workdir([{ concurrency: 2 }]) });
    expect(error.message).toBe('invalid config file linkladder.config.json: Expected an object of settings by name, got an array');
  });

  it('a file that is not JSON names the file and what the parser says', async () => {
    const error = await failure({ cwd: workdir('{ "concurrency": 2, }') });
    expect(error.message).toMatch(/^config file linkladder\.config\.json is not JSON: .+/);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('a default file that exists but cannot be read (a directory) is an error, not a missing file', async () => {
    const cwd = workdir();
    mkdirSync(path.join(cwd, 'linkladder.config.json'));
    const error = await failure({ cwd });
    expect(error.message).toMatch(/^cannot read config file linkladder\.config\.json: EISDIR/);
  });

  it('a missing --config file is an error (only the default file may be missing)', async () => {
    const error = await failure({ cwd: workdir(), configPath: 'missing.json' });
    expect(error.source).toBe('missing.json');
    expect(error.message).toMatch(/^cannot read config file missing\.json: ENOENT: no such file or directory/);
  });

  it('a LINKLADDER_* variable that is no setting is a warning, named, with the one meant; the settings load', async () => {
    const warnings: string[] = [];
    const settings = await load({
      cwd: workdir(),
      env: { LINKLADDER_CONCURENCY: '8', LINKLADDER_FROB: '1', LINKLADDER_CONFIG: 'x.json', LINKLADDER_PER_HOST: '2', LINKLADDER_RETRIES: '3' },
      onWarning: (message) => warnings.push(message),
    });
    expect(settings.retries).toBe(3);
    expect(warnings).toEqual([
      '`LINKLADDER_CONCURENCY` is not a setting (did you mean `LINKLADDER_CONCURRENCY`?); it is ignored',
      '`LINKLADDER_CONFIG` is not a setting (the config file is given with --config); it is ignored',
      '`LINKLADDER_FROB` is not a setting; it is ignored',
      '`LINKLADDER_PER_HOST` is not a setting (did you mean `LINKLADDER_PER_HOST_CONCURRENCY`?); it is ignored',
    ]);
  });

  it("node-config's config/default.json in the working directory is not read (it is another tool's file)", async () => {
    const cwd = workdir();
    mkdirSync(path.join(cwd, 'config'));
    writeFile(path.join(cwd, 'config', 'default.json'), { database: { host: 'db' }, port: 8080 });
    expect(await load({ cwd })).toEqual(CRAWL_SETTINGS_DEFAULTS);
  });

  it('bad values in variables: every one, with its text', async () => {
    const error = await failure({
      cwd: workdir(),
      env: { LINKLADDER_CONCURRENCY: '0', LINKLADDER_JSON: 'yes', LINKLADDER_INCLUDE: '(', LINKLADDER_BASE_MODE: 'html5', LINKLADDER_MAX_PAGES: '' },
    });
    expect(error.issues).toEqual([
      '`LINKLADDER_BASE_MODE=html5`: Expected one of rfc3986, browser',
      '`LINKLADDER_CONCURRENCY=0`: Expected an integer from 1 to 1000',
      '`LINKLADDER_INCLUDE=(`: Invalid regular expression: /(/: Unterminated group',
      '`LINKLADDER_JSON=yes`: Expected true or false',
      '`LINKLADDER_MAX_PAGES=`: Expected an integer >= 0',
    ]);
  });

  it('a bad status policy: one line naming the entry', async () => {
    const error = await failure({ cwd: workdir(), env: { LINKLADDER_STATUS_POLICY: '403=broken,404=gone' } });
    expect(error.issues).toEqual([
      '`LINKLADDER_STATUS_POLICY=403=broken,404=gone`: Expected comma-separated STATUS=VERDICT entries (a status 100-999 or a class such as 4xx; ok, broken or unverified); `404=gone` is not one',
    ]);
    const fromFile = await failure({ cwd: workdir({ statusPolicy: '4xx=ok,4xx=broken' }) });
    expect(fromFile.message).toContain('`4xx` is given twice');
  });

  it("leaves alone the test suites' and benchmarks' own LINKLADDER_* variables, and every other variable", async () => {
    const env = { LINKLADDER_CORPUS_DIR: '/corpus', LINKLADDER_BENCH_PAGES: '2000', LINKLADDER_BENCH_ROUNDS: '1', PATH: '/bin', linkladder_db: 'x' };
    await expect(load({ cwd: workdir(), env })).resolves.toEqual(CRAWL_SETTINGS_DEFAULTS);
  });

  it('a bad file fails even when the variables and flags set every key it gets wrong', async () => {
    const error = await failure({ cwd: workdir({ concurrency: 0 }), env: { LINKLADDER_CONCURRENCY: '2' }, flags: { concurrency: 3 } });
    expect(error.issues).toEqual(['Expected `concurrency` to be an integer from 1 to 1000, got `0` (number)']);
  });
});

describe('loadCrawlSettings: header fields', () => {
  it('headerFor in a file: a list of "ORIGIN Name: value", or an object of origin → fields', async () => {
    const settings = await load({ cwd: workdir({ header: ['X-Token: ${TOKEN}'], headerFor: { 'https://cdn.example.com': ['X-Key: a', 'X-Other: b'] } }) });
    expect(settings.header).toEqual(['X-Token: ${TOKEN}']);
    expect(settings.headerFor).toEqual(['https://cdn.example.com X-Key: a', 'https://cdn.example.com X-Other: b']);
  });

  it('LINKLADDER_HEADER and LINKLADDER_HEADER_FOR give one field each, kept as written (${VAR} is read when the crawl starts)', async () => {
    const settings = await load({ cwd: workdir(), env: { LINKLADDER_HEADER: 'X-Token: ${TOKEN}', LINKLADDER_HEADER_FOR: 'https://cdn.example.com X-Key: a' } });
    expect(settings.header).toEqual(['X-Token: ${TOKEN}']);
    expect(settings.headerFor).toEqual(['https://cdn.example.com X-Key: a']);
  });

  it('a bad header setting in a file says its type, never its value', async () => {
    const error = await failure({ cwd: workdir({ header: 'Authorization: Bearer file-s3cret', headerFor: { 'https://cdn.example.com': 'X-Key: file-s3cret' } }) });
    expect(error.message).toContain('`header`');
    expect(error.message).toContain('a value of type string');
    expect(error.message).not.toContain('s3cret');
  });
});
