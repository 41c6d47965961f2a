// The DOT and GraphML exports read by the well-known tools of their formats, from
// Debian's packages: Graphviz renders the DOT; xmllint checks the GraphML is
// well-formed XML and networkx (python3-networkx) reads it back as a graph.
//
// GraphML schema: no Debian package ships the official GraphML XSD, and its files
// carry no licence that lets us copy them here. The export is validated by xmllint
// against test/fixtures/graphml/graphml-structure.xsd, the structural layer of the
// GraphML specification written down for these tests (ids, edge ends and data keys
// checked as identity constraints), and read back by networkx.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPHVIZ, INSTALL_TIMEOUT_MS, NETWORKX, XMLLINT, ensureDebianTools, skipNotice } from '../../support/system-tools.js';
import { exportText } from './export-text.js';
import { HOSTILE_LINKS, SAMPLE_KEYS, sampleReader } from './sample-graph.js';

const run = promisify(execFile);
const GRAPHML_SCHEMA = fileURLToPath(new URL('../../fixtures/graphml/graphml-structure.xsd', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-graph-tools-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let graphvizMissing: string | undefined;
let graphmlToolsMissing: string | undefined;
beforeAll(async () => {
  graphvizMissing = await ensureDebianTools(GRAPHVIZ);
  graphmlToolsMissing = await ensureDebianTools(XMLLINT, NETWORKX);
}, 2 * INSTALL_TIMEOUT_MS + 60_000);

/** Python that prints the graph networkx read, as JSON. */
const READ_GRAPHML = `
import json, sys
import networkx as nx
g = nx.read_graphml(sys.argv[1])
print(json.dumps({
  "directed": g.is_directed(),
  "nodes": {n: d for n, d in g.nodes(data=True)},
  "edges": [[s, t, d] for s, t, d in g.edges(data=True)],
}))
`;

async function writeExport(name: string, format: 'dot' | 'graphml', collapseAliases = false): Promise<string> {
  const file = path.join(dir, name);
  writeFileSync(file, await exportText(await sampleReader(), format, collapseAliases));
  return file;
}

describe('DOT, rendered by Graphviz', () => {
  it('dot -Tsvg draws every node and edge without a warning, labels as written', async (context) => {
    if (graphvizMissing !== undefined) return context.skip(skipNotice('the Graphviz render of the DOT export', graphvizMissing));
    const file = await writeExport('sample.dot', 'dot');
    const { stdout: svg, stderr } = await run('dot', ['-Tsvg', file]);
    expect(stderr).toBe('');
    expect(svg.match(/<g id="node\d+" class="node">/g)).toHaveLength(8);
    expect(svg.match(/<g id="edge\d+" class="edge">/g)).toHaveLength(10);
    // Labels come out as written: the quote, the backslashes, the markup (XML-escaped in SVG).
    expect(svg).toContain('>http://h/a,b&#39;c</text>');
    expect(svg).toContain('>http://other/(x)&amp;&#39;y&#39;</text>');
    expect(svg).toContain('>a&quot;b\\c\\ &lt;x&gt;&amp;&#39;y&#39;</text>');
    // The label's line breaks become lines of text.
    expect(svg).toContain('>line</text>');
    expect(svg).toContain('>break</text>');
  });

  it('dot reads the same graph back (-Tjson): node names, labels and edge counts', async (context) => {
    if (graphvizMissing !== undefined) return context.skip(skipNotice('the Graphviz read-back of the DOT export', graphvizMissing));
    const file = await writeExport('collapsed.dot', 'dot', true);
    const { stdout } = await run('dot', ['-Tjson', file]);
    // Graphviz 2.43 writes a label's control characters into its JSON unescaped.
    const json = stdout.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const parsed = JSON.parse(json) as { objects: { name: string; label: string; state: string }[]; edges: { tail: number; head: number; count: string }[] };
    expect(parsed.objects.map((node) => node.name)).toEqual(['n1', 'n2', 'n4', 'n5', 'n6', 'n7', 'n8']);
    expect(parsed.objects.find((node) => node.name === 'n2')?.label).toBe("http://h/a,b'c");
    const names = parsed.objects.map((node) => node.name);
    const counts = parsed.edges.map((edge) => `${names[edge.tail]}->${names[edge.head]} ${edge.count}`);
    expect(counts).toContain('n4->n5 3');
    expect(counts).toContain('n4->n4 1');
  });
});

describe('GraphML, read by xmllint and networkx', () => {
  it('is well-formed XML', async (context) => {
    if (graphmlToolsMissing !== undefined) return context.skip(skipNotice('the xmllint check of the GraphML export', graphmlToolsMissing));
    const file = await writeExport('sample.graphml', 'graphml');
    const { stdout, stderr } = await run('xmllint', ['--noout', '--nonet', file]);
    expect(stdout + stderr).toBe('');
  });

  it('validates against the GraphML structure schema (xmllint --schema), and a dangling edge does not', async (context) => {
    if (graphmlToolsMissing !== undefined) return context.skip(skipNotice('the schema validation of the GraphML export', graphmlToolsMissing));
    for (const collapse of [false, true]) {
      const file = await writeExport(`schema-${collapse}.graphml`, 'graphml', collapse);
      const result = await run('xmllint', ['--noout', '--nonet', '--schema', GRAPHML_SCHEMA, file]);
      expect(result.stderr.trim()).toBe(`${file} validates`);
    }
    const dangling = path.join(dir, 'dangling.graphml');
    writeFileSync(
      dangling,
      '<?xml version="1.0"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph edgedefault="directed"><node id="a"/><edge source="a" target="b"/></graph></graphml>',
    );
    await expect(run('xmllint', ['--noout', '--nonet', '--schema', GRAPHML_SCHEMA, dangling])).rejects.toThrow(/keyref|fails to validate/);
  });

  it('networkx reads the graph: directed, every node with its typed data, every edge with its count', async (context) => {
    if (graphmlToolsMissing !== undefined) return context.skip(skipNotice('the networkx read of the GraphML export', graphmlToolsMissing));
    const file = await writeExport('sample.graphml', 'graphml');
    const { stdout } = await run('/usr/bin/python3', ['-c', READ_GRAPHML, file]);
    const graph = JSON.parse(stdout) as { directed: boolean; nodes: Record<string, Record<string, unknown>>; edges: [string, string, Record<string, unknown>][] };
    expect(graph.directed).toBe(true);
    expect(Object.keys(graph.nodes)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8']);
    expect(graph.nodes.n1).toEqual({ key: 'http://h/', state: 'done', status: 200, role: 'page', depth: 0, forms: 'HTTP://h/ http://h:80/' });
    expect(graph.nodes.n3).toEqual({ key: 'http://h/old', state: 'alias', status: 301, role: 'page', depth: 1, alias_of: 'n4', forms: 'http://h/%6Fld' });
    expect(graph.nodes.n7).toMatchObject({ state: 'done', status: 404, role: 'resource' });
    for (const id of [2, 5, 6, 7, 8] as const) expect(graph.nodes[`n${id}`]?.key).toBe(SAMPLE_KEYS[id]);
    expect(graph.edges.find(([from, to]) => from === 'n1' && to === 'n7')?.[2]).toMatchObject(HOSTILE_LINKS[7]);
    expect(graph.edges.find(([from, to]) => from === 'n1' && to === 'n8')?.[2]).toMatchObject({ element: 'line\nbreak\r\nend', attribute: 'ctl\uFFFD\uFFFDé' });
    expect(graph.edges).toHaveLength(10);
    expect(graph.edges[0]).toEqual(['n1', 'n2', { id: 'e1', element: 'a', attribute: 'href', count: 2 }]);
    expect(graph.edges.find(([from, to]) => from === 'n2' && to === 'n1')?.[2]).toEqual({ id: 'e7', count: 1 });
  });
});
