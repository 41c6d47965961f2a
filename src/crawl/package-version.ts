// The version of linkladder: printed by `--version`, written in each WARC file's warcinfo.

import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * The version of the nearest package.json above this module. Searching upward
 * rather than using a fixed relative path finds the same file from
 * dist/src/cli/ (built) and src/cli/ (run from source by vitest).
 */
export function readPackageVersion(): string {
  cached ??= findVersion(new URL('.', import.meta.url));
  return cached;
}

function findVersion(start: URL): string {
  for (let dir = start; ; dir = new URL('..', dir)) {
    const version = versionIn(new URL('package.json', dir));
    if (version !== undefined) return version;
    if (new URL('..', dir).href === dir.href) return 'unknown';
  }
}

function versionIn(file: URL): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed === 'object' && parsed !== null && 'version' in parsed && typeof parsed.version === 'string') {
    return parsed.version;
  }
  return undefined;
}
