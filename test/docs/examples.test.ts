// Every TypeScript example of README.md and docs/*.md compiles and runs: each ```ts
// block is written out as a module that imports the BUILT package by its own name
// (`linkladder`, `linkladder/uri`, … through package.json `exports`), typechecked with
// the repository's compiler settings, then run in a fresh node, the blocks of one
// document in order and in one working directory of their own. A block marked
// ```ts no-run is typechecked only (keep that rare). A line that shows its result in a
// comment (`resolve('../g', base); // 'http://a/b/g'`) is run as an assertion that the
// result is that value, so the comments cannot drift. The runs stay on loopback: DNS
// answers localhost only (test/support/loopback-only.mjs), so an example that crawls
// https://example.com/ runs its whole path and records the refused lookup.

import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Inside the package (not under node_modules), so that `import 'linkladder'` resolves to
// the package itself; test-artifacts/ is ignored by git.
const WORK = join(ROOT, 'test-artifacts', `docs-examples-${process.pid}`);
const LOOPBACK_ONLY = join(ROOT, 'test/support/loopback-only.mjs');

interface Example {
  readonly doc: string;
  readonly index: number;
  readonly line: number;
  readonly code: string;
  readonly isRun: boolean;
  readonly module: string;
}

// `expression; // 'value'`, `// { … }` or `// undefined`, and whatever note follows the value.
const SHOWN_RESULT = /^(\s*)((?!const |let |await |import |for |if |return )[A-Za-z_$].*?);\s*\/\/\s*('(?:[^'\\]|\\.)*'|\{[^{}]*\}|undefined)(?:\s.*)?$/;

/** The block with each line that shows its result turned into an assertion of it, and how many were. */
export function withAssertions(code: string, where: string): { code: string; assertions: number } {
  let assertions = 0;
  const lines = code.split('\n').map((line) => {
    const match = SHOWN_RESULT.exec(line);
    if (!match) return line;
    assertions++;
    return `${match[1]}deepStrictEqual(${match[2]}, ${match[3]}, ${JSON.stringify(`${where}: ${match[2]}`)});`;
  });
  if (assertions === 0) return { code, assertions };
  return { code: `import { deepStrictEqual } from 'node:assert/strict';\n${lines.join('\n')}`, assertions };
}

/** The ```ts blocks of one Markdown file. */
export function examplesOf(doc: string, text: string): Example[] {
  const examples: Example[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```ts(?:\s+(.*))?$/.exec(lines[i]!);
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== '```') end++;
    const index = examples.length + 1;
    const slug = doc.replace(/[^\w]+/g, '-').replace(/-md$/, '');
    examples.push({
      doc,
      index,
      line: start,
      code: lines.slice(start, end).join('\n'),
      isRun: !(open[1] ?? '').split(/\s+/).includes('no-run'),
      module: `${slug}-${index}`,
    });
    i = end;
  }
  return examples;
}

function docs(): string[] {
  return ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
}

const EXAMPLES = docs().flatMap((doc) => examplesOf(doc, readFileSync(join(ROOT, doc), 'utf8')));

let typeErrors = new Map<string, string[]>();

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/src/index.d.ts'))) throw new Error('dist/ is missing: run `npm run build` first');
  mkdirSync(join(WORK, 'src'), { recursive: true });
  for (const example of EXAMPLES) {
    // `export {}` makes a block with no import a module, so top-level await is allowed.
    const { code } = example.isRun ? withAssertions(example.code, `${example.doc}:${example.line}`) : example;
    writeFileSync(join(WORK, 'src', `${example.module}.ts`), `${code}\nexport {};\n`);
  }
  const base = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
  writeFileSync(
    join(WORK, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        ...base.compilerOptions,
        // An example shows values it does not use (`const index = …`, then nothing).
        noUnusedLocals: false,
        declaration: false,
        sourceMap: false,
        rootDir: 'src',
        outDir: 'out',
      },
      include: ['src/*.ts'],
    }),
  );
  typeErrors = new Map();
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(WORK, 'tsconfig.json'), '--pretty', 'false'], {
      cwd: WORK,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const out = String((error as { stdout?: string }).stdout ?? error);
    for (const line of out.split('\n')) {
      const match = /^src\/([\w-]+)\.ts\(/.exec(line);
      if (match) typeErrors.set(match[1]!, [...(typeErrors.get(match[1]!) ?? []), line]);
      else if (line.trim() !== '' && typeErrors.size === 0) typeErrors.set('*', [...(typeErrors.get('*') ?? []), line]);
    }
  }
}, 120_000);

afterAll(() => {
  rmSync(WORK, { recursive: true, force: true });
});

const run = promisify(execFile);

describe('the TypeScript examples of README.md and docs/', () => {
  it('there are examples, and few are marked no-run', () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(6);
    expect(EXAMPLES.filter((example) => !example.isRun).length).toBeLessThanOrEqual(2);
    expect(EXAMPLES.filter((example) => example.doc === 'README.md').length).toBeGreaterThanOrEqual(2);
  });

  it('the results shown in comments are asserted (the URI examples show theirs)', () => {
    const shown = EXAMPLES.map((example) => withAssertions(example.code, '').assertions);
    expect(shown.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(12);
    expect(withAssertions("resolve('../g', base); // 'http://a/b/g' (§5.4.1)", 'x').code).toContain(
      `deepStrictEqual(resolve('../g', base), 'http://a/b/g', "x: resolve('../g', base)");`,
    );
    expect(withAssertions("const a = f(); // 'x'", 'x').assertions).toBe(0);
    expect(withAssertions("resolve('g', 'http://a/d;p?q'); // 'http://a/g'", 'x').code).toContain(`deepStrictEqual(resolve('g', 'http://a/d;p?q'), 'http://a/g',`);
  });

  for (const doc of new Set(EXAMPLES.map((example) => example.doc))) {
    describe(doc, () => {
      const cwd = join(WORK, 'cwd', doc.replace(/[^\w]+/g, '-'));
      beforeAll(() => {
        // A working directory as a user's: `data/` exists, as in a clone.
        mkdirSync(join(cwd, 'data'), { recursive: true });
      });
      for (const example of EXAMPLES.filter((e) => e.doc === doc)) {
        const name = `block ${example.index} (line ${example.line}) compiles${example.isRun ? ' and runs' : ''}`;
        it(name, async () => {
          expect(typeErrors.get('*'), 'tsc failed as a whole').toBeUndefined();
          expect(typeErrors.get(example.module) ?? [], `${doc}:${example.line}`).toEqual([]);
          if (!example.isRun) return;
          const script = join(WORK, 'out', `${example.module}.js`);
          const result = await run(process.execPath, ['--import', LOOPBACK_ONLY, script], { cwd, encoding: 'utf8', timeout: 60_000 }).catch(
            (error: { code?: number; stdout?: string; stderr?: string }) => error,
          );
          expect('code' in result && typeof result.code === 'number' ? `exit ${result.code}: ${result.stderr}` : 'ok', `${relative(ROOT, script)} from ${doc}:${example.line}`).toBe('ok');
        }, 90_000);
      }
    });
  }
});
