// Every relative link of README.md and docs/*.md names a file that exists and, with a
// #fragment, a heading or id in it: checked by linkladder itself (`linkladder check`
// reads Markdown and its anchors), the built CLI run on the repository's own docs.
// External links are left alone (nothing leaves the machine). A control run on a
// broken pair of files shows the check does catch a missing file and a missing anchor.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist/linkladder.mjs');
const run = promisify(execFile);

let dir: string;

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/linkladder.mjs is missing: run `npm run build` first');
  dir = mkdtempSync(join(tmpdir(), 'linkladder-doc-links-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** `linkladder check <targets> --no-check-external --format json` in `cwd`: exit code and findings. */
async function check(cwd: string, targets: string[]): Promise<{ code: number; findings: { code: string; file: string; rawHref: string }[] }> {
  const args = [CLI, 'check', ...targets, '--no-check-external', '--format', 'json', '--fail-on', 'warning', '--db', join(dir, `${targets.length}-${Date.now()}.db`)];
  const result = await run(process.execPath, args, { cwd, encoding: 'utf8' }).then(
    (ok) => ({ code: 0, stdout: ok.stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
  const findings = result.stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { code: string; file: string; rawHref: string });
  return { code: result.code, findings };
}

describe('links of README.md and docs/', () => {
  it('every relative link names an existing file and anchor (linkladder check)', async () => {
    const { code, findings } = await check(ROOT, ['README.md', 'docs/**/*.md']);
    expect(findings.map((f) => `${f.code} ${f.file} ${f.rawHref}`)).toEqual([]);
    expect(code).toBe(0);
  }, 120_000);

  it('the check catches a missing file and a missing anchor (control)', async () => {
    const site = mkdtempSync(join(dir, 'site-'));
    writeFileSync(join(site, 'a.md'), '# A\n\n[ok](b.md#section-one) [bad](b.md#nope) [gone](c.md)\n');
    writeFileSync(join(site, 'b.md'), '# B\n\n## Section one\n');
    const { code, findings } = await check(site, ['a.md', 'b.md']);
    expect(findings.map((f) => `${f.code} ${f.file} ${f.rawHref}`).sort()).toEqual(['LINK_BROKEN a.md c.md', 'LINK_FRAGMENT_MISSING a.md b.md#nope']);
    expect(code).toBe(1);
  }, 120_000);
});
