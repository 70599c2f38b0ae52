// The sample data of docs/local-engine.md runs on the quick start's manifest, both as the pages
// write them: `single-table local manifest.ts --data local-data.ts` puts every item and every
// pattern returns some.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runIn } from '../cli/run';

/** The block after `marker` in a page, with the package's imports pointed at the sources. */
function block(page: string, marker: string): string {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const at = text.indexOf(marker);
  expect(at).toBeGreaterThan(-1);
  const code = /^```\w*\n([\s\S]*?)^```$/m.exec(text.slice(at))![1];
  return code.replace(/'cdk-single-table\/(runtime|testing)'/g, (_, sub) => JSON.stringify(join(ROOT, 'lib', sub)));
}

test('the local data of the local engine page runs on the quick start\'s manifest: every item put, every pattern returns items', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'single-table-docs-local-'));
  try {
    writeFileSync(join(dir, 'manifest.ts'), block('README.md', '<!-- quick-start: file manifest.ts -->'));
    writeFileSync(join(dir, 'local-data.ts'), block('docs/local-engine.md', '<!-- check: local-data.ts -->'));
    const r = await runIn(dir, 'local', 'manifest.ts', '--data', 'local-data.ts', '--engine', 'dynalite', '--json');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const out = JSON.parse(r.stdout);
    expect(out.from).toBe('manifest.ts (the table SingleTable builds from it)');
    expect(out.writes).toHaveLength(3);
    expect(out.queries.map((q: { pattern: string; items: unknown[]; error?: string }) => [q.pattern, q.items.length > 0, q.error]))
      .toEqual(['ordersForCustomer', 'customerByEmail', 'orderById', 'ordersByStatus'].map((p) => [p, true, undefined]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
