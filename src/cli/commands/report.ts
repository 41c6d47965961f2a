// `linkladder report --html FILE`: one self-contained HTML file about a crawl.

import { Option, type Command } from 'commander';
import { audit, writeHtmlReport, type AuditFinding } from '../../report/index.js';
import type { CliContext } from '../cli-context.js';
import { addIndexPathOptions, indexTarget, type IndexPathOptions } from '../index-path.js';
import { indexLabel, openReader } from '../open-store.js';
import { refuseNoCrawl } from '../no-crawl.js';
import { formatOption, outOption, writeOutputFile, type OutputOptions, type OutputOptionsSpec } from '../output-options.js';

const HELP = `
The file needs nothing else: CSS, script, graph and data are inline, and its
Content-Security-Policy lets it load nothing from anywhere. It leads with the
broken links, each target with every page linking to it (readable with
JavaScript off), then tabs: every URL with its status (filter by status class
2xx/3xx/4xx/5xx/error/not checked, by host, by text), the external links, every
finding (paged), redirects and aliases, the link graph (nodes coloured by
status, redirects as arrows, an explorer of links in and out), and the crawl
runs with their date, seeds, settings and duration. --internal-only keeps the
graph to the URLs in the crawl's scope, for big sites. stdout gets one line: the file and
what it holds.`;

interface ReportCommandOptions extends IndexPathOptions, OutputOptions {
  readonly html?: string;
  readonly internalOnly?: boolean;
}

const OUTPUT: OutputOptionsSpec<'html'> = { formats: ['html'], defaultFormat: 'html' };

export function addReportCommand(program: Command, context: CliContext): void {
  const command = addIndexPathOptions(program.command('report'));
  command
    .summary('write an HTML report of a crawl')
    .description('Write a self-contained HTML report of the crawl in the index: broken links first, every URL by status and host, external links, findings, redirects, link graph, crawl runs.')
    .addOption(formatOption(OUTPUT))
    .addOption(outOption())
    .addOption(new Option('--html <file>', 'short for --format html --out <file>').conflicts('out'))
    .option('--internal-only', "the graph draws only URLs in the crawl's scope, not the external ones (for big sites); the tables still list every URL")
    .addHelpText('after', HELP)
    .action(async (options: ReportCommandOptions) => {
      const target = options.out ?? options.html;
      if (target === undefined) return command.error("error: required option '--out <file>' (or --html <file>) not specified");
      const { db: file, connection } = await indexTarget(options, context);
      const reader = await openReader(file, connection);
      try {
        if (await refuseNoCrawl(reader, indexLabel(file), context)) return;
        // The page holds every finding, and counts them at its top: they are gathered first.
        const findings: AuditFinding[] = [];
        for await (const finding of audit(reader)) findings.push(finding);
        const summary = await writeOutputFile(target, (stream) =>
          writeHtmlReport(reader, findings, stream, { internalOnly: options.internalOnly === true }),
        );
        const graph = summary.isGraphTruncated ? `, graph cut to ${summary.nodes} URLs and ${summary.edges} edges` : '';
        await context.out.writeLine(
          `${target}: ${summary.urls} URLs, ${summary.links} links, ${summary.findings} findings, ${summary.aliases} aliases${graph}`,
        );
      } finally {
        await reader.close();
      }
    });
}
