// Markdown building blocks shared by the reports. Cells are escaped so a template or description
// containing `|` or a newline cannot break a table; output is plain ASCII apart from user text, so
// generated docs diff cleanly.

/** Escapes text for a table cell: pipes would split the cell, newlines would end the row. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/** Inline code, e.g. a key template. Backticks inside are rare; a double-backtick span keeps them. */
export function code(text: string): string {
  return text.includes('`') ? '`` ' + text + ' ``' : '`' + text + '`';
}

/** A GitHub-flavoured markdown table. Rows and headers are cell text (already formatted). */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => '| ' + cells.map(cell).join(' | ') + ' |';
  return [line(headers), '|' + headers.map(() => '---').join('|') + '|', ...rows.map(line)].join('\n');
}
