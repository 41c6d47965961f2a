// The Duplicates tab shows URL keys as the index holds them, userinfo included: a
// password in one (`http://root:s3cret@host/`) must appear nowhere in the tab.

import { describe, expect, it } from 'vitest';
import { duplicatesTableHtml } from '../../../src/report/html/duplicates-table.js';
import type { DuplicateStats } from '../../../src/report/stats/index.js';
import type { DuplicateBodyRow } from '../../../src/store/index.js';

const SECRET = 's3cretPassw0rd';

function row(urlId: number, key: string, contentEvidence?: 'digest' | 'rule'): DuplicateBodyRow {
  return { digest: 'AAAA', urlId, key, fetchId: urlId, fetchedUrlId: urlId, fetchedKey: key, contentEvidence };
}

describe('duplicatesTableHtml', () => {
  it('shows no password of a key, a rule or the page that proved it', () => {
    const group = [row(1, `http://root:${SECRET}@127.0.0.1:8080/a`), row(2, `http://root%3A${SECRET}@127.0.0.1:8080/en/a`, 'rule')];
    const stats: DuplicateStats = { groups: 1, urls: 2, joinedByContent: 1, prefixPairs: [{ from: 'http://root:***@127.0.0.1:8080/en/', to: 'http://root:***@127.0.0.1:8080/', count: 1 }] };
    const content = {
      runId: 1,
      deferred: 1,
      joined: 1,
      released: 0,
      sampled: 0,
      rules: [{ prefixes: [`http://root:${SECRET}@127.0.0.1:8080/`, `http://root:${SECRET}@127.0.0.1:8080/en/`] as [string, string], support: 2, contradictions: 0, provedBy: `http://root:${SECRET}@127.0.0.1:8080/b` }],
    };
    const html = duplicatesTableHtml([group], stats, content);
    expect(html).toContain('http://root:***@127.0.0.1:8080/a');
    expect(html).toContain('http://root%3A***@127.0.0.1:8080/en/a');
    expect(html).not.toContain(SECRET);
  });
});
