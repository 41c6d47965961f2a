import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { CRAWL_SETTINGS_DEFAULTS, givenSettings, settingOptions } from '../../src/config/index.js';

/** A command with the settings' options, as `crawl` has them; commander errors thrown, not printed. */
function command(): Command {
  const cmd = new Command('crawl').exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
  for (const option of settingOptions()) cmd.addOption(option);
  return cmd;
}

function given(args: readonly string[]): ReturnType<typeof givenSettings> {
  const cmd = command();
  cmd.parse([...args], { from: 'user' });
  return givenSettings(cmd);
}

function usageError(args: readonly string[]): string {
  try {
    command().parse([...args], { from: 'user' });
  } catch (error) {
    expect(error).toBeInstanceOf(CommanderError);
    return (error as CommanderError).message;
  }
  throw new Error('expected a usage error');
}

describe('the options generated from the schema', () => {
  it('give the settings the command line set, and only those (defaults are for the lower sources to fill)', () => {
    expect(given([])).toEqual({});
    expect(given(['--concurrency', '8', '--base-mode', 'browser', '--max-depth', '0', '--user-agent', 'bot/1', '--db', 'x.db'])).toEqual({
      concurrency: 8,
      baseMode: 'browser',
      maxDepth: 0,
      userAgent: 'bot/1',
      db: 'x.db',
    });
    // Given at its default value, it still counts: it beats a file or variable.
    expect(given(['--retries', String(CRAWL_SETTINGS_DEFAULTS.retries)])).toEqual({ retries: 2 });
  });

  it('a repeatable pattern collects each use, compiled', () => {
    expect(given(['--include', '^a', '--include', 'b$', '--exclude', 'x'])).toEqual({ include: [/^a/, /b$/], exclude: [/x/] });
  });

  it('a switch and its --no- form', () => {
    expect(given(['--allow-private', '--json'])).toEqual({ allowPrivate: true, json: true });
    expect(given(['--no-allow-private', '--no-json'])).toEqual({ allowPrivate: false, json: false });
    expect(given(['--allow-private', '--no-allow-private'])).toEqual({ allowPrivate: false });
  });

  it('--config is an option but not a setting', () => {
    const cmd = command();
    cmd.parse(['--config', 'crawl.json'], { from: 'user' });
    expect(cmd.opts()['config']).toBe('crawl.json');
    expect(givenSettings(cmd)).toEqual({});
  });

  it.each([
    [['--max-pages', '-1'], "error: option '--max-pages <n>' argument '-1' is invalid. Expected an integer >= 0."],
    [['--concurrency', '0'], "error: option '--concurrency <n>' argument '0' is invalid. Expected an integer from 1 to 1000."],
    [
      ['--per-host-concurrency', '99999999999999999999'],
      "error: option '--per-host-concurrency <n>' argument '99999999999999999999' is invalid. Expected an integer from 1 to 256.",
    ],
    [['--per-host-delay-ms', '1e3'], "error: option '--per-host-delay-ms <ms>' argument '1e3' is invalid. Expected an integer from 0 to 3600000."],
    [['--follow', 'anchor'], "error: option '--follow <kind>' argument 'anchor' is invalid. Expected one of navigation, frame, refresh, link, resource, form, cite."],
    [['--scope', 'planet'], "error: option '--scope <scope>' argument 'planet' is invalid. Allowed choices are origin, host, domain, prefix."],
    [['--include', '('], "error: option '--include <regex>' argument '(' is invalid. Invalid regular expression: /(/: Unterminated group."],
    [['--user-agent', 'a\nb'], "error: option '--user-agent <string>' argument 'a\nb' is invalid. Expected a non-empty string without CR, LF or NUL."],
    [['--db', ''], "error: option '--db <path>' argument '' is invalid. Expected a non-empty path."],
  ])('checks each value with the schema: %j', (args, message) => {
    expect(usageError(args)).toBe(message);
  });

  it.each([
    [['--per-host', '2'], "error: option '--per-host <value>' argument '2' is invalid. --per-host is not an option; use --per-host-concurrency."],
    [['--delay', '50'], "error: option '--delay <value>' argument '50' is invalid. --delay is not an option; use --per-host-delay-ms."],
    [['--depth', '3'], "error: option '--depth <value>' argument '3' is invalid. --depth is not an option; use --max-depth."],
  ])('a former or foreign flag names the one to use: %j', (args, message) => {
    expect(usageError(args)).toBe(message);
  });

  it('--follow collects each kind; each use replaces the default list', () => {
    expect(given(['--follow', 'navigation', '--follow', 'link'])).toEqual({ follow: ['navigation', 'link'] });
  });

  it('--help shows the schema defaults and the choices', () => {
    // One line per option, however the help wraps them.
    const help = command().helpInformation({ error: false }).replace(/\n {2,}(?=[^-\s])/g, ' ');
    expect(help).toMatch(/--concurrency <n> +requests in flight at once \(default: 4\)/);
    expect(help).toMatch(/--max-depth <n> +follow links up to depth N \(seeds are 0\); deeper ones are recorded \(default: no limit\)/);
    expect(help).toMatch(/--db <path> +the index: a file, or a PostgreSQL database postgres:\/\/user@host:port\/db that any number of crawls share; created if needed, resumed if it holds a crawl; the default one, named by no flag, variable or file, takes no seed of a site it does not hold \(give that site its own --db\) \(default: "data\/linkladder.db"\)/);
    expect(help).toContain('(choices: "rfc3986", "browser", default: "rfc3986")');
    expect(help).toMatch(/--include <regex> .*\(default: none\)/);
    expect(help).toMatch(/--config <file> +a JSON file of settings .*\(default: linkladder.config.json, if it exists\)/);
    expect(help).not.toContain('`');
    expect(help).not.toContain('**');
  });
});
