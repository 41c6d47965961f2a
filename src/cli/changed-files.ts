// `check --changed <ref>`: the files changed since a git revision — changed in the
// working tree, committed since, deleted, and new files git does not track yet
// (a page being written is changed too: `git diff <ref>` already compares the
// working tree, and leaving out the one kind of change it cannot see would hide a
// new page's broken links until it is committed).

import { execFile } from 'node:child_process';
import path from 'node:path';

export class ChangedFilesError extends Error {
  override readonly name = 'ChangedFilesError';
}

function git(args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', [...args], { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else reject(new ChangedFilesError(stderr.trim().split('\n')[0] || error.message));
    });
  });
}

/** The absolute paths of the files changed since `ref` (and untracked ones); throws `ChangedFilesError`. */
export async function changedFiles(ref: string, cwd: string): Promise<Set<string>> {
  if (ref.startsWith('-')) throw new ChangedFilesError(`--changed ${ref}: not a git revision`);
  // The top as seen from `cwd` (its relative way up), not its real path: the files are compared with paths under `cwd`.
  const top = path.resolve(cwd, (await git(['rev-parse', '--show-cdup'], cwd)).trim() || '.');
  await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd).catch(() => {
    throw new ChangedFilesError(`--changed ${ref}: no such git revision`);
  });
  // -z: names as they are (no quoting of spaces or non-ASCII); renames as a deletion and an addition.
  const diffed = await git(['diff', '--name-only', '--no-renames', '-z', ref, '--'], top);
  const untracked = await git(['ls-files', '--others', '--exclude-standard', '-z'], top);
  const files = new Set<string>();
  for (const name of `${diffed}\0${untracked}`.split('\0')) if (name !== '') files.add(path.join(top, name));
  return files;
}
