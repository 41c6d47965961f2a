// A crawl killed at any instant resumes from the database with nothing lost and
// nothing half-written (each unit commits whole or not at all, and claims left in
// `fetching` are queued again on open): a child admits batches in a loop and is
// killed with SIGKILL at random moments; after each kill the index is checked.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/index.js';

const CHILD = fileURLToPath(new URL('../../fixtures/store/admit-forever.mjs', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runUntilKilled(file: string, firstBatch: number, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, file, String(firstBatch)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), delayMs));
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited ${code}: ${stderr}`)),
    );
  });
}

describe('crash safety (SIGKILL while admitting)', () => {
  it('after every kill: integrity ok, each batch wholly present or absent, fetching rows requeued', async () => {
    const file = path.join(dir, 'crash.db');
    let nextBatch = 0;
    let lastCount = 0;
    for (let round = 0; round < 5; round++) {
      await runUntilKilled(file, nextBatch, 50 + Math.floor(Math.random() * 400));
      const raw = new Database(file);
      const fetching = raw.prepare(`SELECT count(*) FROM url WHERE state = 'fetching'`).pluck().get() as number;
      const queuedBefore = raw.prepare(`SELECT count(*) FROM url WHERE state = 'queued'`).pluck().get() as number;
      raw.close();

      const store = new SqliteStore({ path: file });
      expect(store.integrityCheck()).toBe('ok');
      expect((await store.stats()).urlsByState.fetching).toBe(0);
      expect((await store.stats()).urlsByState.queued).toBe(queuedBefore + fetching);
      await store.close();

      const check = new Database(file, { readonly: true });
      const sizes = check
        .prepare(`SELECT raw_href AS batch, count(*) AS n FROM link GROUP BY raw_href`)
        .all() as { batch: string; n: number }[];
      for (const { batch, n } of sizes) expect(n, batch).toBe(50);
      // every link names a URL that exists, and every new URL came with its link
      expect(check.prepare('SELECT count(*) FROM link WHERE to_url NOT IN (SELECT id FROM url)').pluck().get()).toBe(0);
      expect(check.prepare(`SELECT count(*) FROM url WHERE key LIKE 'http://host/b/%' AND id NOT IN (SELECT to_url FROM link)`).pluck().get()).toBe(0);
      expect(check.pragma('foreign_key_check')).toEqual([]);
      const batches = sizes.map((s) => Number(s.batch.slice('batch-'.length)));
      check.close();
      // Nothing committed is lost; a round killed before its first commit (a loaded machine) adds none.
      expect(sizes.length).toBeGreaterThanOrEqual(lastCount);
      lastCount = sizes.length;
      nextBatch = batches.length === 0 ? nextBatch : Math.max(...batches) + 1;
    }
    expect(lastCount).toBeGreaterThan(0);
  });
});
