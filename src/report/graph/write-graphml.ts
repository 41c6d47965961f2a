// The graph in GraphML (http://graphml.graphdrawing.org/specification.html): a <key>
// per attribute, then the nodes and edges with their <data>.

import type { GraphEdge, GraphNode } from './graph-types.js';
import { formsText, type GraphWriter } from './graph-writer.js';
import { xmlEscape } from './xml-escape.js';

const GRAPHML_NAMESPACE = 'http://graphml.graphdrawing.org/xmlns';
const SCHEMA_LOCATION = `${GRAPHML_NAMESPACE} http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd`;

/** The <key> declarations: id, what it is for, its name and GraphML type. */
const KEYS = [
  ['key', 'node', 'key', 'string'],
  ['state', 'node', 'state', 'string'],
  ['status', 'node', 'status', 'int'],
  ['role', 'node', 'role', 'string'],
  ['depth', 'node', 'depth', 'int'],
  ['alias_of', 'node', 'alias_of', 'string'],
  ['forms', 'node', 'forms', 'string'],
  ['element', 'edge', 'element', 'string'],
  ['attribute', 'edge', 'attribute', 'string'],
  ['count', 'edge', 'count', 'int'],
] as const;

type KeyId = (typeof KEYS)[number][0];

export const writeGraphml: GraphWriter = async (graph, out) => {
  await out.write(header());
  for await (const node of graph.nodes()) await out.write(nodeElement(node));
  let edgeNumber = 0;
  for await (const edge of graph.edges()) await out.write(edgeElement(edge, (edgeNumber += 1)));
  await out.write('  </graph>\n</graphml>\n');
};

function header(): string {
  const keys = KEYS.map(([id, target, name, type]) => `  <key id="${id}" for="${target}" attr.name="${name}" attr.type="${type}"/>\n`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<graphml xmlns="${GRAPHML_NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${SCHEMA_LOCATION}">\n`,
    ...keys,
    '  <graph id="linkladder" edgedefault="directed">\n',
  ].join('');
}

function nodeId(id: number): string {
  return `n${id}`;
}

function nodeElement(node: GraphNode): string {
  const data = [
    dataElement('key', node.key),
    dataElement('state', node.state),
    node.status === undefined ? '' : dataElement('status', String(node.status)),
    dataElement('role', node.role),
    dataElement('depth', String(node.depth)),
    node.aliasOf === undefined ? '' : dataElement('alias_of', nodeId(node.aliasOf)),
    node.forms.length === 0 ? '' : dataElement('forms', formsText(node.forms)),
  ];
  return `    <node id="${nodeId(node.id)}">${data.join('')}</node>\n`;
}

function edgeElement(edge: GraphEdge, edgeNumber: number): string {
  const data = [
    edge.element === undefined ? '' : dataElement('element', edge.element),
    edge.attribute === undefined ? '' : dataElement('attribute', edge.attribute),
    dataElement('count', String(edge.count)),
  ];
  return `    <edge id="e${edgeNumber}" source="${nodeId(edge.from)}" target="${nodeId(edge.to)}">${data.join('')}</edge>\n`;
}

function dataElement(key: KeyId, value: string): string {
  return `<data key="${key}">${xmlEscape(value)}</data>`;
}
