// action.yml run as GitHub runs it: its composite `run:` steps, with the inputs
// substituted into their `env:` and GITHUB_STEP_SUMMARY / GITHUB_OUTPUT pointed at
// temporary files, run by bash (`bash --noprofile --norc -eo pipefail`, as the runner
// does) in a copy of a small site with one broken link — `npx linkladder@…` replaced
// by a fake that records its arguments and, once the build has `check`, by the
// built bundle itself. Also the fields of .pre-commit-hooks.yaml.

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { formatCheckMarkdown, type CheckFinding } from '../../src/report/index.js';
import { ensureBuilt, MAIN } from '../cli/built-cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SITE = fileURLToPath(new URL('../fixtures/ci/site/', import.meta.url));
const FAKE = fileURLToPath(new URL('../fixtures/ci/fake-linkladder.mjs', import.meta.url));
const LOOPBACK_ONLY = fileURLToPath(new URL('../support/loopback-only.mjs', import.meta.url));

interface ActionStep {
  readonly name?: string;
  readonly id?: string;
  readonly if?: string;
  readonly uses?: string;
  readonly with?: Record<string, string>;
  readonly shell?: string;
  readonly env?: Record<string, string>;
  readonly run?: string;
}

interface Action {
  readonly name: string;
  readonly description: string;
  readonly inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  readonly outputs: Record<string, { description: string; value: string }>;
  readonly runs: { using: string; steps: ActionStep[] };
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

/** The one `npx --yes "linkladder@$CHECK_VERSION"` of the action, the command the tests replace. */
const NPX = /npx --yes "linkladder@\$CHECK_VERSION"/g;

await ensureBuilt();
/** Whether the build has the `check` command (it lands with the command's own branch). */
const hasCheckCommand = /^Usage: linkladder check /m.test(spawnSync(process.execPath, [MAIN, 'check', '--help'], { encoding: 'utf8' }).stdout);

/** What the fake check reports: the fixture's broken link, and a slow external one (a warning). */
const BROKEN_LINK: CheckFinding = {
  code: 'LINK_BROKEN',
  severity: 'error',
  page: 'file:///site/index.md',
  file: 'index.md',
  rawHref: 'missing.md',
  target: 'file:///site/missing.md',
  message: 'the target answered 404',
  detail: {},
  verdict: 'broken',
  line: 3,
  column: 42,
};
const SLOW_LINK: CheckFinding = {
  ...BROKEN_LINK,
  code: 'LINK_UNVERIFIED',
  severity: 'warning',
  page: 'file:///site/guide.md',
  file: 'guide.md',
  rawHref: 'https://slow.example/',
  target: 'https://slow.example/',
  message: 'the target did not answer in time',
  verdict: 'unverified',
  column: 6,
};

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'linkladder-action-'));
  temps.push(dir);
  return dir;
}

interface ActionRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly summary: string;
  readonly outputs: string;
  readonly cwd: string;
  readonly summaryFile: string;
}

/** `${{ inputs.x }}` replaced by the input given, else its default; any other expression is an error here. */
function substitute(text: string, inputs: Readonly<Record<string, string>>): string {
  return text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => {
    const spec = action.inputs[name];
    if (spec === undefined) throw new Error(`action.yml uses an input it does not declare: ${name}`);
    return inputs[name] ?? spec.default ?? '';
  });
}

/** Run the action's `run:` steps in a copy of the fixture site, `linkladder` being `command`. */
function runAction(inputs: Readonly<Record<string, string>>, command: string, extraEnv: Readonly<Record<string, string>> = {}): ActionRun {
  const work = tempDir();
  const cwd = join(work, 'repo');
  cpSync(SITE, cwd, { recursive: true });
  const summaryFile = join(work, 'step-summary.md');
  const outputFile = join(work, 'github-output');
  writeFileSync(summaryFile, '');
  writeFileSync(outputFile, '');
  let last: ActionRun | undefined;
  for (const step of action.runs.steps) {
    if (step.run === undefined) continue;
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '',
      HOME: work,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_OUTPUT: outputFile,
      ...extraEnv,
    };
    for (const [name, value] of Object.entries(step.env ?? {})) env[name] = substitute(String(value), inputs);
    const script = step.run.replace(NPX, command);
    const file = join(work, `step-${step.id ?? 'run'}.sh`);
    writeFileSync(file, script);
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd, env, encoding: 'utf8', timeout: 120_000 });
    last = {
      code: result.status,
      stdout: result.stdout,
      stderr: result.stderr,
      summary: readFileSync(summaryFile, 'utf8'),
      outputs: readFileSync(outputFile, 'utf8'),
      cwd,
      summaryFile,
    };
    if (result.status !== 0) break;
  }
  if (last === undefined) throw new Error('action.yml has no run step');
  return last;
}

describe('action.yml', () => {
  test('a composite action with the documented inputs and defaults, and the exit code as an output', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.fromEntries(Object.entries(action.inputs).map(([name, spec]) => [name, spec.default]))).toEqual({
      args: '.',
      'fail-on': 'error',
      format: 'github',
      version: 'latest',
      cache: 'true',
      summary: 'true',
    });
    for (const spec of Object.values(action.inputs)) expect(spec.description.length).toBeGreaterThan(20);
    expect(action.outputs['exit-code']?.value).toBe('${{ steps.check.outputs.exit-code }}');
  });

  test('caches .linkladder/ (where check keeps its index) with actions/cache, when the cache input is true', () => {
    const cache = action.runs.steps.find((step) => step.uses?.startsWith('actions/cache@'));
    expect(cache?.uses).toBe('actions/cache@v4');
    expect(cache?.if).toBe("inputs.cache == 'true'");
    expect(cache?.with?.['path']).toBe('.linkladder');
    // A key per run (entries are immutable), restored by prefix.
    expect(cache?.with?.['key']).toContain('${{ github.run_id }}');
    expect(cache?.with?.['restore-keys']).toContain('linkladder-${{ runner.os }}-');
  });

  test('inputs reach the scripts only as variables: no expression inside a run script', () => {
    const runs = action.runs.steps.filter((step) => step.run !== undefined);
    expect(runs.map((step) => step.id)).toEqual(['check']);
    for (const step of runs) {
      expect(step.shell).toBe('bash');
      expect(step.run).not.toContain('${{');
      expect(step.run!.match(NPX)).toHaveLength(1);
    }
  });

  test('runs check with the inputs, prints its annotations, writes the job summary and exits with its code', () => {
    const log = join(tempDir(), 'args.json');
    const run = runAction({}, `node ${JSON.stringify(FAKE)}`, { FAKE_LINKLADDER_LOG: log, FAKE_LINKLADDER_FINDINGS: JSON.stringify([BROKEN_LINK, SLOW_LINK]) });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      '::error file=index.md,line=3,col=42,title=LINK_BROKEN::"missing.md" → file:///site/missing.md: the target answered 404\n' +
        '::warning file=guide.md,line=3,col=6,title=LINK_UNVERIFIED::"https://slow.example/": the target did not answer in time\n',
    );
    expect(run.summary).toBe(formatCheckMarkdown([BROKEN_LINK, SLOW_LINK], { ok: 1, broken: 1, unverified: 1 }));
    expect(run.summary).toMatch(/^### ❌ linkladder check: 1 broken, 1 unverified, 1 ok link\n/);
    expect(run.outputs).toBe('exit-code=1\n');
    const { args, cwd } = JSON.parse(readFileSync(log, 'utf8')) as { args: string[]; cwd: string };
    expect(args).toEqual(['check', '.', '--fail-on', 'error', '--format', 'github', '--summary', run.summaryFile]);
    expect(cwd).toBe(run.cwd);
  });

  test('fail-on warning reaches check: an unverified link alone fails the step', () => {
    const log = join(tempDir(), 'args.json');
    const env = { FAKE_LINKLADDER_LOG: log, FAKE_LINKLADDER_FINDINGS: JSON.stringify([SLOW_LINK]) };
    expect(runAction({}, `node ${JSON.stringify(FAKE)}`, env).code).toBe(0);
    const run = runAction({ 'fail-on': 'warning' }, `node ${JSON.stringify(FAKE)}`, env);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error file=guide\.md,/);
    expect(run.summary).toMatch(/^### ❌ /);
  });

  test('exit 0 passes through; other inputs; no summary when summary is false', () => {
    const log = join(tempDir(), 'args.json');
    const run = runAction({ 'fail-on': 'warning', format: 'junit', summary: 'false', args: 'docs' }, `node ${JSON.stringify(FAKE)}`, {
      FAKE_LINKLADDER_LOG: log,
    });
    expect(run.code).toBe(0);
    expect(run.outputs).toBe('exit-code=0\n');
    expect(run.summary).toBe('');
    expect((JSON.parse(readFileSync(log, 'utf8')) as { args: string[] }).args).toEqual(['check', 'docs', '--fail-on', 'warning', '--format', 'junit']);
  });

  test('args are split at whitespace and newlines, never globbed by the shell nor run as code', () => {
    const log = join(tempDir(), 'args.json');
    const args = '*.md  ./public\n--site-url https://example.org/ $(touch pwned) `touch pwned2` ;touch pwned3';
    const run = runAction({ args }, `node ${JSON.stringify(FAKE)}`, { FAKE_LINKLADDER_LOG: log });
    expect(run.code).toBe(0);
    expect((JSON.parse(readFileSync(log, 'utf8')) as { args: string[] }).args.slice(0, 10)).toEqual([
      'check',
      '*.md',
      './public',
      '--site-url',
      'https://example.org/',
      '$(touch',
      'pwned)',
      '`touch',
      'pwned2`',
      ';touch',
    ]);
    for (const name of ['pwned', 'pwned2', 'pwned3']) expect(existsSync(join(run.cwd, name))).toBe(false);
  });

  // The real `check`, from the built bundle, on the fixture site. `check --summary <file>` (append the Markdown summary) is what the action needs of the command.
  describe.skipIf(!hasCheckCommand)('with the built check command', () => {
    const linkladder = `node --import ${JSON.stringify(LOOPBACK_ONLY)} ${JSON.stringify(MAIN)}`;

    test('one broken link: exit 1, its annotation on stdout, the summary written, the index where the cache looks', () => {
      const run = runAction({}, linkladder);
      expect(run.code, run.stderr).toBe(1);
      const annotations = run.stdout.split('\n').filter((line) => line.startsWith('::'));
      expect(annotations).toHaveLength(1);
      expect(annotations[0]).toMatch(/^::error file=index\.md,line=3,col=\d+,title=LINK_BROKEN::"missing\.md"/);
      expect(run.summary).toMatch(/^### ❌ linkladder check: 1 broken/);
      expect(run.summary).toContain('missing&#46;md');
      expect(run.outputs).toBe('exit-code=1\n');
      expect(existsSync(join(run.cwd, '.linkladder'))).toBe(true);
    });

    test('the pre-commit hook: check on the files given', () => {
      const cwd = join(tempDir(), 'repo');
      cpSync(SITE, cwd, { recursive: true });
      const hook = hooks.find((h) => h.id === 'linkladder-check')!;
      const [program, ...args] = hook.entry.split(' ');
      expect(program).toBe('linkladder');
      const broken = spawnSync(process.execPath, ['--import', LOOPBACK_ONLY, MAIN, ...args, 'index.md'], { cwd, encoding: 'utf8' });
      expect(broken.status, broken.stderr).toBe(1);
      const fine = spawnSync(process.execPath, ['--import', LOOPBACK_ONLY, MAIN, ...args, 'guide.md'], { cwd, encoding: 'utf8' });
      expect(fine.status, fine.stderr).toBe(0);
    });
  });
});

interface Hook {
  readonly id: string;
  readonly name: string;
  readonly entry: string;
  readonly language: string;
  readonly files?: string;
  readonly args?: string[];
  readonly pass_filenames?: boolean;
  readonly require_serial?: boolean;
  readonly [key: string]: unknown;
}

const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];

// The keys of a hook in a repository's .pre-commit-hooks.yaml (pre-commit's MANIFEST_HOOK_DICT).
const MANIFEST_KEYS = new Set([
  'id', 'name', 'entry', 'language', 'alias', 'files', 'exclude', 'types', 'types_or', 'exclude_types',
  'additional_dependencies', 'args', 'always_run', 'fail_fast', 'pass_filenames', 'description',
  'language_version', 'log_file', 'require_serial', 'stages', 'verbose', 'minimum_pre_commit_version',
]);

describe('.pre-commit-hooks.yaml', () => {
  test('two node hooks running `linkladder check`, each key one pre-commit knows', () => {
    expect(hooks.map((h) => h.id)).toEqual(['linkladder-check', 'linkladder-check-folder']);
    const bin = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin;
    for (const hook of hooks) {
      for (const key of Object.keys(hook)) expect(MANIFEST_KEYS.has(key), key).toBe(true);
      expect(hook.language).toBe('node');
      expect(hook.entry).toBe('linkladder check');
      // pre-commit installs the package and puts its bins on PATH.
      expect(bin).toHaveProperty('linkladder');
      expect(hook.name.length).toBeGreaterThan(0);
      // One index for the run: never batches in parallel.
      expect(hook.require_serial).toBe(true);
    }
  });

  test('the file hook gets the Markdown and HTML files; the folder hook gets a folder and no file names', () => {
    const [files, folder] = hooks;
    expect(files!.pass_filenames).toBe(true);
    expect(folder!.pass_filenames).toBe(false);
    expect(folder!.args).toEqual(['.']);
    for (const hook of [files!, folder!]) {
      // pre-commit matches `files` with Python's re.search; this pattern means the same in JavaScript.
      const pattern = new RegExp(hook.files!);
      for (const name of ['README.md', 'docs/a b.markdown', 'public/index.html', 'x/y.htm']) expect(pattern.test(name), name).toBe(true);
      for (const name of ['notes.txt', 'a.md.bak', 'page.xhtml.orig', 'mdfile']) expect(pattern.test(name), name).toBe(false);
    }
  });
});

describe('docs/ci.md', () => {
  const doc = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');

  test('every YAML recipe parses', () => {
    const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(7);
    for (const block of blocks) expect(() => parse(block), block).not.toThrow();
  });

  test("the inputs table is action.yml's inputs, with their defaults", () => {
    const rows = [...doc.matchAll(/^\| `([\w-]+)` \| `([^`]*)` \|/gm)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(Object.entries(action.inputs).map(([name, spec]) => [name, spec.default])));
  });

  test('the recipes use the formats check has, and the exit codes are 0 to 4', () => {
    const formats = [...doc.matchAll(/linkladder check [^\n]*--format (\w+)/g)].map((m) => m[1]);
    expect(new Set(formats)).toEqual(new Set(['github', 'markdown', 'sarif', 'junit']));
    expect([...doc.matchAll(/^\| (\d) \| /gm)].map((m) => m[1])).toEqual(['0', '1', '2', '3', '4']);
  });
});
