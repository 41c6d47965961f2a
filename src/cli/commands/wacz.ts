// `linkladder wacz <first.warc.gz> [--out FILE.wacz] [--title TEXT]`: packages a WARC
// series (`X.warc.gz`, `X-00001.warc.gz`…) and its CDXJ index (`X.cdxj`, when there is
// one) as a WACZ file that ReplayWeb.page opens.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { writeSeriesWacz, type SeriesWacz } from '../../archive/index.js';
import type { CliContext } from '../cli-context.js';
import { EXIT_CODES } from '../exit-codes.js';
import { readPackageVersion } from '../package-version.js';
import { waczLine, waczWarnings } from '../wacz-lines.js';

const HELP = `
The series is the file given and every later file of it on disk (crawl.warc.gz,
crawl-00001.warc.gz, …); crawl.cdxj beside them is used as the index when present,
else the index is built from the WARC files. One line on stdout:
  <out>: N WARC files, N records, N captures, N pages, N bytes
A file whose last record was cut (a killed crawl) is packaged up to its last whole
record, with a warning line on stderr. Exit 2 (one stderr line) when the file is
missing or is not a WARC file, 3 when the package cannot be written.`;

interface WaczCommandOptions {
  readonly out?: string;
  readonly title?: string;
}

/** The codes that mean the arguments were wrong: nothing was written. */
const USAGE_CODES = new Set(['ERR_ARCHIVE_MISSING_FILE', 'ERR_ARCHIVE_NOT_WARC', 'ERR_ARCHIVE_DUPLICATE_NAME']);

export function addWaczCommand(program: Command, context: CliContext): void {
  program
    .command('wacz')
    .summary('package a WARC series as WACZ, for ReplayWeb.page')
    .description('Package a WARC series and its CDXJ index as a WACZ 1.1.1 file (the WARCs stored, an index, the page list, hashes).')
    .argument('<warc>', 'the first file of the series (crawl.warc.gz)')
    .option('--out <file>', 'the WACZ file to write (default: the series name with .wacz, beside it)')
    .option('--title <text>', 'a title for the package, written in datapackage.json')
    .addHelpText('after', HELP)
    .action(async (warc: string, options: WaczCommandOptions) => {
      let summary: SeriesWacz;
      try {
        summary = await writeSeriesWacz(resolve(context.cwd, warc), {
          ...(options.out === undefined ? {} : { out: resolve(context.cwd, options.out) }),
          software: `linkladder/${readPackageVersion()}`,
          ...(options.title === undefined ? {} : { title: options.title }),
        });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (typeof code !== 'string' || !code.startsWith('ERR_ARCHIVE_')) throw error;
        await context.err.writeLine(`linkladder: error: ${code}: ${(error as Error).message}`);
        context.exitCode = USAGE_CODES.has(code) ? EXIT_CODES.USAGE : EXIT_CODES.FAILURE;
        return;
      }
      for (const warning of waczWarnings(summary)) await context.err.writeLine(`linkladder: warning: ${warning}`);
      await context.out.writeLine(waczLine(summary));
    });
}

