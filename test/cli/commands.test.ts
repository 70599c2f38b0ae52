// The commands on the example manifest and on broken input: output, files and exit codes.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './run';
import { manifest } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { costReport } from '../../lib/reports/cost';
import { designMarkdown } from '../../lib/reports/design-doc';

const EXAMPLE = 'examples/manifest.ts';
const BROKEN = 'test/cli/fixtures/broken.json';
const SEED_004 = 'test/reports/fixtures/seed-004.json';

describe('check', () => {
  test('the example manifest is valid: exit 0', async () => {
    const r = await run('check', EXAMPLE);
    expect(r).toEqual({ code: 0, stdout: `${EXAMPLE}: 0 error(s), 0 warning(s): valid\n`, stderr: '' });
  });

  test('a broken manifest: exit 1, each error and warning with its code, location and fix', async () => {
    const r = await run('check', BROKEN);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("error [TEMPLATE_INVALID] entity Order, index ByStatus pk: template \"STATUS#{state}\" names undeclared attribute 'state'");
    expect(r.stdout).toContain("error [ENTITY_INDEX_UNKNOWN] entity Order, index Missing: populates index 'Missing', which is not declared");
    expect(r.stdout).toContain("error [PATTERN_INDEX_UNKNOWN] pattern ordersByStatus: uses index 'Nope'");
    expect(r.stdout).toContain('warning [SHARDS_BELOW_PEAK] index Hot:');
    expect(r.stdout).toContain('  fix: set shardCount to at least 7');
    expect(r.stdout).toMatch(/3 error\(s\), 1 warning\(s\)\n$/);
  });

  test('--json: valid flag, errors and warnings as data', async () => {
    const r = await run('check', BROKEN, '--json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.valid).toBe(false);
    expect(out.errors.map((e: { code: string }) => e.code)).toEqual(['TEMPLATE_INVALID', 'ENTITY_INDEX_UNKNOWN', 'PATTERN_INDEX_UNKNOWN']);
    expect(out.warnings[0]).toMatchObject({ code: 'SHARDS_BELOW_PEAK', location: 'index Hot' });
  });
});

describe('docs', () => {
  test('prints the design document', async () => {
    const r = await run('docs', EXAMPLE);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(designMarkdown(compileManifest(manifest).model));
  });

  test('--out DIR writes design.md and cost.md', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'single-table-docs-'));
    const r = await run('docs', EXAMPLE, '--out', dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`wrote ${join(dir, 'design.md')}\nwrote ${join(dir, 'cost.md')}\n`);
    expect(readFileSync(join(dir, 'design.md'), 'utf8')).toBe(designMarkdown(compileManifest(manifest).model));
    expect(readFileSync(join(dir, 'cost.md'), 'utf8')).toContain('| GSI2 | 2000 | 1 | 2000 | 3 | 3 | 3 | ok |');
  });

  test('--json prints the charts as data', async () => {
    const r = await run('docs', EXAMPLE, '--json');
    expect(JSON.parse(r.stdout).mainTable.rows).toHaveLength(Object.keys(manifest.entities).length);
  });

  test('a manifest with errors: exit 1 with the errors on stderr', async () => {
    const r = await run('docs', BROKEN);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${BROKEN}: the manifest has 3 error(s):`);
    expect(r.stderr).toContain("Run 'single-table check test/cli/fixtures/broken.json' for warnings too.");
  });
});

describe('cost', () => {
  test('prints seed 004 figures: the 9-unit put and the 7-unit update', async () => {
    const r = await run('cost', SEED_004);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('| Order | put (new item) | 3 | 1 (new) | 2 (new) | 3 (new) | - | 9 | 12 |');
    expect(r.stdout).toContain('| Ticket | update openedAt | 1 | 2 (key) | 2 (key) | 2 (key) | - | 7 | 8 |');
    expect(r.stdout).toContain('| LiveEvents | 2000 | 1 | 2000 | 3 | 3 | 3 | ok |');
  });

  test('--json is the cost report', async () => {
    const r = await run('cost', EXAMPLE, '--json', '--items', '4');
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(costReport(compileManifest(manifest).model, { itemsPerQuery: 4 }))));
  });

  test('--samples takes sizes from sample items', async () => {
    const r = await run('cost', EXAMPLE, '--json', '--samples', 'test/cli/fixtures/samples.json');
    const task = JSON.parse(r.stdout).sizes.find((s: { entity: string }) => s.entity === 'Task');
    expect(task.source).toBe('sample');
  });

  test('bad --items and a sample for an unknown entity are refused', async () => {
    expect(await run('cost', EXAMPLE, '--items', '0')).toMatchObject({ code: 2, stderr: "single-table: cost: --items must be a whole number of at least 1, got '0'\n" });
    const r = await run('cost', EXAMPLE, '--samples', 'test/cli/fixtures/broken.json');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("sample item for 'entities': no such entity");
  });
});

test('docs/example is what `single-table docs examples/manifest.ts --out docs/example` writes today', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'single-table-example-'));
  expect((await run('docs', EXAMPLE, '--out', dir)).code).toBe(0);
  for (const file of ['design.md', 'cost.md']) {
    const committed = readFileSync(join(__dirname, '..', '..', 'docs', 'example', file), 'utf8');
    expect({ file, text: committed }).toEqual({ file, text: readFileSync(join(dir, file), 'utf8') });
  }
});
