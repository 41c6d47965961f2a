// The subpath exports of package.json: `linkladder/uri`, `linkladder/index` and
// `linkladder/crawl` each offer their part of the API and load only what that part
// needs — a library user who only normalizes URLs does not pay for an HTTP client,
// two database drivers and a Markdown parser. Runs the built package (dist/), imported
// by its own name from a child process whose module loads are recorded by a hook.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../../src/index.js';
import * as uriEntry from '../../src/entry/uri.js';
import * as indexEntry from '../../src/entry/index-api.js';
import * as crawlEntry from '../../src/entry/crawl.js';
import type * as Whole from '../../src/index.js';
import type * as Uri from '../../src/entry/uri.js';
import type * as Index from '../../src/entry/index-api.js';
import type * as Crawl from '../../src/entry/crawl.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HEAVY = ['undici', 'better-sqlite3', 'postgres', 'micromark'] as const;

let dir: string;
let hook: string;

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/src/entry/uri.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  dir = mkdtempSync(join(tmpdir(), 'linkladder-exports-'));
  // A resolve hook (it runs on the loader's thread) writes each module's URL to fd 3.
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    "import { writeSync } from 'node:fs';\n" +
      'export async function resolve(specifier, context, next) {\n' +
      '  const result = await next(specifier, context);\n' +
      "  writeSync(3, result.url + '\\n');\n" +
      '  return result;\n' +
      '}\n',
  );
  hook = join(dir, 'register.mjs');
  writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(new URL(`file://${hooks}`).href)});\n`);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The names `import(specifier)` exports, in a fresh node. */
function namesOf(specifier: string): string[] {
  const script = `const m = await import(${JSON.stringify(specifier)}); process.stdout.write(JSON.stringify(Object.keys(m)));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT, // the package's own folder: `linkladder/…` resolves to itself through `exports`
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out) as string[];
}

/** The packages of node_modules among module URLs. */
function packagesIn(modules: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const url of modules) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (match) found.add(match[1]!);
  }
  return found;
}

/** The URLs of the modules `import(specifier)` loads in a fresh node (fd 3 of the hook, through a shell). */
function modulesLoadedBy(specifier: string): string[] {
  const script = `await import(${JSON.stringify(specifier)});`;
  const result = execFileSync(
    'bash',
    ['-c', `"$0" --import "$1" --input-type=module -e "$2" 3>&1 1>/dev/null`, process.execPath, hook, script],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return result.split('\n').filter((line) => line !== '');
}

describe('subpath exports', () => {
  it('linkladder/uri loads no HTTP client, database driver or Markdown parser', () => {
    const modules = modulesLoadedBy('linkladder/uri');
    expect(modules.some((url) => url.endsWith('/dist/src/entry/uri.js'))).toBe(true);
    const packages = packagesIn(modules);
    for (const heavy of HEAVY) expect([...packages].filter((name) => name.startsWith(heavy)), heavy).toEqual([]);
    expect([...packages]).toEqual([]);
  });

  it('the recording sees those packages where they are loaded (linkladder, linkladder/index)', () => {
    const all = packagesIn(modulesLoadedBy('linkladder'));
    for (const heavy of HEAVY) expect(all.has(heavy), heavy).toBe(true);
    const index = packagesIn(modulesLoadedBy('linkladder/index'));
    expect(index.has('better-sqlite3')).toBe(true);
  });

  it('each subpath resolves to the built entry file and exports its part of the API', () => {
    expect(namesOf('linkladder/uri').sort()).toEqual(Object.keys(uriEntry).sort());
    expect(namesOf('linkladder/index').sort()).toEqual(Object.keys(indexEntry).sort());
    expect(namesOf('linkladder/crawl').sort()).toEqual(Object.keys(crawlEntry).sort());
    expect(namesOf('linkladder').sort()).toEqual(Object.keys(api).sort());
  });

  it('linkladder re-exports every name of the three subpaths, as the same values', () => {
    const whole = api as Record<string, unknown>;
    for (const part of [uriEntry, indexEntry, crawlEntry] as Record<string, unknown>[]) {
      for (const [name, value] of Object.entries(part)) expect(whole[name], name).toBe(value);
    }
  });

  it('linkladder/uri has the URI core and the ladder', () => {
    expect(Object.keys(uriEntry)).toEqual(
      expect.arrayContaining([
        'parse', 'tryParse', 'resolve', 'tryResolve', 'resolverFor', 'normalize', 'tryNormalize', 'compare', 'tryCompare',
        'iriToUri', 'tryIriToUri', 'serialize', 'removeDotSegments', 'normalizePercentEncoding', 'RUNGS', 'SCHEMES',
        'AliasMap', 'ALIAS_EVIDENCE', 'resourceKey', 'UriError', 'OptionError', 'ERROR_MESSAGES',
      ]),
    );
    expect(Object.keys(indexEntry).sort()).toEqual(['StoreError', 'openIndex', 'openIndexReader']);
    expect(Object.keys(crawlEntry).sort()).toEqual(['CrawlError', 'crawl', 'createFetcher', 'createRequestCredentials', 'createRobotsPolicy', 'explain']);
  });

  it('the types of the subpaths are those of linkladder', () => {
    expectTypeOf<Uri.UriReference>().toEqualTypeOf<Whole.UriReference>();
    expectTypeOf<Uri.ResolveOptions>().toEqualTypeOf<Whole.ResolveOptions>();
    expectTypeOf<Uri.Comparison>().toEqualTypeOf<Whole.Comparison>();
    expectTypeOf<Index.IndexWriter>().toEqualTypeOf<Whole.IndexWriter>();
    expectTypeOf<Index.IndexReader>().toEqualTypeOf<Whole.IndexReader>();
    expectTypeOf<Crawl.CrawlOptions>().toEqualTypeOf<Whole.CrawlOptions>();
    expectTypeOf<Crawl.CrawlSummary>().toEqualTypeOf<Whole.CrawlSummary>();
    expectTypeOf<Crawl.Fetcher>().toEqualTypeOf<Whole.Fetcher>();
  });
});
