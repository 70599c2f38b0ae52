// Hot and full partitions: a low-cardinality GSI partition key on an unsharded index, and an item
// collection with an LSI entry that nothing bounds (every LSI caps a collection at 10 GB).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiagnosticLevel } from '../../lib/manifest/diagnostics';
import { AttributeKind, SingleTableManifest } from '../../lib/model/manifest';
import { run } from '../cli/run';
import { edited, findings, ManifestDraft, theFinding } from '../fixtures/valid-manifest';

const warnings = (code: string, manifest: Parameters<typeof findings>[0]) => findings(manifest).filter((d) => d.code === code);

describe('HOT_PARTITION_KEY', () => {
  // GSI2's partition key is ORDER#{status}.
  const enumStatus = (change: (m: ManifestDraft) => void = () => {}) => edited((m) => {
    m.entities.Order.attributes.status.distinctValues = 5;
    change(m);
  });

  test('an enum-like attribute on an unsharded GSI, no declared write rate: warns, naming the sharding option', () => {
    const d = theFinding(enumStatus(), 'HOT_PARTITION_KEY', DiagnosticLevel.WARNING);
    expect(d.location).toBe('index GSI2, entity Order');
    expect(d.message).toBe('partition key "ORDER#{status}" has at most 5 value(s) (status: 5 distinct values), and one value can take every write; '
      + 'Order declares no writesPerSecond, so its writes are assumed able to exceed the 1000 write units/s one partition takes');
    expect(d.fix).toContain('globalIndexes.GSI2.sharding = { peakWritesPerSecond: <peak writes/s> }');
  });

  test('a declared write rate above one partition: warns with the shard count it needs', () => {
    const d = theFinding(enumStatus((m) => { m.entities.Order.writesPerSecond = 2500; }), 'HOT_PARTITION_KEY', DiagnosticLevel.WARNING);
    expect(d.message).toContain("Order's 2500 writes/s x 1 write unit(s) = 2500 units/s exceed");
    expect(d.fix).toContain('sharding = { shardCount: 4 }');
  });

  test('a boolean or a literal-only partition key is one partition', () => {
    const d = theFinding(edited((m) => {
      m.entities.Order.attributes.open = { type: AttributeKind.BOOLEAN };
      m.entities.Order.indexes!.GSI2.pk = 'OPEN#{open}';
    }), 'HOT_PARTITION_KEY', DiagnosticLevel.WARNING);
    expect(d.message).toContain('has at most 1 value(s) (open: BOOLEAN, only true is indexed)');
    const literal = theFinding(edited((m) => { m.entities.Order.indexes!.GSI2.pk = 'ALL#ORDERS'; }), 'HOT_PARTITION_KEY', DiagnosticLevel.WARNING);
    expect(literal.message).toContain('(no attribute: one partition)');
  });

  test('silent for a high-cardinality key, a sharded index, or a declared rate one partition takes', () => {
    expect(warnings('HOT_PARTITION_KEY', edited(() => {}))).toEqual([]); // status without distinctValues: unbounded
    expect(warnings('HOT_PARTITION_KEY', enumStatus((m) => { m.globalIndexes!.GSI2.sharding = { shardCount: 3 }; }))).toEqual([]);
    expect(warnings('HOT_PARTITION_KEY', enumStatus((m) => { m.entities.Order.writesPerSecond = 1000; }))).toEqual([]);
    expect(warnings('HOT_PARTITION_KEY', enumStatus((m) => { m.entities.Order.writesPerSecond = 1001; }))).toHaveLength(1);
  });
});

describe('LSI_COLLECTION_UNBOUNDED and LSI_COLLECTION_TOO_LARGE', () => {
  test('an entity on an LSI without maxItemsPerPartition: warns, naming the option', () => {
    const d = theFinding(edited((m) => { delete m.entities.Order.maxItemsPerPartition; }), 'LSI_COLLECTION_UNBOUNDED', DiagnosticLevel.WARNING);
    expect(d.location).toBe('entity Order');
    expect(d.message).toContain('table partition key "CUSTOMER#{username}") with entities on LSIs (Order on LSI1)');
    expect(d.message).toContain('caps an item collection at 10 GB');
    expect(d.fix).toContain('declare maxItemsPerPartition on Order');
  });

  test('an unbounded entity off the LSIs that shares the collection is warned about too; a singleton is bounded', () => {
    const all = warnings('LSI_COLLECTION_UNBOUNDED', edited((m) => {
      m.entities.Note = { attributes: { username: { type: AttributeKind.STRING, required: true }, noteId: { type: AttributeKind.STRING, required: true } }, pk: 'CUSTOMER#{username}', sk: 'NOTE#{noteId}' };
    }));
    // Customer (sk CUSTOMER#{username}) has one item per partition key value; Order declares its bound.
    expect(all.map((d) => d.location)).toEqual(['entity Note']);
  });

  test('silent when every entity of the collection is bounded, or when local indexes are off', () => {
    expect(warnings('LSI_COLLECTION_UNBOUNDED', edited(() => {}))).toEqual([]);
    expect(findings(edited((m) => {
      delete m.entities.Order.maxItemsPerPartition;
      m.localIndexes = { enabled: false };
      delete m.entities.Order.indexes!.LSI1;
      delete m.accessPatterns!.ordersByDate;
    }))).toEqual([]);
  });

  test('bounds that allow more than 10 GB: warns with the size', () => {
    const d = theFinding(edited((m) => { m.entities.Order.maxItemsPerPartition = 100_000_000; }), 'LSI_COLLECTION_TOO_LARGE', DiagnosticLevel.WARNING);
    expect(d.location).toBe('entity Order');
    expect(d.message).toMatch(/Customer \(1\), Order \(100000000\) allow item collections of about \d+\.\d GB; every LSI \(Order on LSI1\) caps one at 10 GB/);
    expect(warnings('LSI_COLLECTION_TOO_LARGE', edited(() => {}))).toEqual([]);
  });
});

test('single-table check prints both warnings, each with its fix, and still exits 0', async () => {
  const manifest: SingleTableManifest = edited((m) => {
    m.entities.Order.attributes.status.distinctValues = 5;
    delete m.entities.Order.maxItemsPerPartition;
  });
  const file = join(mkdtempSync(join(tmpdir(), 'single-table-hot-')), 'manifest.json');
  writeFileSync(file, JSON.stringify(manifest));
  const r = await run('check', file);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('warning [HOT_PARTITION_KEY] index GSI2, entity Order: partition key "ORDER#{status}" has at most 5 value(s)');
  expect(r.stdout).toContain('warning [LSI_COLLECTION_UNBOUNDED] entity Order: ');
  expect(r.stdout).toContain('  fix: declare maxItemsPerPartition on Order');
  expect(r.stdout).toContain('0 error(s), 2 warning(s): valid');
});
