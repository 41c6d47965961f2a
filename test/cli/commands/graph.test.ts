// `linkladder graph`, in-process, on a small index built through the store.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/index.js';
import { jsonLines, run } from '../cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-graph-'));
const db = path.join(dir, 'index.db');

/** http://h/ links to /a twice (two spellings), to /old, and /old redirected to /new. */
beforeAll(async () => {
  const store = new SqliteStore({ path: db });
  const [home] = await store.admit([{ rawHref: 'http://h/', target: 'http://h/' }]);
  const homeId = home!.urlId!;
  const [a, , old] = await store.admit([
    { fromUrlId: homeId, rawHref: '/a', target: 'http://h/a', element: 'a', attribute: 'href' },
    { fromUrlId: homeId, rawHref: 'HTTP://h/a', target: 'HTTP://h/a', element: 'a', attribute: 'href' },
    { fromUrlId: homeId, rawHref: '/old', target: 'http://h/old', element: 'a', attribute: 'href' },
  ]);
  const [moved] = await store.admit([{ rawHref: 'http://h/new', target: 'http://h/new' }]);
  await store.addAlias({ fromId: old!.urlId!, toId: moved!.urlId!, evidence: 'redirect', detail: '301' });
  await store.admit([{ fromUrlId: a!.urlId!, rawHref: '/new', target: 'http://h/new', element: 'a', attribute: 'href' }]);
  await store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface NodeJson {
  type: 'node';
  id: number;
  key: string;
  state: string;
  aliasOf: number | null;
  forms: { text: string; rung: string }[];
}
interface EdgeJson {
  type: 'edge';
  from: number;
  to: number;
  count: number;
}

describe('linkladder graph', () => {
  it('--format ndjson: every URL with its spellings and state, then the counted edges', async () => {
    const result = await run(['graph', '--db', db, '--format', 'ndjson']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const records = jsonLines(result) as (NodeJson | EdgeJson)[];
    const nodes = records.filter((record): record is NodeJson => record.type === 'node');
    const edges = records.filter((record): record is EdgeJson => record.type === 'edge');
    expect(nodes.map((node) => [node.key, node.state])).toEqual([
      ['http://h/', 'queued'],
      ['http://h/a', 'queued'],
      ['http://h/old', 'alias'],
      ['http://h/new', 'queued'],
    ]);
    const id = (key: string): number => nodes.find((node) => node.key === key)!.id;
    expect(nodes.find((node) => node.key === 'http://h/a')?.forms).toEqual([{ text: 'HTTP://h/a', rung: 'string' }]);
    expect(nodes.find((node) => node.key === 'http://h/old')?.aliasOf).toBe(id('http://h/new'));
    expect(edges.map((edge) => [edge.from, edge.to, edge.count])).toContainEqual([id('http://h/'), id('http://h/a'), 2]);
  });

  it('--collapse-aliases: the alias is gone, its key a form of its target, its edges moved there', async () => {
    const result = await run(['graph', '--db', db, '--format', 'json', '--collapse-aliases']);
    expect(result.code).toBe(0);
    const graph = JSON.parse(result.stdout) as { nodes: NodeJson[]; edges: EdgeJson[] };
    expect(graph.nodes.map((node) => node.key)).toEqual(['http://h/', 'http://h/a', 'http://h/new']);
    const target = graph.nodes.find((node) => node.key === 'http://h/new')!;
    expect(target.forms).toEqual([{ text: 'http://h/old', rung: 'protocol' }]);
    const ids = new Set(graph.nodes.map((node) => node.id));
    for (const edge of graph.edges) expect(ids.has(edge.from) && ids.has(edge.to)).toBe(true);
    expect(graph.edges.filter((edge) => edge.to === target.id)).toHaveLength(2); // from the home page (via /old) and from /a
  });

  it('--out FILE writes the file and nothing to stdout; no partial file is left', async () => {
    const out = path.join(dir, 'graph.graphml');
    const result = await run(['graph', '--db', db, '--format', 'graphml', '--out', out]);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(out, 'utf8')).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<graphml [\s\S]*<\/graphml>\n$/);
    expect(readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('csv and dot go to stdout in full', async () => {
    const csv = await run(['graph', '--db', db, '--format', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('type,id,key,state,status,role,depth,alias_of,forms,source,target,element,attribute,count');
    const dot = await run(['graph', '--db', db, '--format', 'dot']);
    expect(dot.stdout).toMatch(/^digraph linkladder \{\n[\s\S]*\}\n$/);
  });

  it('usage errors: no --format, an unknown one (exit 2); a missing database (exit 3, no file created)', async () => {
    const noFormat = await run(['graph', '--db', db]);
    expect(noFormat.code).toBe(2);
    expect(noFormat.stderr).toMatch(/required option '--format <format>' not specified/);
    const badFormat = await run(['graph', '--db', db, '--format', 'svg']);
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toMatch(/Allowed choices are csv, json, ndjson, dot, graphml/);
    const missing = path.join(dir, 'missing.db');
    const noDb = await run(['graph', '--db', missing, '--format', 'csv']);
    expect(noDb.code).toBe(3);
    expect(noDb.stderr).toBe(`linkladder: error: no index database at ${missing}\n`);
    expect(existsSync(missing)).toBe(false);
  });
});
