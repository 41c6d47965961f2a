// `linkladder audit`: what the crawl in the index says is wrong with the site's links.

import { Option, type Command } from 'commander';
import {
  audit,
  formatAuditCsv,
  formatAuditJson,
  formatAuditSarif,
  formatAuditText,
  SEVERITY_RANK,
  type AuditFinding,
  type Severity,
} from '../../report/index.js';
import { openIndexReader } from '../../store/index.js';
import type { CliContext } from '../cli-context.js';
import { addIndexPathOptions, indexPath, type IndexPathOptions } from '../index-path.js';
import { refuseNoCrawl } from '../no-crawl.js';
import { EXIT_CODES } from '../exit-codes.js';
import { readPackageVersion } from '../package-version.js';

export const AUDIT_FORMATS = ['text', 'json', 'csv', 'sarif'] as const;
export type AuditFormat = (typeof AUDIT_FORMATS)[number];

export const FAIL_ON = ['error', 'warning'] as const satisfies readonly Severity[];

const HELP = `
Reads the index only: nothing is fetched again. Every code, with its severity
and meaning, is listed in docs/audit.md.

Output:
  text   findings grouped by page: the page's URL, then per finding its
         severity, code, the href as written and what it resolves to, and one
         line saying what is wrong; then the counts by severity
  json   one JSON object per finding and line: {"code","severity","page",
         "rawHref","target","message","detail"} (absent fields are null)
  csv    a header, then severity,code,page,href,target,message,detail
         (detail as a JSON object)
  sarif  one SARIF 2.1.0 log: a rule per code, a result per finding located
         at its page's URL
Exit code 1 when a finding at or above --fail-on exists (default: error), 0
when none does; info findings never fail; 4 when the index holds no crawl.`;

interface AuditCommandOptions extends IndexPathOptions {
  readonly format: AuditFormat;
  readonly failOn: (typeof FAIL_ON)[number];
}

export function addAuditCommand(program: Command, context: CliContext): void {
  addIndexPathOptions(program.command('audit'))
    .summary('findings about the links of a crawl: broken, redirected, misresolved, …')
    .description('Audit the crawl in the index: broken links and redirects, hrefs browsers and RFC 3986 read differently, base chain problems, missing fragments.')
    .addOption(new Option('--format <format>', 'output format').choices(AUDIT_FORMATS).default('text'))
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding of this severity or higher exists').choices(FAIL_ON).default('error'))
    .addHelpText('after', HELP)
    .action(async (options: AuditCommandOptions) => {
      const file = await indexPath(options, context);
      const reader = openIndexReader(file);
      let worst = -1;
      try {
        if (await refuseNoCrawl(reader, file, context)) return;
        const findings = tap(audit(reader), (finding) => {
          worst = Math.max(worst, SEVERITY_RANK[finding.severity]);
        });
        for await (const line of format(findings, options.format)) await context.out.writeLine(line);
      } finally {
        await reader.close();
      }
      if (context.exitCode === EXIT_CODES.NO_CRAWL) return;
      context.exitCode = worst >= SEVERITY_RANK[options.failOn] ? EXIT_CODES.INVALID : EXIT_CODES.OK;
    });
}

function format(findings: AsyncIterable<AuditFinding>, as: AuditFormat): AsyncIterable<string> {
  switch (as) {
    case 'text':
      return formatAuditText(findings);
    case 'json':
      return formatAuditJson(findings);
    case 'csv':
      return formatAuditCsv(findings);
    case 'sarif':
      return formatAuditSarif(findings, { toolVersion: readPackageVersion() });
  }
}

async function* tap<T>(items: AsyncIterable<T>, see: (item: T) => void): AsyncGenerator<T> {
  for await (const item of items) {
    see(item);
    yield item;
  }
}
