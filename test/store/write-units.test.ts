import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/index.js';
import { WriteUnits, type TransactionSteps } from '../../src/store/write-units.js';

/** Steps that write down what they were asked to do. */
function recordingSteps(): TransactionSteps & { readonly log: string[]; failCommit: boolean } {
  const log: string[] = [];
  const steps = {
    log,
    failCommit: false,
    begin: () => log.push('begin'),
    savepoint: () => log.push('savepoint'),
    release: () => log.push('release'),
    rollbackUnit: () => log.push('rollbackUnit'),
    commit: () => {
      log.push('commit');
      if (steps.failCommit) throw new Error('disk full');
    },
    rollbackGroup: () => log.push('rollbackGroup'),
  };
  return steps;
}

describe('WriteUnits', () => {
  it('runs units one at a time, in order, each in a savepoint of one open group', async () => {
    const steps = recordingSteps();
    const units = new WriteUnits(steps, { maxLinks: 1000, maxMs: 60_000, idleMs: 60_000 });
    const order: number[] = [];
    const slow = units.run(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push(1);
      return 'a';
    });
    const fast = units.run(() => {
      order.push(2);
      return 'b';
    });
    expect(await Promise.all([slow, fast])).toEqual(['a', 'b']);
    expect(order).toEqual([1, 2]);
    expect(steps.log).toEqual(['begin', 'savepoint', 'release', 'savepoint', 'release']);
    await units.flush();
    expect(steps.log.at(-1)).toBe('commit');
    expect(units.isOpen).toBe(false);
  });

  it('rolls back a unit that throws, and goes on with the next', async () => {
    const steps = recordingSteps();
    const units = new WriteUnits(steps, { maxMs: 60_000, idleMs: 60_000 });
    await expect(units.run(() => Promise.reject(new Error('bad page')))).rejects.toThrow('bad page');
    await expect(units.run(() => 1)).resolves.toBe(1);
    expect(steps.log).toEqual(['begin', 'savepoint', 'rollbackUnit', 'savepoint', 'release']);
  });

  it('commits once the group holds maxLinks links, and after maxMs without any call', async () => {
    const steps = recordingSteps();
    const units = new WriteUnits(steps, { maxLinks: 10, maxMs: 30, idleMs: 30 });
    await units.run(() => units.addLinks(6));
    expect(steps.log).not.toContain('commit');
    await units.run(() => units.addLinks(6));
    expect(steps.log.filter((s) => s === 'commit')).toHaveLength(1);
    await units.run(() => units.addLinks(1));
    expect(units.isOpen).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(units.isOpen).toBe(false);
    expect(steps.log.filter((s) => s === 'commit')).toHaveLength(2);
  });

  it('commits once no unit has come for idleMs, so a slow writer does not hold the lock', async () => {
    const steps = recordingSteps();
    const units = new WriteUnits(steps, { maxLinks: 1000, maxMs: 60_000, idleMs: 20 });
    await units.run(() => units.addLinks(1));
    await units.run(() => units.addLinks(1)); // came in time: the same group
    expect(steps.log.filter((s) => s === 'begin')).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(units.isOpen).toBe(false);
    expect(steps.log.filter((s) => s === 'commit')).toHaveLength(1);
  });

  it('after a failed commit every later write fails with ERR_STORE_WRITE_FAILED', async () => {
    const steps = recordingSteps();
    const units = new WriteUnits(steps, { maxMs: 60_000, idleMs: 60_000 });
    await units.run(() => 1);
    steps.failCommit = true;
    await expect(units.flush()).rejects.toThrow('disk full');
    expect(steps.log.at(-1)).toBe('rollbackGroup');
    await expect(units.run(() => 2)).rejects.toMatchObject({ code: 'ERR_STORE_WRITE_FAILED' });
    await expect(units.flush()).rejects.toMatchObject({ code: 'ERR_STORE_WRITE_FAILED' });
  });
});

describe('SqliteStore group commit', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-units-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('another connection sees a group only once it is committed, and then all of it', async () => {
    const file = path.join(dir, 'group.db');
    const writer = new SqliteStore({ path: file, groupCommit: { maxLinks: 1000, maxMs: 60_000, idleMs: 60_000 } });
    const [home] = await writer.admit([{ rawHref: 'http://h/', target: 'http://h/' }]);
    await writer.admit([{ fromUrlId: home!.urlId!, rawHref: 'a', target: 'http://h/a' }]);
    const reader = new SqliteStore({ path: file, readOnly: true });
    expect((await reader.stats()).links).toBe(0);
    await writer.flush();
    expect(await reader.stats()).toMatchObject({ links: 1, urlsByState: { queued: 2 } });
    await reader.close();
    await writer.close();
  });

  it('commits a thousand links at a time', async () => {
    const file = path.join(dir, 'thousand.db');
    const writer = new SqliteStore({ path: file, groupCommit: { maxLinks: 1000, maxMs: 60_000, idleMs: 60_000 } });
    const reader = new SqliteStore({ path: file, readOnly: true });
    const [home] = await writer.admit([{ rawHref: 'http://h/', target: 'http://h/' }]);
    const page = (n: number) =>
      Array.from({ length: 100 }, (_, i) => ({ fromUrlId: home!.urlId!, rawHref: `${n}/${i}`, target: `http://h/${n}/${i}` }));
    for (let n = 0; n < 9; n++) await writer.admit(page(n));
    expect((await reader.stats()).links).toBe(0);
    await writer.admit(page(9));
    expect((await reader.stats()).links).toBe(1000);
    await reader.close();
    await writer.close();
  });

  it('close() commits what is pending', async () => {
    const file = path.join(dir, 'close.db');
    const writer = new SqliteStore({ path: file, groupCommit: { maxMs: 60_000, idleMs: 60_000 } });
    await writer.admit([{ rawHref: 'http://h/', target: 'http://h/' }]);
    await writer.close();
    const reopened = new SqliteStore({ path: file });
    expect((await reopened.stats()).urlsByState.queued).toBe(1);
    await reopened.close();
  });
});
