// The index of `check`: a fresh file each run, renamed into place; --cache-max-age's durations.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FreshIndex, previousVerdicts } from '../../src/cli/check-index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-check-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('FreshIndex', () => {
  it('writes beside the index and renames over it, a stale write-ahead log removed first', async () => {
    const index = new FreshIndex('sub/check.db', dir);
    await index.prepare();
    writeFileSync(index.path, 'old');
    writeFileSync(`${index.path}-wal`, 'stale');
    writeFileSync(index.partialPath, 'new');
    await index.commit();
    expect(readFileSync(index.path, 'utf8')).toBe('new');
    expect(existsSync(`${index.path}-wal`)).toBe(false);
    expect(existsSync(index.partialPath)).toBe(false);
  });

  it('discard leaves the old index', async () => {
    const index = new FreshIndex('keep.db', dir);
    await index.prepare();
    writeFileSync(index.path, 'old');
    writeFileSync(index.partialPath, 'half');
    writeFileSync(`${index.partialPath}-wal`, 'half');
    await index.discard();
    expect(readFileSync(index.path, 'utf8')).toBe('old');
    expect(existsSync(index.partialPath) || existsSync(`${index.partialPath}-wal`)).toBe(false);
  });

  it('prepare clears the partial files of processes that are gone, not of one that runs', async () => {
    const index = new FreshIndex('p.db', dir);
    const gone = path.join(dir, 'p.db.999999999.partial');
    const running = path.join(dir, `p.db.${process.ppid}.partial`);
    writeFileSync(gone, 'x');
    writeFileSync(`${gone}-shm`, 'x');
    writeFileSync(running, 'x');
    await index.prepare();
    expect([existsSync(gone), existsSync(`${gone}-shm`), existsSync(running)]).toEqual([false, false, true]);
  });
});

describe('previousVerdicts', () => {
  it('nothing to reuse without a previous index, or with a cache age of 0', async () => {
    const warnings: string[] = [];
    expect(await previousVerdicts(path.join(dir, 'none.db'), { now: Date.now(), maxAgeMs: 86_400_000 }, (m) => warnings.push(m))).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('a previous index this version cannot read: a warning, and every link is asked', async () => {
    const bad = path.join(dir, 'not-an-index.db');
    writeFileSync(bad, 'not a database');
    const warnings: string[] = [];
    expect(await previousVerdicts(bad, { now: Date.now(), maxAgeMs: 86_400_000 }, (m) => warnings.push(m))).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/cannot be read.*asked again/);
  });
});
