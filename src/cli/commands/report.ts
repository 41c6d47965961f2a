// `linkladder report --html FILE`: one self-contained HTML file about a crawl.

import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { audit, writeHtmlReport, type AuditFinding } from '../../report/index.js';
import { openIndexReader } from '../../store/index.js';
import type { CliContext } from '../cli-context.js';
import { addIndexPathOptions, indexPath, type IndexPathOptions } from '../index-path.js';
import { refuseNoCrawl } from '../no-crawl.js';

const HELP = `
The file needs nothing else: CSS, script, chart and data are inline, and its
Content-Security-Policy lets it load nothing from anywhere. It shows the counts
and the ladder funnel, the audit's findings (filter by severity, code, text),
the aliases and redirect chains, and an explorer of the link graph (pick a
page, follow its links in and out), meant for sites of a few thousand pages.
stdout gets one line: the file and what it holds.`;

interface ReportCommandOptions extends IndexPathOptions {
  readonly html: string;
}

export function addReportCommand(program: Command, context: CliContext): void {
  addIndexPathOptions(program.command('report'))
    .summary('write an HTML report of a crawl')
    .description('Write a self-contained HTML report of the crawl in the index: funnel, findings, aliases and redirects, link graph.')
    .requiredOption('--html <file>', 'the HTML file to write')
    .addHelpText('after', HELP)
    .action(async (options: ReportCommandOptions) => {
      const file = await indexPath(options, context);
      const reader = openIndexReader(file);
      try {
        if (await refuseNoCrawl(reader, file, context)) return;
        // The page holds every finding, and counts them at its top: they are gathered first.
        const findings: AuditFinding[] = [];
        for await (const finding of audit(reader)) findings.push(finding);
        const summary = await writeOutputFile(options.html, (stream) => writeHtmlReport(reader, findings, stream));
        const graph = summary.isGraphTruncated ? `, graph cut to ${summary.nodes} URLs and ${summary.edges} edges` : '';
        await context.out.writeLine(
          `${options.html}: ${summary.urls} URLs, ${summary.links} links, ${summary.findings} findings, ${summary.aliases} aliases${graph}`,
        );
      } finally {
        await reader.close();
      }
    });
}

/**
 * Run `write` on a new file beside `file`, then rename it into place: a failure
 * leaves no half-written file (and an older one untouched).
 */
export async function writeOutputFile<T>(file: string, write: (stream: Writable) => Promise<T>): Promise<T> {
  const partial = `${file}.${process.pid}.partial`;
  const stream = createWriteStream(partial);
  try {
    const result = await write(stream);
    stream.end();
    await finished(stream);
    await rename(partial, file);
    return result;
  } catch (error) {
    stream.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}
