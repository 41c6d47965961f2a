// The URL state machine as data: what the SQL of the SQLite and PostgreSQL stores reads
// from it, and docs/store.md, which shows it and must not drift from it. That each store
// moves URLs as it says is walked in test/store/contract.test.ts.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { URL_MOVES, URL_OPERATIONS, URL_STATES, URL_TRANSITIONS, fromStates, mayMove, stateIn } from '../../src/store/index.js';

const DOC = fileURLToPath(new URL('../../docs/store.md', import.meta.url));
const BEGIN = '<!-- url-state-machine:begin (generated from src/store/url-state-machine.ts by test/store/url-state-machine.test.ts) -->';
const END = '<!-- url-state-machine:end -->';

/** The table as docs/store.md shows it. */
function renderTable(): string {
  const cell = (text: string): string => text.replaceAll('|', '\\|');
  const rows = URL_TRANSITIONS.map((t) =>
    [
      t.from.map((s) => (s === 'none' ? '(new)' : `\`${s}\``)).join(', '),
      `\`${t.to}\``,
      `\`${t.by}\``,
      cell(t.when ?? ''),
      t.only === undefined ? 'all' : t.only.join(', '),
      cell(t.why),
    ].join(' | '),
  );
  return [
    `States: ${URL_STATES.map((s) => `\`${s}\``).join(', ')}.`,
    '',
    '| from | to | by | when | stores | why |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r} |`),
  ].join('\n');
}

describe('the URL state machine', () => {
  it('docs/store.md shows the table as the code has it (LINKLADDER_UPDATE_DOCS=1 rewrites it)', () => {
    const doc = readFileSync(DOC, 'utf8');
    const begin = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    expect(begin).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(begin);
    const generated = `${BEGIN}\n${renderTable()}\n${END}`;
    if (process.env['LINKLADDER_UPDATE_DOCS'] === '1') writeFileSync(DOC, doc.slice(0, begin) + generated + doc.slice(end + END.length));
    expect(doc.slice(begin, end + END.length)).toBe(generated);
  });

  it('gives the SQL of each statement the conditions the stores wrote by hand before', () => {
    expect(stateIn('open', { to: 'queued', backend: 'sqlite' })).toBe(`state = 'fetching'`);
    expect(stateIn('admit', { to: 'queued' })).toBe(`state = 'skipped'`);
    expect(stateIn('claim', { to: 'fetching', backend: 'sqlite' })).toBe(`state = 'queued'`);
    expect(stateIn('claim', { to: 'fetching', except: ['queued'], backend: 'postgresql', column: 'u.state' })).toBe(`u.state = 'fetching'`);
    expect(stateIn('requeue')).toBe(`state <> 'alias'`);
    expect(stateIn('recordFetch')).toBe(`state <> 'alias'`);
    expect(stateIn('revokeAlias')).toBe(`state = 'alias'`);
    expect(stateIn('requeueFetched', { except: ['alias'] })).toBe(`state IN ('done', 'failed')`);
    expect(stateIn('close', { to: 'queued', backend: 'postgresql' })).toBe(`state = 'fetching'`);
    expect(() => stateIn('close', { backend: 'sqlite' })).toThrow();
  });

  it('answers the memory store from the same table', () => {
    expect(mayMove('requeue', 'done', 'queued')).toBe(true);
    expect(mayMove('requeue', 'alias', 'queued')).toBe(false);
    expect(mayMove('claim', 'fetching', 'fetching', 'memory')).toBe(false);
    expect(mayMove('claim', 'fetching', 'fetching', 'postgresql')).toBe(true);
    expect(fromStates('requeueFetched')).toEqual(['done', 'failed', 'alias']);
  });

  it('names only known states and operations, and says why for each move', () => {
    for (const m of URL_MOVES) {
      expect([...URL_STATES, 'none']).toContain(m.from);
      expect(URL_STATES).toContain(m.to);
      expect(URL_OPERATIONS).toContain(m.by);
      expect(m.transition.why.length).toBeGreaterThan(0);
    }
    // Every operation moves some URL somewhere.
    expect(new Set(URL_MOVES.map((m) => m.by))).toEqual(new Set(URL_OPERATIONS));
  });
});
