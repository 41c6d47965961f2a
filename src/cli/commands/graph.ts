// `linkladder graph --format F`: the link graph of a crawl, streamed in one format.

import type { Command } from 'commander';
import { exportGraph, GRAPH_FORMATS, type GraphFormat } from '../../report/index.js';
import type { CliContext } from '../cli-context.js';
import { addIndexPathOptions, indexTarget, type IndexPathOptions } from '../index-path.js';
import { openReader } from '../open-store.js';
import { formatOption, jsonOption, outOption, outputFormat, writeOutputFile, type OutputOptions, type OutputOptionsSpec } from '../output-options.js';

const HELP = `
Nodes are the canonical URLs of the index (with their other spellings, state, the
HTTP status each answered itself with (a redirect's 3xx) and their role: page, resource or external),
edges the links from page to target, counted per element and attribute. An alias
(a URL proved by a redirect or Content-Location to be another; a rel=canonical
link is recorded, never obeyed, and makes none) is a node of state "alias" with aliasOf, and links found before the proof still point at it;
--collapse-aliases merges each alias into the URL it stands for: its key and
spellings become that URL's forms, its edges move there, and edges that then
coincide add up their counts.
Formats:
  csv      RFC 4180, one table: "node" rows (id,key,state,status,role,depth,
           alias_of,forms), then "edge" rows (source,target,element,attribute,
           count); forms are space-separated
  json     {"nodes":[{"id","key","state","status","role","depth","aliasOf",
                      "forms":[{"text","rung"}]}],
            "edges":[{"from","to","element","attribute","count"}]}
  ndjson   the same objects one a line, each with "type":"node" or "type":"edge"
  dot      Graphviz: node IDs "n<id>" labelled with the URL, 4xx/5xx filled red;
           render with dot -Tsvg
  graphml  GraphML with <key> declarations for every attribute
Written as it is read: a graph of any size exports in bounded memory.`;

interface GraphCommandOptions extends IndexPathOptions, OutputOptions {
  readonly collapseAliases?: boolean;
}

const OUTPUT: OutputOptionsSpec<GraphFormat> = { formats: GRAPH_FORMATS, defaultFormat: undefined };

export function addGraphCommand(program: Command, context: CliContext): void {
  const command = addIndexPathOptions(program.command('graph'));
  command
    .summary('export the link graph (csv, json, ndjson, dot, graphml)')
    .description('Export the link graph of the crawl in the index: canonical URLs as nodes, counted links as edges.')
    .addOption(formatOption(OUTPUT))
    .addOption(jsonOption())
    .addOption(outOption())
    .option('--collapse-aliases', 'merge alias nodes into the URLs they stand for')
    .addHelpText('after', HELP)
    .action(async (options: GraphCommandOptions) => {
      const format = outputFormat(options, OUTPUT);
      // Mandatory, but --json stands for it: checked here rather than by commander.
      if (format === undefined) return command.error("error: required option '--format <format>' not specified");
      const target = await indexTarget(options, context);
      const reader = await openReader(target.db, target.connection);
      try {
        const exportOptions = { format, collapseAliases: options.collapseAliases === true };
        if (options.out === undefined) await exportGraph(reader, context.io.stdout, exportOptions);
        else await writeOutputFile(options.out, (stream) => exportGraph(reader, stream, exportOptions));
      } finally {
        await reader.close();
      }
    });
}
