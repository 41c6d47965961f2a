// Each export format written and read back: the same nodes and edges, whatever the
// characters in the URLs (RFC 4180 quoting, JSON, DOT ID quoting, XML escaping).

import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../../src/report/graph/write-csv.js';
import { csvField, dotId, readGraph, xmlEscape } from '../../../src/report/graph/index.js';
import { exportGraph } from '../../../src/report/index.js';
import { MemoryStore } from '../../../src/store/index.js';
import { collect } from '../../support/collect.js';
import { exportText, parseCsv } from './export-text.js';
import { HOSTILE_LINKS, SAMPLE_KEYS, sampleReader } from './sample-graph.js';

const graphJson = async (collapseAliases = false): Promise<{ nodes: unknown[]; edges: unknown[] }> => {
  const graph = readGraph(await sampleReader(), { collapseAliases });
  return {
    nodes: (await collect(graph.nodes())).map((node) => ({ ...node, status: node.status ?? null, aliasOf: node.aliasOf ?? null })),
    edges: (await collect(graph.edges())).map((edge) => ({ ...edge, element: edge.element ?? null, attribute: edge.attribute ?? null })),
  };
};

describe('escaping', () => {
  it('csvField quotes a field with a comma, quote, CR or LF and doubles its quotes (RFC 4180 §2.6, §2.7)', () => {
    expect(csvField('http://h/a')).toBe('http://h/a');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('a\r\nb')).toBe('"a\r\nb"');
    expect(csvField('')).toBe('');
  });

  it('dotId quotes every ID, escapes quotes and backslashes, and turns line breaks into \\n', () => {
    expect(dotId('http://h/')).toBe('"http://h/"');
    expect(dotId('a"b')).toBe('"a\\"b"');
    expect(dotId('back\\')).toBe('"back\\\\"');
    expect(dotId('node')).toBe('"node"'); // a keyword, harmless once quoted
    expect(dotId('a\nb\r\nc')).toBe('"a\\nb\\nc"');
  });

  it('xmlEscape escapes markup, keeps whitespace through attribute normalization, and replaces what XML 1.0 cannot hold', () => {
    expect(xmlEscape(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;');
    expect(xmlEscape('a\tb\nc\rd')).toBe('a&#9;b&#10;c&#13;d');
    expect(xmlEscape('\u0000\u0001\uFFFE\uD800x')).toBe('\uFFFD\uFFFD\uFFFD\uFFFDx');
    expect(xmlEscape('é😀')).toBe('é😀');
  });
});

describe('export formats read back', () => {
  it('csv: RFC 4180 records of one width, node rows then edge rows', async () => {
    const text = await exportText(await sampleReader(), 'csv');
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([...CSV_COLUMNS]);
    for (const row of rows) expect(row).toHaveLength(CSV_COLUMNS.length);
    const nodes = rows.filter((row) => row[0] === 'node');
    const edges = rows.filter((row) => row[0] === 'edge');
    expect(nodes.map((row) => [Number(row[1]), row[2]])).toEqual(Object.entries(SAMPLE_KEYS).map(([id, key]) => [Number(id), key]));
    expect(nodes[0]).toEqual(['node', '1', 'http://h/', 'done', '200', 'page', '0', '', 'HTTP://h/ http://h:80/', '', '', '', '', '']);
    expect(nodes[2]?.slice(3, 9)).toEqual(['alias', '301', 'page', '1', '4', 'http://h/%6Fld']);
    // Each node says what it is and what its server answered: a 404 never reads like a 200.
    expect(nodes.map((row) => `${row[1]} ${row[3]} ${row[4]} ${row[5]}`)).toEqual(['1 done 200 page', '2 done 200 page', '3 alias 301 page', '4 done 200 page', '5 skipped  external', '6 failed 500 page', '7 done 404 resource', '8 queued  page']);
    expect(edges[0]).toEqual(['edge', '', '', '', '', '', '', '', '', '1', '2', 'a', 'href', '2']);
    // Text goes out as UTF-8: a lone surrogate can only be U+FFFD there.
    expect(edges[4]?.slice(9)).toEqual(['1', '7', HOSTILE_LINKS[7].element, HOSTILE_LINKS[7].attribute, '1']);
    expect(edges[5]?.slice(11, 13)).toEqual([HOSTILE_LINKS[8].element, HOSTILE_LINKS[8].attribute.replace(/[\uD800-\uDFFF]/gu, '\uFFFD')]);
    expect(edges.map((row) => `${row[9]}->${row[10]}`)).toEqual((await graphJson()).edges.map((edge) => `${(edge as { from: number }).from}->${(edge as { to: number }).to}`));
  });

  it('json: one document with every node and edge', async () => {
    const json = JSON.parse(await exportText(await sampleReader(), 'json')) as { nodes: Record<string, unknown>[] };
    expect(json).toEqual(await graphJson());
    expect(json.nodes[6]).toMatchObject({ id: 7, state: 'done', status: 404, role: 'resource' });
    // A redirect: the 301 it answered, not its target's 200.
    expect(json.nodes[2]).toMatchObject({ id: 3, state: 'alias', status: 301, role: 'page' });
    expect(json.nodes[4]).toMatchObject({ id: 5, state: 'skipped', status: null, role: 'external' });
    expect(JSON.parse(await exportText(await sampleReader(), 'json', true))).toEqual(await graphJson(true));
  });

  it('json of an empty index', async () => {
    expect(JSON.parse(await exportText(new MemoryStore().reader(), 'json'))).toEqual({ nodes: [], edges: [] });
  });

  it('ndjson: one object a line, nodes then edges, each with its type', async () => {
    const text = await exportText(await sampleReader(), 'ndjson');
    expect(text.endsWith('\n')).toBe(true);
    const records = text.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string });
    const expected = await graphJson();
    expect(records.filter((record) => record.type === 'node').map(({ type: _type, ...node }) => node)).toEqual(expected.nodes);
    expect(records.filter((record) => record.type === 'edge').map(({ type: _type, ...edge }) => edge)).toEqual(expected.edges);
    expect(records.findIndex((record) => record.type === 'edge')).toBe(expected.nodes.length);
  });

  it('dot: a statement per node and per edge, every ID quoted', async () => {
    const text = await exportText(await sampleReader(), 'dot');
    const lines = text.split('\n');
    expect(lines[0]).toBe('digraph linkladder {');
    expect(lines.at(-2)).toBe('}');
    expect(lines.filter((line) => /^ {2}"n\d+" \[/.test(line))).toHaveLength(8);
    expect(lines.filter((line) => /^ {2}"n\d+" -> "n\d+" \[/.test(line))).toHaveLength(10);
    expect(text).toContain(`"n2" [label="http://h/a,b'c"`);
    // A 4xx or 5xx answer is filled as a failure is, whatever the state.
    expect(text).toContain('"n7" [label="http://h/q?a=1&b=2", style="filled", fillcolor="#f8d7da", state="done", status="404", role="resource", depth="1"];');
    expect(text).toContain('"n1" [label="http://h/", style="filled", fillcolor="#ffffff", state="done", status="200", role="page", depth="0", forms="HTTP://h/ http://h:80/"];');
    expect(text).toContain('"n5" [label="http://other/(x)&\'y\'", style="filled", fillcolor="#eeeeee", state="skipped", role="external", depth="1"];');
    expect(text).toContain(`"n1" -> "n7" [count="1", weight="1", element="a\\"b\\\\c\\\\", attribute="<x>&'y'", label="a\\"b\\\\c\\\\ <x>&'y'"];`);
    expect(text).toContain('element="line\\nbreak\\nend"');
    expect(text).toContain('"n1" -> "n2" [count="2", weight="2", element="a", attribute="href", label="a href ×2"];');
    expect(text).toContain('"n2" -> "n1" [count="1", weight="1"];');
  });

  it('graphml: keys declared, hostile text escaped', async () => {
    const text = await exportText(await sampleReader(), 'graphml');
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns"')).toBe(true);
    expect(text).toContain('<key id="count" for="edge" attr.name="count" attr.type="int"/>');
    expect(text).toContain('<key id="status" for="node" attr.name="status" attr.type="int"/>');
    expect(text).toContain('<key id="role" for="node" attr.name="role" attr.type="string"/>');
    expect(text).toContain('<node id="n5"><data key="key">http://other/(x)&amp;&apos;y&apos;</data><data key="state">skipped</data><data key="role">external</data>');
    expect(text).toContain('<node id="n7"><data key="key">http://h/q?a=1&amp;b=2</data><data key="state">done</data><data key="status">404</data><data key="role">resource</data>');
    expect(text).toContain('<data key="element">a&quot;b\\c\\</data><data key="attribute">&lt;x&gt;&amp;&apos;y&apos;</data>');
    expect(text).toContain('<data key="element">line&#10;break&#13;&#10;end</data><data key="attribute">ctl\uFFFD\uFFFDé</data>');
    expect(text).toContain('<edge id="e1" source="n1" target="n2"><data key="element">a</data><data key="attribute">href</data><data key="count">2</data></edge>');
    expect(text.match(/<edge /g)).toHaveLength(10);
  });

  it('refuses an unknown format', async () => {
    const { Writable } = await import('node:stream');
    const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    await expect(exportGraph(await sampleReader(), sink, { format: 'xml' as 'json' })).rejects.toMatchObject({
      code: 'ERR_API_BAD_OPTION',
      message: 'Expected `format` to be one of csv, json, ndjson, dot, graphml, got `xml` (string)',
    });
  });
});
