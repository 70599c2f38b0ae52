// The checked blocks of docs/advice.md and the design files its commands name, for the tests that
// run them (the CLI's output in test/reports/advice.test.ts, the loop on DynamoDB Local in
// test/reports/advice.engine.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { largeOrders, threeLookupIndexes } from '../fixtures/advice-designs';

/** A checked block of docs/advice.md (`<!-- check: NAME -->`), and the text block after it (its output), if any. */
export function adviceDocBlock(name: string): { code: string; output?: string } {
  const page = readFileSync(join(__dirname, '..', '..', 'docs', 'advice.md'), 'utf8');
  const mark = `<!-- check: ${name} -->\n`;
  const at = page.indexOf(mark);
  if (at < 0) throw new Error(`docs/advice.md has no block ${name}`);
  const [, code, rest] = /^```\w+\n([\s\S]*?)```\n([\s\S]*)$/.exec(page.slice(at + mark.length))!;
  const output = /^\s*```text\n([\s\S]*?)```/.exec(rest)?.[1];
  return { code, output };
}

/** The design files the page's commands name. */
export const ADVICE_DOC_FILES: Record<string, object> = { 'orders.json': largeOrders, 'lookups.json': threeLookupIndexes };

