// Sharding rules: settings that can work, and a warning when the declared peak needs
// more shards than the index has (about 800 write units per second per partition).
import { compileManifest } from '../../lib/manifest/compile';
import { DiagnosticLevel } from '../../lib/manifest/diagnostics';
import { AttributeKind, ShardingDefinition, ShardStrategy } from '../../lib/model/manifest';
import { edited, theFinding, validManifest } from '../fixtures/valid-manifest';

const sharded = (sharding: ShardingDefinition) => edited((m) => { m.globalIndexes!.GSI2.sharding = sharding; });

test('SHARDING_WITHOUT_COUNT: sharding with neither a count nor a peak', () => {
  const d = theFinding(sharded({}), 'SHARDING_WITHOUT_COUNT');
  expect(d.location).toBe('index GSI2');
  expect(d.fix).toContain('shardCount');
});

test.each([0, 1.5, 101])('SHARD_COUNT_INVALID: shardCount %p', (count) => {
  const d = theFinding(sharded({ shardCount: count }), 'SHARD_COUNT_INVALID');
  expect(d.location).toBe('index GSI2');
  expect(d.message).toBe(`\`sharding.shardCount\` is the number ${count}, not a whole number from 1 to 100`);
  expect(d.fix).toContain('from 1 to 100');
});

test('SHARD_COUNT_INVALID: a peak that would need more than 100 shards', () => {
  const d = theFinding(sharded({ peakWritesPerSecond: 80_001 }), 'SHARD_COUNT_INVALID');
  expect(d.message).toContain('peakWritesPerSecond 80001 needs 101 shards');
  expect(d.fix).toContain('redesign the partition key');
});

test('PEAK_WRITES_INVALID: a peak that is not a positive number', () => {
  const d = theFinding(sharded({ peakWritesPerSecond: -5 }), 'PEAK_WRITES_INVALID');
  expect(d.message).toContain('`sharding.peakWritesPerSecond` is the number -5, not a positive number');
});

test('PREVIOUS_SHARD_COUNT_INVALID: an earlier count that is not a shard count', () => {
  const d = theFinding(sharded({ shardCount: 4, previousShardCounts: [2, 0] }), 'PREVIOUS_SHARD_COUNT_INVALID');
  expect(d.message).toContain('`sharding.previousShardCounts[1]` is the number 0');
});

test('PREVIOUS_SHARD_STRATEGY_INVALID: an unknown strategy', () => {
  const d = theFinding(sharded({ shardCount: 4, previousStrategies: [{ strategy: 'HASH' as ShardStrategy }] }), 'PREVIOUS_SHARD_STRATEGY_INVALID');
  expect(d.message).toBe('`sharding.previousStrategies[0].strategy` is the string "HASH", not a ShardStrategy');
  expect(d.fix).toBe('use one of RANDOM, ATTRIBUTE');
});

test.each([
  ['ATTRIBUTE without its attribute', { strategy: ShardStrategy.ATTRIBUTE }],
  ['RANDOM with an attribute', { strategy: ShardStrategy.RANDOM, shardAttribute: 'status' }],
])('PREVIOUS_SHARD_STRATEGY_INVALID: %s', (_what, previous) => {
  const d = theFinding(sharded({ shardCount: 4, previousStrategies: [previous] }), 'PREVIOUS_SHARD_STRATEGY_INVALID');
  expect(d.message).toContain(`previousStrategies holds ${JSON.stringify(previous)}`);
});

test('SHARD_STRATEGY_INVALID: a strategy that is not a ShardStrategy', () => {
  const d = theFinding(sharded({ shardCount: 4, strategy: 'HASH' as ShardStrategy }), 'SHARD_STRATEGY_INVALID');
  expect(d.message).toContain('"HASH"');
});

test('SHARD_ATTRIBUTE_UNUSED: a shard attribute with the RANDOM strategy', () => {
  const d = theFinding(sharded({ shardCount: 4, shardAttribute: 'orderId' }), 'SHARD_ATTRIBUTE_UNUSED');
  expect(d.message).toContain("'orderId'");
  expect(d.fix).toContain('ShardStrategy.ATTRIBUTE');
});

test('SHARD_ATTRIBUTE_MISSING: the ATTRIBUTE strategy without an attribute', () => {
  const d = theFinding(sharded({ shardCount: 4, strategy: ShardStrategy.ATTRIBUTE }), 'SHARD_ATTRIBUTE_MISSING');
  expect(d.location).toBe('index GSI2');
});

test('SHARD_ATTRIBUTE_INVALID: a shard attribute that is optional on an entity of the index', () => {
  const d = theFinding(sharded({ shardCount: 4, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'amount' }), 'SHARD_ATTRIBUTE_INVALID');
  expect(d.location).toBe('index GSI2, entity Order');
  expect(d.message).toContain("shardAttribute 'amount' is optional NUMBER");
  expect(d.fix).toContain("declare 'amount' as a required attribute of Order");
});

test('a required string shard attribute is fine', () => {
  const m = validManifest();
  m.globalIndexes!.GSI2.sharding = { shardCount: 4, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'orderId' };
  expect(compileManifest(m).model.indexes.GSI2.shards).toMatchObject({ writeCount: 4, readCount: 4, attribute: 'orderId' });
});

describe('SHARDS_BELOW_PEAK', () => {
  test('warns when the declared peak needs more shards than declared, and says how many', () => {
    const d = theFinding(sharded({ shardCount: 2, peakWritesPerSecond: 2000 }), 'SHARDS_BELOW_PEAK', DiagnosticLevel.WARNING);
    expect(d.location).toBe('index GSI2');
    expect(d.message).toContain('2 shard(s) take about 1600 write units/s');
    expect(d.message).toContain('2000 writes/s');
    expect(d.fix).toBe('set shardCount to at least 3');
  });

  test('counts write units: entries over 1 KB need more shards', () => {
    const m = edited((draft) => {
      draft.entities.Order.attributes.notes = { type: AttributeKind.STRING, typicalSizeBytes: 1500 };
      draft.globalIndexes!.GSI2.include!.push('notes');
      draft.globalIndexes!.GSI2.sharding = { shardCount: 3, peakWritesPerSecond: 2000 };
    });
    expect(theFinding(m, 'SHARDS_BELOW_PEAK', DiagnosticLevel.WARNING).fix).toBe('set shardCount to at least 5');
  });

  test('is only a warning: the manifest still compiles', () => {
    expect(compileManifest(sharded({ shardCount: 2, peakWritesPerSecond: 2000 })).diagnostics.map((d) => d.code)).toEqual(['SHARDS_BELOW_PEAK']);
  });

  test('a count derived from the peak is enough', () => {
    expect(compileManifest(sharded({ peakWritesPerSecond: 2000 })).diagnostics).toEqual([]);
  });
});
