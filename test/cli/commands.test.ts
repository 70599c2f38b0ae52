// The commands on the example manifest and on broken input: output, files and exit codes.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './run';
import { manifest } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { costReport } from '../../lib/reports/cost';
import { designMarkdown } from '../../lib/reports/design-doc';

const EXAMPLE = 'examples/manifest.ts';
const BROKEN = 'test/cli/fixtures/broken.json';
const ORDER_TICKET = 'test/fixtures/order-ticket.json';

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

  test('--json prints the design as model-shaped data: entities with their keys per index, indexes, patterns', async () => {
    const r = await run('docs', EXAMPLE, '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.entities.map((e: { name: string }) => e.name)).toEqual(Object.keys(manifest.entities));
    const order = out.entities.find((e: { name: string }) => e.name === 'Order');
    expect(order.keys.find((k: { index: string }) => k.index === 'GSI2')).toEqual({ index: 'GSI2', pk: 'ORDER#{status}', storedPk: 'ORDER#{status}#[0-2]', sk: '{createdAt}' });
    expect(out.indexes.find((i: { name: string }) => i.name === 'GSI2')).toMatchObject({ partitionKey: ['GSI2PK'], projection: 'INCLUDE', shards: { writeCount: 3, readCount: 3, strategy: 'RANDOM' } });
    expect(out.accessPatterns.find((p: { name: string }) => p.name === 'runningTasks')).toMatchObject({ index: 'GSI3', fetch: 'BATCH_GET' });
    expect(r.stdout).toBe((await run('docs', EXAMPLE, '--format', 'json')).stdout);
  });

  test('--format html prints one self-contained page; with --out and --data it writes DIR/design.html from the sample data', async () => {
    const printed = await run('docs', EXAMPLE, '--format', 'html');
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(/^<!DOCTYPE html>/);
    expect(printed.stdout).toContain('Made up from the manifest');
    const dir = mkdtempSync(join(tmpdir(), 'single-table-html-'));
    const r = await run('docs', EXAMPLE, '--format', 'html', '--data', 'examples/local-data.ts', '--out', dir);
    expect(r).toEqual({ code: 0, stdout: `wrote ${join(dir, 'design.html')}\n`, stderr: '' });
    const page = readFileSync(join(dir, 'design.html'), 'utf8');
    expect(page).toContain('Items and query inputs from the sample data.');
    expect(page).toContain('ann@example.com');
  });

  test('--format mermaid prints the flowchart', async () => {
    const r = await run('docs', EXAMPLE, '--format', 'mermaid');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^flowchart LR\n/);
  });

  test('a bad --format, or --json with another format, is a usage error (exit 2)', async () => {
    expect(await run('docs', EXAMPLE, '--format', 'pdf')).toMatchObject({ code: 2, stderr: expect.stringContaining("--format must be one of markdown, json, html, mermaid, got 'pdf'") });
    expect(await run('docs', EXAMPLE, '--json', '--format', 'html')).toMatchObject({ code: 2, stderr: expect.stringContaining('--json and --format html contradict each other') });
  });

  test('--data with an item the runtime refuses: exit 1, naming the item', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'single-table-data-'));
    const data = join(dir, 'data.json');
    writeFileSync(data, JSON.stringify({ items: { Order: [{ username: 'ann', orderId: 'o-1', status: 'OPEN', createdAt: 'yesterday' }] } }));
    const r = await run('docs', EXAMPLE, '--format', 'html', '--data', data);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${data}: sample item 1 of 'Order': [INVALID_VALUE] entity Order, attribute createdAt: must be a Date or an ISO-8601 date string`);
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
  test('prints the worked figures: the 9-unit put and the 7-unit update', async () => {
    const r = await run('cost', ORDER_TICKET);
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
