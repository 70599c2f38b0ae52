// The data a chart is made of, before it becomes markdown: `docs --json` prints these tables and
// the markdown renderer turns them into text, so both outputs always agree.
import { code, table } from './markdown';

/** One chart of a design report. Cells are plain text; a cell holding several values has one per line. */
export interface ReportTable {
  /** Section heading, e.g. `Main table`. */
  readonly heading: string;
  /**
   * A sentence shown under the heading.
   * @default - none
   */
  readonly intro?: string;
  /** Column headers. */
  readonly headers: string[];
  /** Rows of cells, in a stable order (declaration order of the manifest). */
  readonly rows: string[][];
  /** Columns whose cells are keys or key conditions, shown as inline code in markdown. */
  readonly codeColumns: number[];
}

/** Renders one chart as a markdown section at the given heading level. */
export function renderTable(t: ReportTable, level: number): string {
  const rows = t.rows.map((row) => row.map((value, i) => (t.codeColumns.includes(i) ? asCode(value) : value)));
  const parts = [`${'#'.repeat(level)} ${t.heading}`];
  if (t.intro) parts.push(t.intro);
  parts.push(rows.length > 0 ? table(t.headers, rows) : '_none_');
  return parts.join('\n\n');
}

// A dash means "not in this index"; each line of a multi-value cell is its own code span.
function asCode(value: string): string {
  if (value === '' || value === '-') return value;
  return value.split('\n').map(code).join('\n');
}
