// `--changed <ref>`: files changed since a revision, deleted and untracked ones included.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ChangedFilesError, changedFiles } from '../../src/cli/changed-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-changed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8', env });

describe('changedFiles', () => {
  it('lists modified, deleted, committed-since and untracked files, spaces and all', async () => {
    git('init', '-q');
    for (const name of ['same.md', 'edited.md', 'deleted.md', 'a b.md']) writeFileSync(path.join(dir, name), name);
    writeFileSync(path.join(dir, '.gitignore'), 'ignored.md\n');
    git('add', '.');
    git('commit', '-qm', 'one');
    writeFileSync(path.join(dir, 'committed.md'), 'c');
    git('add', '.');
    git('commit', '-qm', 'two');
    writeFileSync(path.join(dir, 'edited.md'), 'changed');
    writeFileSync(path.join(dir, 'a b.md'), 'changed');
    unlinkSync(path.join(dir, 'deleted.md'));
    writeFileSync(path.join(dir, 'new.md'), 'n');
    writeFileSync(path.join(dir, 'ignored.md'), 'i');
    const files = await changedFiles('HEAD~1', dir);
    expect([...files].map((f) => path.relative(dir, f)).sort()).toEqual(['a b.md', 'committed.md', 'deleted.md', 'edited.md', 'new.md']);
  });

  it('refuses an unknown revision and an option in its place', async () => {
    await expect(changedFiles('nope', dir)).rejects.toBeInstanceOf(ChangedFilesError);
    await expect(changedFiles('--output=x', dir)).rejects.toThrow(/not a git revision/);
  });
});
