// The crawl runs as the report's header states them: when, for how long, from which
// seeds, with which settings and how each ended (the crawl_run table, migration 005).
// Static HTML: it reads without script.

import type { CrawlRunRow } from '../../store/index.js';
import { redactPassword, redactPasswords } from '../redact.js';
import { escapeHtml } from './html-escape.js';

/** `2024-05-01 12:34:56 UTC`. */
export function formatDate(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `1 h 2 min 3 s`, `4.5 s`, `120 ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h > 0 ? `${h} h` : '', h > 0 || min > 0 ? `${min} min` : '', `${s} s`].filter((part) => part !== '').join(' ');
}

/** One line for the header: the last run's date and duration, and how many runs there were. */
export function runLine(runs: readonly CrawlRunRow[]): string {
  const last = runs.at(-1);
  if (last === undefined) return 'Crawl date not recorded (the index was crawled before crawl runs were recorded).';
  const took = last.endedAt === undefined ? 'did not end (killed or still running)' : `took ${formatDuration(last.endedAt - last.startedAt)}`;
  const others = runs.length === 1 ? '' : ` (run ${runs.length} of ${runs.length})`;
  return `Crawled ${formatDate(last.startedAt)}, ${took}${others}.`;
}

/** The runs section: each run, newest first, with its seeds, settings and end. */
export function runsHtml(runs: readonly CrawlRunRow[]): string {
  if (runs.length === 0) return `<p class="muted">${escapeHtml(runLine(runs))}</p>`;
  return [...runs]
    .reverse()
    .map((run) => {
      const ended =
        run.endedAt === undefined
          ? 'did not end (killed or still running)'
          : `${formatDate(run.endedAt)} (${formatDuration(run.endedAt - run.startedAt)}), ${run.stoppedBy ?? ''}`;
      const facts: [string, string][] = [
        ['started', escapeHtml(formatDate(run.startedAt))],
        ['ended', escapeHtml(ended)],
        ['seeds', run.seeds.map((seed) => `<code>${escapeHtml(redactPassword(seed))}</code>`).join('<br>')],
      ];
      if (run.outcome !== undefined && run.outcome !== run.stoppedBy) facts.push(['outcome', escapeHtml(redactPasswords(run.outcome))]);
      const settings = Object.entries(run.settings)
        .map(([name, value]) => `<tr><th scope="row">${escapeHtml(name)}</th><td><code>${escapeHtml(redactPasswords(JSON.stringify(value) ?? 'undefined'))}</code></td></tr>`)
        .join('\n');
      return [
        `<h3>Run ${run.id}</h3>`,
        `<dl class="facts">${facts.map(([name, value]) => `<dt>${name}</dt><dd>${value}</dd>`).join('')}</dl>`,
        `<table class="settings"><caption>Settings of run ${run.id}</caption><thead><tr><th scope="col">setting</th><th scope="col">value</th></tr></thead><tbody>`,
        settings,
        '</tbody></table>',
      ].join('\n');
    })
    .join('\n');
}
