// The ladder funnel as an inline SVG bar chart: one bar per step, widths to scale.

import type { Funnel } from '../../store/index.js';

const STEPS: readonly (readonly [keyof Funnel, string])[] = [
  ['rawLinks', 'raw links'],
  ['distinctStrings', 'distinct strings'],
  ['distinctSyntax', 'syntax rung (§6.2.2)'],
  ['distinctScheme', 'scheme rung (§6.2.3)'],
  ['afterAliases', 'after aliases (§6.2.4)'],
];

const LABEL_WIDTH = 170;
const BAR_SPACE = 460;
const VALUE_WIDTH = 70;
const ROW_HEIGHT = 30;
const BAR_HEIGHT = 20;
const COLORS = ['#6c757d', '#0d6efd', '#6610f2', '#6f42c1', '#198754'];

/** The chart; every text in it is one of the fixed labels or a number. */
export function funnelChart(funnel: Funnel): string {
  const largest = Math.max(1, ...STEPS.map(([field]) => funnel[field]));
  const width = LABEL_WIDTH + BAR_SPACE + VALUE_WIDTH;
  const height = STEPS.length * ROW_HEIGHT + 10;
  const rows = STEPS.map(([field, label], index) => {
    const value = funnel[field];
    const y = 5 + index * ROW_HEIGHT;
    const barWidth = value === 0 ? 0 : Math.max(2, Math.round((value / largest) * BAR_SPACE));
    const textY = y + BAR_HEIGHT / 2 + 5;
    return [
      `<g class="funnel-step" data-step="${field}">`,
      `<text x="${LABEL_WIDTH - 8}" y="${textY}" text-anchor="end">${label}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y}" width="${barWidth}" height="${BAR_HEIGHT}" rx="3" fill="${COLORS[index] ?? '#999'}"><title>${label}: ${value}</title></rect>`,
      `<text class="funnel-value" x="${LABEL_WIDTH + barWidth + 6}" y="${textY}">${value}</text>`,
      '</g>',
    ].join('');
  });
  return [
    `<svg id="funnel-chart" xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="funnel-title" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="13">`,
    '<title id="funnel-title">The ladder funnel: distinct targets left at each rung, beyond the seeds</title>',
    ...rows,
    '</svg>',
  ].join('\n');
}
