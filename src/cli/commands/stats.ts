// `linkladder stats`: the ladder funnel of a crawl, what it saved, aliases and errors.

import type { Command } from 'commander';
import { collectStats, FETCHES_SAVED_DEFINITION, formatStats, LINKS_NOT_FETCHED_DEFINITION } from '../../report/index.js';
import type { CliContext } from '../cli-context.js';
import { formatOption, isJsonOutput, jsonOption, outOption, TEXT_OR_JSON, withOutput, type OutputOptions } from '../output-options.js';
import { addIndexPathOptions, indexTarget, type IndexPathOptions } from '../index-path.js';
import { indexLabel, openReader } from '../open-store.js';
import { toJsonLine } from '../json-line.js';
import { refuseNoCrawl } from '../no-crawl.js';

const HELP = `
The funnel climbs the comparison ladder (RFC 3986 §6.2) over the links with a
target: raw links, distinct strings (fragment removed), distinct after the
syntax rung, after the scheme rung, and after aliases (the protocol rung).
fetches saved     requests avoided: URLs a followed link named that were never
                  requested because the index had joined them to a known
                  resource first (as each crawl run counted them)
requests          every HTTP request the runs sent: fetches, retries,
                  redirect hops, robots.txt; of a killed run, those whose
                  answers it committed (the others were sent again)
broken            URLs whose answer was a 4xx, a 5xx, or none
links unfetched   links with a target minus fetches: what a crawler without any
                  deduplication would have added
duplicates        groups of URLs whose bodies are byte-identical though the
                  ladder did not join them (DUPLICATE_REPRESENTATION; content
                  evidence, heuristic, beyond RFC 3986), the URLs in them, and
                  the prefixes they differ in, the most frequent first
workers           on a PostgreSQL index crawled by workers at the same time
                  (or by one still running, or killed): the frontier they
                  share (queued, claimed, lapsed claims), then each worker:
                  running, ended, or silent (no heartbeat for longer than its
                  lease: killed), what it reported, its claims
--json writes one object: {"funnel","folded","fetchesSaved","linksNotFetched",
"requests","fetches","urls","aliasesByEvidence","errorsByCode","broken","duplicates",
"definitions"} ("duplicates": {"groups","urls","joinedByContent","prefixPairs"}),
and "workers" on a shared index.
An index that holds no crawl: one stderr line, exit 4.`;

interface StatsCommandOptions extends IndexPathOptions, OutputOptions {
}

export function addStatsCommand(program: Command, context: CliContext): void {
  addIndexPathOptions(program.command('stats'))
    .summary('the ladder funnel: what each rung folded and the fetches it saved')
    .description('Print the ladder funnel of the crawl in the index, the fetches it saved, aliases by evidence and errors by code.')
    .addOption(formatOption(TEXT_OR_JSON))
    .addOption(jsonOption())
    .addOption(outOption())
    .addHelpText('after', HELP)
    .action(async (options: StatsCommandOptions) => {
      const { db: file, connection } = await indexTarget(options, context);
      const reader = await openReader(file, connection);
      let lines: string[];
      try {
        if (await refuseNoCrawl(reader, indexLabel(file), context)) return;
        const stats = await collectStats(reader);
        const definitions = { fetchesSaved: FETCHES_SAVED_DEFINITION, linksNotFetched: LINKS_NOT_FETCHED_DEFINITION };
        lines = isJsonOutput(options) ? [toJsonLine({ ...stats, definitions })] : formatStats(stats);
      } finally {
        await reader.close();
      }
      await withOutput(options, context, async (out) => {
        for (const line of lines) await out.writeLine(line);
      });
    });
}
