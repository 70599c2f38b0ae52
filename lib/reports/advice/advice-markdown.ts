// The advice as markdown, as `single-table advise` prints it: the prices used, each piece of
// advice with its monthly figure and its other effects, the figures still to declare, and the
// design before and after every change.
import type { Advice, AdviceReport } from './advice';
import type { MonthlyFigures } from './prices';

/** Options of the markdown rendering. */
export interface AdviceMarkdownOptions {
  /**
   * Also list advice that changes nothing at the declared rates, as "no effect at these rates".
   * @default false
   */
  readonly all?: boolean;
}

/** The advice report as markdown. */
export function adviceMarkdown(report: AdviceReport, options: AdviceMarkdownOptions = {}): string {
  const p = report.prices;
  const lines = ['# Design advice', '',
    `Prices: on-demand list prices of ${p.region} as of ${p.date}: $${p.writeRequestUnitsPerMillion} per million write request units, `
    + `$${p.readRequestUnitsPerMillion} per million read request units, $${p.storagePerGbMonth} per GB-month (Standard table class, free tier not deducted). `
    + 'A month is 730 hours at the declared rates: each entity\'s writesPerSecond priced as puts, each pattern\'s readsPerSecond as one entry per query plus its fetch.', ''];
  const shown = report.advice.filter((a) => options.all || a.hasEffect);
  if (shown.length === 0) lines.push('No advice changes anything at the declared rates.', '');
  shown.forEach((a, i) => lines.push(...adviceLines(a, i + 1), ''));
  const hidden = report.advice.length - shown.length;
  if (hidden > 0) lines.push(`${hidden} more piece(s) of advice change nothing at these rates (--all lists them).`, '');
  const missing = [...new Set(report.advice.flatMap((a) => a.missing))];
  if (missing.length) lines.push('To price more of the advice, declare:', ...missing.map((m) => `- ${m}`), '');
  if (report.deploySteps.length) lines.push('To move a deployed table to the improved design:', ...report.deploySteps.map((step, i) => `${i + 1}. ${step}`), '');
  lines.push(`Design as it is: ${money(report.before.totalCost, false)} per month; with every change above that has a rewrite: ${money(report.after.totalCost, false)} per month`
    + ` (${report.applied.length ? report.applied.join('; ') : 'no change'}).`);
  return lines.join('\n') + '\n';
}

function adviceLines(a: Advice, n: number): string[] {
  const concerns = [a.entities.length ? `entities ${a.entities.join(', ')}` : '', a.indexes.length ? `indexes ${a.indexes.join(', ')}` : '',
    a.patterns.length ? `patterns ${a.patterns.join(', ')}` : ''].filter((x) => x).join('; ');
  const lines = [`## ${n}. ${a.rule}${a.hasEffect ? '' : ' (no effect at these rates)'}`, '', `Concerns: ${concerns}.`, '', `Change: ${a.change}.`, '', `Why: ${a.why}.`, '',
    `Per month: ${figures(a.monthly)}.`];
  if (a.note) lines.push(`Note: ${a.note}.`);
  for (const e of a.effects) lines.push(`- ${e}`);
  if (a.missing.length) lines.push(`- to price it fully, declare: ${a.missing.join('; ')}`);
  if (a.notWritten) lines.push(`- not written by --write: ${a.notWritten}`);
  return lines;
}

/** A monthly difference for people: units, GB and dollars, savings as negative figures. */
export function figures(m: MonthlyFigures): string {
  const units = (n: number) => (n === 0 ? '0' : `${n > 0 ? '+' : ''}${(n / 1e6).toLocaleString('en-US', { maximumFractionDigits: 2 })}M`);
  const gb = `${m.storageGb > 0 ? '+' : ''}${m.storageGb.toFixed(2)} GB`;
  return `write units ${units(m.writeUnits)} (${money(m.writeCost)}), read units ${units(m.readUnits)} (${money(m.readCost)}), storage ${gb} (${money(m.storageCost)}); total ${money(m.totalCost)}`;
}

function money(n: number, signed = true): string {
  const rounded = Math.round(n * 100) / 100;
  return `${rounded < 0 ? '-' : rounded > 0 && signed ? '+' : ''}$${Math.abs(rounded).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
