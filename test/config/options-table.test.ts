// The options table of `linkladder crawl` in docs/options.md is generated from the
// schema. After an intended change: UPDATE_GOLDEN=1 npx vitest run
// test/config/options-table.test.ts rewrites it (and prints it).

import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPTIONS_TABLE_END, OPTIONS_TABLE_START, SETTINGS, renderOptionsTable, withOptionsTable } from '../../src/config/index.js';

const OPTIONS_DOC = new URL('../../docs/options.md', import.meta.url);
const isUpdating = process.env.UPDATE_GOLDEN === '1';

describe("docs/options.md's crawl options table", () => {
  it('is the one the schema generates', () => {
    const readme = readFileSync(OPTIONS_DOC, 'utf8');
    const expected = withOptionsTable(readme);
    if (isUpdating && expected !== readme) {
      writeFileSync(OPTIONS_DOC, expected);
      process.stdout.write(`docs/options.md: crawl options table rewritten:\n${renderOptionsTable().join('\n')}\n`);
    }
    expect(readme, 'docs/options.md differs from the table src/config/schema.ts generates (UPDATE_GOLDEN=1 rewrites it)').toBe(
      isUpdating ? readme : expected,
    );
    expect(readme.split(OPTIONS_TABLE_START)).toHaveLength(2);
    expect(readme.split(OPTIONS_TABLE_END)).toHaveLength(2);
  });

  it('has a row for --config and each setting, with its key and variable', () => {
    const rows = renderOptionsTable().slice(2);
    expect(rows).toHaveLength(SETTINGS.length + 1);
    expect(rows[0]).toMatch(/^\| `--config FILE` \| — \| — \| `linkladder.config.json` if it exists \|/);
    expect(rows).toContain(
      '| `--per-host-concurrency N` | `perHostConcurrency` | `LINKLADDER_PER_HOST_CONCURRENCY` | 1 | requests in flight at once to one host |',
    );
    expect(rows).toContain(
      '| `--base-mode` | `baseMode` | `LINKLADDER_BASE_MODE` | `rfc3986` | the base URI chain: `rfc3986` uses `Content-Location` (§5.1.2), `browser` does not |',
    );
    expect(rows).toContain('| `--max-depth N` | `maxDepth` | `LINKLADDER_MAX_DEPTH` | no limit | follow links up to depth N (seeds are 0); deeper ones are recorded |');
    expect(rows).toContain('| `--allow-private` | `allowPrivate` | `LINKLADDER_ALLOW_PRIVATE` | off | allow loopback, private and link-local addresses (`127.0.0.1`, `10.x`, `[::1]`, `localhost` …), named or resolved by DNS |');
  });

  it('replaces only what lies between the markers, and refuses a file without them', () => {
    const text = `before\n${OPTIONS_TABLE_START}\nold\n${OPTIONS_TABLE_END}\nafter\n`;
    expect(withOptionsTable(text)).toBe(`before\n${OPTIONS_TABLE_START}\n${renderOptionsTable().join('\n')}\n${OPTIONS_TABLE_END}\nafter\n`);
    expect(() => withOptionsTable('no markers')).toThrow(/crawl-options:start/);
  });
});
