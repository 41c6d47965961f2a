// What the npm package ships: the licence, and every document the tool's own help
// points to (`linkladder audit --help` names docs/audit.md), so that an installed
// package carries the reference its messages cite. `npm pack --dry-run` lists the
// tarball's files without building it (scripts off: no `prepare` build).

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

let files: Set<string>;

beforeAll(() => {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
  files = new Set(pack!.files.map((file) => file.path));
}, 60_000);

/** Every `docs/….md` a source file of src/cli names (help texts, messages). */
function docsNamedByCli(): Set<string> {
  const named = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) for (const m of readFileSync(path, 'utf8').matchAll(/\bdocs\/[\w.-]+\.md\b/g)) named.add(m[0]);
    }
  };
  walk(join(ROOT, 'src/cli'));
  return named;
}

describe('npm package', () => {
  it('ships LICENSE (MIT) and docs/audit.md', () => {
    expect(files.has('LICENSE')).toBe(true);
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the linkladder authors\n/);
    expect(files.has('docs/audit.md')).toBe(true);
  });

  it('ships every doc the CLI points to', () => {
    const named = docsNamedByCli();
    expect(named.has('docs/audit.md')).toBe(true);
    for (const doc of named) expect(files.has(doc), doc).toBe(true);
  });

  it('ships every file of docs/ and the README that links to them', () => {
    expect(files.has('README.md')).toBe(true);
    for (const name of readdirSync(join(ROOT, 'docs'))) if (name.endsWith('.md')) expect(files.has(`docs/${name}`), name).toBe(true);
  });

  it('ships the entry files of the subpath exports', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { types: string; default: string }> };
    expect(Object.keys(pkg.exports)).toEqual(['.', './uri', './index', './crawl']);
    for (const target of Object.values(pkg.exports)) {
      expect(files.has(target.default.replace(/^\.\//, '')), target.default).toBe(true);
      expect(files.has(target.types.replace(/^\.\//, '')), target.types).toBe(true);
    }
  });
});
