// README.md leads with what users do and stays short; the reference lives in docs/.
// Its two commands are the ones CI runs: .ci/run is a clean install, then exactly the
// README's test command. Every file of docs/ is reachable from its Documentation list.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The text of README's `## <title>` section. */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  expect(start, `a "## ${title}" section`).toBeGreaterThan(-1);
  const next = README.indexOf('\n## ', start + 1);
  return README.slice(start, next === -1 ? undefined : next);
}

describe('README.md', () => {
  it('is at most 300 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('has the two commands, and .ci/run runs its test command after a clean install', () => {
    const commands = [...section('Two commands').matchAll(/^(npm [^#\n]*?)\s*(?:#.*)?$/gm)].map((m) => m[1]);
    expect(commands).toEqual(['npm ci && npm start', 'npm test']);
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8').split('\n').filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('set ') && !line.startsWith('cd '));
    expect(ci).toEqual(['npm ci', 'npm test']);
  });

  it('links every file of docs/ from its Documentation section', () => {
    const listed = section('Documentation');
    for (const name of readdirSync(join(ROOT, 'docs')).filter((file) => file.endsWith('.md'))) {
      expect(listed, name).toContain(`](docs/${name})`);
    }
  });
});
