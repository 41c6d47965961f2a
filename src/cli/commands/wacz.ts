// `linkladder wacz <first.warc.gz> [--out FILE.wacz] [--title TEXT]`: packages a WARC
// series (`X.warc.gz`, `X-00001.warc.gz`…) and its CDXJ index (`X.cdxj`, when there is
// one) as a WACZ file that ReplayWeb.page opens.

import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { existingWarcSerials, warcBase, warcFileName, writeWacz, type WaczSummary } from '../../archive/index.js';
import type { CliContext } from '../cli-context.js';
import { EXIT_CODES } from '../exit-codes.js';
import { readPackageVersion } from '../package-version.js';

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
      const first = resolve(context.cwd, warc);
      const base = warcBase(first);
      const isSeries = base !== first;
      const warcFiles = isSeries ? (await existingWarcSerials(base)).map((serial) => warcFileName(base, serial)) : [first];
      if (!warcFiles.includes(first)) warcFiles.unshift(first);
      const out = resolve(context.cwd, options.out ?? `${base.replace(/\.warc$/, '')}.wacz`);
      if (warcFiles.includes(out)) {
        await context.err.writeLine(`linkladder: error: --out ${options.out ?? out} names a WARC file of the series: it would be replaced`);
        context.exitCode = EXIT_CODES.USAGE;
        return;
      }
      const cdxjFile = `${base}.cdxj`;
      const hasIndex = isSeries && (await access(cdxjFile).then(() => true, () => false));
      let summary: WaczSummary;
      try {
        summary = await writeWacz({
          out,
          warcFiles,
          ...(hasIndex ? { cdxjFile } : {}),
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
      if (summary.staleIndex !== undefined) {
        await context.err.writeLine(
          `linkladder: warning: ${summary.staleIndex.file} names ${summary.staleIndex.captures} records, the WARC files hold ${summary.staleIndex.expected} responses and revisits: the index was built from the WARC files instead`,
        );
      }
      for (const torn of summary.torn) {
        await context.err.writeLine(
          `linkladder: warning: ${torn.file}: its last record is cut (a killed writer?): packaged its first ${torn.keptBytes} bytes (whole records), left out ${torn.droppedBytes}`,
        );
      }
      const index = summary.index === 'copied' ? `index ${cdxjFile}` : 'index built from the WARC files';
      await context.out.writeLine(
        `${summary.out}: ${summary.warcFiles} WARC file${summary.warcFiles === 1 ? '' : 's'}, ${summary.records} records, ${summary.captures} captures, ${summary.pages} pages, ${summary.bytes} bytes (${index})`,
      );
    });
}
