// The commands that open an existing index find it as `crawl` does: --db, else
// LINKLADDER_DB, else the config file's "db", else data/linkladder.db.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/index.js';
import { run } from './cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-index-path-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An index holding one seed URL, at `file`. */
function indexAt(file: string, seed: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const store = new SqliteStore({ path: file });
  store.admit([{ rawHref: seed, target: seed }]);
  store.close();
}

const fromFlag = path.join(dir, 'flag.db');
const fromEnv = path.join(dir, 'env.db');
const fromFile = path.join(dir, 'file.db');
beforeAll(() => {
  indexAt(fromFlag, 'http://flag.test/');
  indexAt(fromEnv, 'http://env.test/');
  indexAt(fromFile, 'http://file.test/');
  writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ db: fromFile }));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'linkladder.config.json'), JSON.stringify({ db: fromFile }));
});

describe('which index a command opens', () => {
  it.each(['explain', 'db stats', 'stats', 'audit', 'graph'])('%s: the --db flag wins over LINKLADDER_DB and the config file', async (command) => {
    const args = command === 'explain' ? ['explain', 'http://flag.test/'] : command === 'graph' ? ['graph', '--format', 'csv'] : command.split(' ');
    const flagged = await run([...args, '--db', fromFlag, '--config', path.join(dir, 'settings.json')], { env: { LINKLADDER_DB: fromEnv } });
    expect(flagged.err).toEqual([]);
    expect(flagged.stdout).not.toContain('env.test');
    if (command === 'graph') expect(flagged.stdout).toContain('http://flag.test/');
  });

  it('LINKLADDER_DB, then the config file (--config, else linkladder.config.json in the working directory)', async () => {
    const byEnv = await run(['graph', '--format', 'csv', '--config', path.join(dir, 'settings.json')], { env: { LINKLADDER_DB: fromEnv } });
    expect(byEnv.stdout).toContain('http://env.test/');
    const byConfig = await run(['graph', '--format', 'csv', '--config', path.join(dir, 'settings.json')]);
    expect(byConfig.stdout).toContain('http://file.test/');
    const byDefaultFile = await run(['explain', 'http://file.test/'], { cwd: dir });
    expect(byDefaultFile.code).toBe(0);
    expect(byDefaultFile.out[0]).toBe('url       http://file.test/');
  });

  it('a bad config is a usage error for these commands too: one line, exit 2', async () => {
    writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ db: 3 }));
    const result = await run(['stats', '--config', path.join(dir, 'bad.json')]);
    expect(result.code).toBe(2);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(/^linkladder: error: .*bad\.json.*`db`/);
  });
});
