// Golden files: the graph in every format, and the statistics, of a crawl of the
// demo site. One request at a time (--concurrency 1) gives the same URL ids on every
// run; the demo server's port is replaced with a placeholder. Regenerate after an
// intended change with: UPDATE_GOLDEN=1 npx vitest run test/cli/commands/graph-golden.test.ts

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIndexReader } from '../../../src/store/index.js';
import { crawledDemoIndex } from '../../support/demo-index.js';
import { run } from '../cli-harness.js';

const GOLDEN_DIR = fileURLToPath(new URL('../../fixtures/golden/', import.meta.url));
const isUpdating = process.env.UPDATE_GOLDEN === '1';
const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-golden-'));
const db = path.join(dir, 'demo.db');
let port: string;

beforeAll(async () => {
  const crawled = await crawledDemoIndex(db, ['--concurrency', '1']);
  port = new URL(crawled.origin).port;
  if (crawled.code !== 0) throw new Error(`the crawl failed: ${crawled.stderr}`);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The output with the server's port replaced by `PORT`, wherever a host of the demo
 * (127.0.0.1, or localhost, in any case) carries it.
 */
function withoutPort(text: string): string {
  return text.replace(new RegExp(`(127\\.0\\.0\\.1|localhost):${port}(?!\\d)`, 'gi'), '$1:PORT');
}

function expectGolden(name: string, actual: string): void {
  const file = path.join(GOLDEN_DIR, name);
  if (isUpdating) {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  expect(actual, `${name} differs from the golden file (UPDATE_GOLDEN=1 rewrites it)`).toBe(readFileSync(file, 'utf8'));
}

async function stdoutOf(args: readonly string[]): Promise<string> {
  const result = await run([...args, '--db', db]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return withoutPort(result.stdout);
}

describe('golden files of the demo crawl', () => {
  it.each(['csv', 'json', 'ndjson', 'dot', 'graphml'])('graph --format %s', async (format) => {
    expectGolden(`demo-graph.${format}`, await stdoutOf(['graph', '--format', format]));
  });

  it('graph --format json --collapse-aliases', async () => {
    expectGolden('demo-graph-collapsed.json', await stdoutOf(['graph', '--format', 'json', '--collapse-aliases']));
  });

  it('stats, plain and --json', async () => {
    expectGolden('demo-stats.txt', await stdoutOf(['stats']));
    expectGolden('demo-stats.json', await stdoutOf(['stats', '--json']));
  });

  // The exact link table (targets, base levels, rungs), so no change goes unseen. One line a
  // link, in page order: the page, the href as written, element@attribute, the base
  // level it resolved against, the target (after aliases) and its fragment, the rung
  // it met the index at (and before aliases), its findings, and the other base
  // mode's target where it differs.
  it('the link table: every link with its target, base level and rung', async () => {
    const reader = openIndexReader(db);
    try {
      const keyOf = new Map<number, string>();
      for await (const url of reader.urls()) keyOf.set(url.id, url.key);
      const lines = ['page\thref\tat\tbase\ttarget\trung\tladder\tfindings\talternate\terror'];
      for await (const link of reader.links()) {
        const target = link.toUrlId === undefined ? '' : `${keyOf.get(link.toUrlId)}${link.fragment === undefined ? '' : `#${link.fragment}`}`;
        lines.push(
          [
            keyOf.get(link.fromUrlId),
            JSON.stringify(link.rawHref),
            `${link.element ?? ''}@${link.attribute ?? ''}`,
            link.baseLevel ?? '',
            target,
            link.rung ?? '',
            link.ladderRung ?? '',
            link.findings.join(' '),
            link.alternateTarget ?? '',
            link.error ?? '',
          ].join('\t'),
        );
      }
      const table = withoutPort(lines.join('\n') + '\n');
      expectGolden('demo-links.tsv', table);
      // The facts the issue names, checked directly as well as through the golden file.
      expect(table).toContain('/base/in-body.html\t"intro.html"\ta@href\tbase-element\thttp://127.0.0.1:PORT/guide/intro.html\tnew\t');
      expect(table).toContain('/manual/core.html\t"./"\ta@href\tcontent-location\thttp://127.0.0.1:PORT/manual/\tnew\t');
      expect(table).toContain('/spellings.html\t"/%7Euser/"\ta@href\tretrieval\thttp://127.0.0.1:PORT/~user/\tsyntax\tsyntax\tREF_FOLDED_SYNTAX\t');
      expect(table).toContain('/docs/\t"/docs"\ta@href\tretrieval\thttp://127.0.0.1:PORT/docs/\tprotocol\tstring\t');
    } finally {
      await reader.close();
    }
  });

  it('no timestamp and no port is left in any golden output', async () => {
    const outputs = await Promise.all(['csv', 'json', 'ndjson', 'dot', 'graphml'].map((format) => stdoutOf(['graph', '--format', format])));
    for (const output of outputs) {
      expect(output).not.toContain(`:${port}`);
      expect(output).not.toMatch(/\b\d{13}\b|\d{4}-\d\d-\d\dT\d\d:/);
    }
  });
});
