// The graph in Graphviz's DOT language: `dot -Tsvg` draws it. Every ID is a quoted
// string, so no URL can be mistaken for a keyword, a number or an operator.

import type { UrlState } from '../../store/index.js';
import type { GraphEdge, GraphNode } from './graph-types.js';
import { formsText, type GraphWriter } from './graph-writer.js';

/** How each state looks; `state` is also kept as an attribute of its own. */
const STATE_STYLE: Readonly<Record<UrlState, string>> = {
  done: 'style="filled", fillcolor="#ffffff"',
  failed: 'style="filled", fillcolor="#f8d7da"',
  skipped: 'style="filled", fillcolor="#eeeeee"',
  queued: 'style="filled", fillcolor="#fff3cd"',
  fetching: 'style="filled", fillcolor="#fff3cd"',
  alias: 'style="filled,dashed", fillcolor="#e7f1ff"',
};

export const writeDot: GraphWriter = async (graph, out) => {
  await out.write('digraph linkladder {\n  graph [rankdir="LR"];\n  node [shape="box", fontname="Helvetica"];\n  edge [fontname="Helvetica", fontsize="10"];\n');
  for await (const node of graph.nodes()) await out.write(nodeStatement(node));
  for await (const edge of graph.edges()) await out.write(edgeStatement(edge));
  await out.write('}\n');
};

function nodeId(id: number): string {
  return dotId(`n${id}`);
}

/** A node whose server answered 4xx or 5xx looks failed, whatever its state. */
function nodeStyle(node: GraphNode): string {
  return node.status !== undefined && node.status >= 400 ? STATE_STYLE.failed : STATE_STYLE[node.state];
}

function nodeStatement(node: GraphNode): string {
  const attributes = [`label=${dotId(node.key)}`, nodeStyle(node), `state=${dotId(node.state)}`];
  if (node.status !== undefined) attributes.push(`status=${dotId(String(node.status))}`);
  attributes.push(`role=${dotId(node.role)}`, `depth=${dotId(String(node.depth))}`);
  if (node.aliasOf !== undefined) attributes.push(`alias_of=${nodeId(node.aliasOf)}`);
  if (node.forms.length > 0) attributes.push(`forms=${dotId(formsText(node.forms))}`);
  return `  ${nodeId(node.id)} [${attributes.join(', ')}];\n`;
}

function edgeStatement(edge: GraphEdge): string {
  const attributes = [`count=${dotId(String(edge.count))}`, `weight=${dotId(String(edge.count))}`];
  if (edge.element !== undefined) attributes.push(`element=${dotId(edge.element)}`);
  if (edge.attribute !== undefined) attributes.push(`attribute=${dotId(edge.attribute)}`);
  const label = edgeLabel(edge);
  if (label !== '') attributes.push(`label=${dotId(label)}`);
  return `  ${nodeId(edge.from)} -> ${nodeId(edge.to)} [${attributes.join(', ')}];\n`;
}

/** `a href`, `img srcset ×3`: what the link is and how many times the page has it. */
function edgeLabel(edge: GraphEdge): string {
  const what = [edge.element, edge.attribute].filter((part) => part !== undefined).join(' ');
  return edge.count > 1 ? `${what} ×${edge.count}`.trim() : what;
}

/**
 * A DOT double-quoted ID. In one, `\"` is a quote; a backslash is doubled so that none
 * escapes the closing quote and labels show it as written (Graphviz reads `\\` as `\`
 * in labels); line breaks become the label escape `\n`.
 */
export function dotId(text: string): string {
  const escaped = text.replace(/["\\]/g, '\\$&').replace(/\r\n|\r|\n/g, '\\n');
  return `"${escaped}"`;
}
