// The credentials of a crawl from the command line: a seed's userinfo taken out of it
// (Basic auth for its origin), `--header`/`--header-for` with `${VAR}` read from the
// environment, the `--cookie-jar` file read. Shared by `crawl` and `check`, before
// anything else reads the seeds: no message, seed or setting shown later holds a
// credential. A bad one is one usage line that names the flag, never the value.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SETTINGS, type CrawlSettings } from '../config/index.js';
import { credentialOptionsOf } from '../crawl/index.js';
import { createRequestCredentials, splitSeedUserinfo, type RequestCredentials } from '../fetch/index.js';
import type { CliContext } from './cli-context.js';

export interface CliCredentials {
  /** The seeds as given, without userinfo. */
  readonly seeds: readonly string[];
  /** `undefined`: no credential was given. */
  readonly credentials: RequestCredentials | undefined;
}

type CredentialSettings = Pick<CrawlSettings, 'header' | 'headerFor' | 'cookieJar' | 'keepCookies'>;

/**
 * The seeds without userinfo and the credentials of the run, or the usage line
 * (without `linkladder: error: `) that says what is wrong. `crawled` picks, of the
 * seeds without userinfo, the URLs whose origins get `--header` (check's http(s) targets).
 */
export async function cliCredentials(
  settings: CredentialSettings,
  given: readonly string[],
  context: CliContext,
  crawled: (seeds: readonly string[]) => readonly string[] = (seeds) => seeds,
): Promise<CliCredentials | string> {
  try {
    const { seeds, userinfo } = splitSeedUserinfo(given);
    let cookieJarText: string | undefined;
    if (settings.cookieJar !== '') {
      try {
        cookieJarText = await readFile(path.resolve(context.cwd, settings.cookieJar), 'utf8');
      } catch (error) {
        return `--cookie-jar ${settings.cookieJar}: cannot read it (${hasCode(error) ? error.code : 'unreadable'})`;
      }
    }
    const options = credentialOptionsOf(settings, { seeds: crawled(seeds), userinfo, env: context.env, cookieJarText });
    return { seeds, credentials: options === undefined ? undefined : createRequestCredentials(options) };
  } catch (error) {
    if (error instanceof Error && hasCode(error) && error.code === 'ERR_API_BAD_OPTION') return withFlags(error.message);
    throw error;
  }
}

const FLAGS: ReadonlyMap<string, string> = new Map([...SETTINGS.map((setting): [string, string] => [setting.key, setting.flag]), ['seeds', 'seeds']]);

/** crawl()'s option names in a message as the flags that set them. */
function withFlags(message: string): string {
  return message.trim().replace(/\s*\n\s*/g, ' ').replace(/`(\w+)`/g, (quoted, name: string) => {
    const flag = FLAGS.get(name);
    return flag === undefined ? quoted : `\`${flag}\``;
  });
}

function hasCode(error: unknown): error is { code: string } {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string';
}
