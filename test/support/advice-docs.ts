// The command blocks of docs/advice.md and the design files its commands name, for the tests that
// run them (the CLI's output in test/reports/advice.test.ts, the loop on DynamoDB Local in
// test/reports/advice.engine.test.ts).
import { blocksOf } from '../docs/doc-blocks';
import { largeOrders, threeLookupIndexes } from '../fixtures/advice-designs';

/** The command block of docs/advice.md that the test file `runBy` runs, and the text block after it (its output), if any. */
export function adviceDocBlock(runBy: string): { code: string; output?: string } {
  const blocks = blocksOf('docs/advice.md');
  const at = blocks.findIndex((b) => b.marker === `<!-- the block below is run by ${runBy} -->`);
  if (at < 0) throw new Error(`docs/advice.md has no block run by ${runBy}`);
  const next = blocks[at + 1];
  return { code: blocks[at].text, output: next?.lang === 'text' ? next.text : undefined };
}

/** The design files the page's commands name. */
export const ADVICE_DOC_FILES: Record<string, object> = { 'orders.json': largeOrders, 'lookups.json': threeLookupIndexes };

