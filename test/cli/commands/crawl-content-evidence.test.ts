// `linkladder crawl --content-evidence` as a user runs it: the summary says
// what content evidence did, apart from the protocol rung and labelled heuristic, and
// `explain` names the rule that joined a URL.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startNegotiatedManual } from '../../support/negotiated-manual-server.js';
import { run } from '../cli-harness.js';
import { SqliteStore } from '../../../src/store/index.js';

const folder = mkdtempSync(path.join(tmpdir(), 'linkladder-content-evidence-cli-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('linkladder crawl --content-evidence', () => {
  it('prints a content line apart from "merged", and explain names the rule', async () => {
    const manual = await startNegotiatedManual({ pages: 40 });
    try {
      const db = path.join(folder, 'manual.db');
      const result = await run(['crawl', manual.seed, '--db', db, '--allow-private', '--no-sitemap', '--content-evidence']);
      expect(result.code).toBe(0);
      // Long lines are wrapped under their label.
      const stdout = result.stdout.replaceAll(/\n {12}/g, ' ');
      expect(stdout).toMatch(/^merged {6}\d+ URLs found to stand for another \(redirect 0, content-location \d+\);/m);
      expect(stdout).toMatch(/^content {5}\d+ URLs joined by content evidence, heuristic \(digest \d+, rule \d+\);\s+\d+ predicted duplicates held back \(\d+ joined without a request, \d+ fetched\), \d+ rules learned$/m);
      const store = new SqliteStore({ path: db, readOnly: true });
      let joined: string | undefined;
      for await (const alias of store.reader().aliases()) if (alias.evidence === 'rule') joined ??= alias.fromKey;
      await store.close();
      expect(joined).toBeDefined();
      const explained = await run(['explain', joined!, '--db', db]);
      expect(explained.code).toBe(0);
      expect(explained.stdout).toMatch(/^verdict {3}merged: joined to \S+ by content evidence \(heuristic, --content-evidence\): predicted by the rule /m);
      // Without the option, no content line.
      const plain = await run(['crawl', manual.seed, '--db', path.join(folder, 'plain.db'), '--allow-private', '--no-sitemap']);
      expect(plain.stdout).not.toMatch(/^content /m);
    } finally {
      await manual.close();
    }
  });
});
