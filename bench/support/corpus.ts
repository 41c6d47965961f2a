// The URL corpora of ../shared/corpus/urls, read in place. They are third-party
// data kept outside the repository, so a checkout without them still builds and
// its benchmarks exit cleanly with a notice instead of failing.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PAIRS_FILE = 'python-docs-hrefs.jsonl';
const ABSOLUTE_FILE = 'kasztp.txt';

/** One link of the Python docs corpus: an attribute value and the page it sits on. */
export interface HrefPair {
  readonly base: string;
  readonly href: string;
}

// LINKLADDER_CORPUS_DIR names the corpus root for the test suites (test/support/corpus.ts);
// accept that, or the urls/ folder itself. Compiled, this file is dist/bench/support/,
// so the default is the `shared` folder next to the repository root.
function findUrlCorpusDir(): string | undefined {
  const fromEnv = process.env['LINKLADDER_CORPUS_DIR'];
  const candidates =
    fromEnv !== undefined
      ? [path.join(fromEnv, 'urls'), fromEnv]
      : [fileURLToPath(new URL('../../../../shared/corpus/urls/', import.meta.url))];
  return candidates.find((dir) => existsSync(path.join(dir, PAIRS_FILE)) && existsSync(path.join(dir, ABSOLUTE_FILE)));
}

/** The corpus folder, or — after printing why — exit 0: a missing corpus is not a failed benchmark. */
export function requireUrlCorpusDir(): string {
  const dir = findUrlCorpusDir();
  if (dir !== undefined) return dir;
  const where = process.env['LINKLADDER_CORPUS_DIR'] ?? '../shared/corpus/urls (next to the repository)';
  console.log(
    `NOTICE: URL corpus not found at ${where}; benchmark skipped.\n` +
      `Set LINKLADDER_CORPUS_DIR to the corpus folder (holding urls/${PAIRS_FILE} and urls/${ABSOLUTE_FILE}).`,
  );
  process.exit(0);
}

/** The 176,407 (base, href) pairs in document order, so each page's links are contiguous. */
export function loadHrefPairs(dir: string): HrefPair[] {
  const text = readFileSync(path.join(dir, PAIRS_FILE), 'utf8');
  // One string per page: the hot loops compare bases with `!==`, which is then a
  // pointer check, as it would be for a crawler holding its page URL.
  const bases = new Map<string, string>();
  const pairs: HrefPair[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const record = JSON.parse(line) as { base: string; href: string };
    let base = bases.get(record.base);
    if (base === undefined) bases.set(record.base, (base = record.base));
    pairs.push({ base, href: record.href });
  }
  return pairs;
}

/** kasztp.txt's 48,010 lines as a reader sees them: the UTF-8 BOM is not part of the first URL. */
export function loadAbsoluteUrls(dir: string): string[] {
  const text = readFileSync(path.join(dir, ABSOLUTE_FILE), 'utf8');
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n');
}
