// The index of `check`: a fresh file each run, renamed into place; --cache-max-age's durations.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FreshIndex, parseDuration, previousVerdicts } from '../../src/cli/check-index.js';

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

describe('parseDuration', () => {
  it.each([
    ['1d', 86_400_000],
    ['12h', 43_200_000],
    ['30m', 1_800_000],
    ['90s', 90_000],
    ['2w', 1_209_600_000],
    ['0', 0],
  ])('%s', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', 'soon', '1', '-1d', '1.5h', '1y'])('refuses %j', (text) => expect(parseDuration(text)).toBeUndefined());
});

describe('previousVerdicts', () => {
  it('gives nothing to reuse yet', async () => {
    expect(await previousVerdicts(path.join(dir, 'none.db'))).toBeUndefined();
  });
});
