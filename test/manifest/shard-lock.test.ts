// The shard lock check on its own: text in, findings and the new text out, no files.
import { compileManifest } from '../../lib/manifest/compile';
import { applyShardLock, formatShardLock, lockNames } from '../../lib/manifest/shard-lock';
import { ShardingDefinition, ShardStrategy } from '../../lib/model/manifest';
import { TableModel } from '../../lib/model/model';
import { shardedTournamentManifest } from '../fixtures/tournament';
import { edited } from '../fixtures/valid-manifest';

const model = (sharding?: ShardingDefinition): TableModel =>
  compileManifest(edited((m) => { m.globalIndexes!.GSI2.sharding = sharding; })).model;

const lock = (entry: object) => JSON.stringify({ app: entry });

test('every recorded count and strategy declared: no finding, nothing new', () => {
  expect(applyShardLock(model({ shardCount: 2, previousShardCounts: [5] }), 'app', lock({ GSI2: { counts: [2, 5], strategies: ['RANDOM'] } }))).toEqual({ diagnostics: [], recorded: {} });
});

test('a bare list of counts (a file from before strategies were recorded) is read, and gains the current strategy', () => {
  const { diagnostics, recorded, text } = applyShardLock(model({ shardCount: 2, previousShardCounts: [5] }), 'app', lock({ GSI2: [2, 5] }));
  expect(diagnostics).toEqual([]);
  expect(recorded).toEqual({ GSI2: { counts: [], strategies: ['RANDOM'] } });
  expect(JSON.parse(text!)).toEqual({ app: { GSI2: { counts: [2, 5], strategies: ['RANDOM'] } } });
});

test.each([
  ['RANDOM -> ATTRIBUTE', ['RANDOM'], { strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'status' }, 'RANDOM', '{ strategy: ShardStrategy.RANDOM }'],
  ['ATTRIBUTE -> RANDOM', ['ATTRIBUTE:status'], {}, 'ATTRIBUTE:status', "{ strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'status' }"],
  ['another shard attribute', ['ATTRIBUTE:username'], { strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'status' }, 'ATTRIBUTE:username', "{ strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'username' }"],
])('a strategy change without previousStrategies is SHARD_LOCK_STRATEGY_MISSING: %s', (_what, locked, sharding, missing, fix) => {
  const { diagnostics, text } = applyShardLock(model({ shardCount: 3, ...sharding }), 'app', lock({ GSI2: { counts: [3], strategies: locked } }));
  expect(diagnostics.map((d) => [d.code, d.location])).toEqual([['SHARD_LOCK_STRATEGY_MISSING', 'index GSI2']]);
  expect(diagnostics[0].message).toContain(`records strategy ${missing}, which strategy and previousStrategies`);
  expect(diagnostics[0].fix).toBe(`add it to previousStrategies: previousStrategies: [${fix}]`);
  expect(text).toBeUndefined();
});

test('with the old strategy in previousStrategies the change passes, and the new strategy is recorded', () => {
  const sharding = { shardCount: 3, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'status', previousStrategies: [{ strategy: ShardStrategy.RANDOM }] };
  const { diagnostics, recorded, text } = applyShardLock(model(sharding), 'app', lock({ GSI2: { counts: [3], strategies: ['RANDOM'] } }));
  expect(diagnostics).toEqual([]);
  expect(recorded).toEqual({ GSI2: { counts: [], strategies: ['ATTRIBUTE:status'] } });
  expect(JSON.parse(text!).app.GSI2.strategies).toEqual(['ATTRIBUTE:status', 'RANDOM']);
});

test('a recorded count not declared any more is an error, even when a larger count is declared', () => {
  const { diagnostics, text } = applyShardLock(model({ shardCount: 8, previousShardCounts: [4] }), 'app', lock({ GSI2: [2, 4, 6] }));
  expect(diagnostics.map((d) => [d.code, d.location])).toEqual([['SHARD_LOCK_COUNT_MISSING', 'index GSI2']]);
  expect(diagnostics[0].message).toContain('records shard count(s) 2, 6, which shardCount and previousShardCounts (4, 8) do not declare');
  expect(diagnostics[0].fix).toBe('add 2, 6 to previousShardCounts: previousShardCounts: [2, 4, 6]');
  expect(text).toBeUndefined();
});

test('entries of other lock names are neither checked nor changed', () => {
  const other = JSON.stringify({ other: { GSI2: { counts: [9], strategies: ['RANDOM'] }, GSI7: { counts: [3], strategies: ['ATTRIBUTE:x'] } } });
  const { diagnostics, recorded, text } = applyShardLock(model({ shardCount: 3 }), 'app', other);
  expect(diagnostics).toEqual([]);
  expect(recorded).toEqual({ GSI2: { counts: [3], strategies: ['RANDOM'] } });
  expect(JSON.parse(text!)).toEqual({ app: { GSI2: { counts: [3], strategies: ['RANDOM'] } }, ...JSON.parse(other) });
});

test('no file and no sharded index: nothing to write', () => {
  expect(applyShardLock(model(), 'app', undefined)).toEqual({ diagnostics: [], recorded: {} });
});

test.each([
  ['not JSON', '{', 'is not valid JSON'],
  ['an array', '[]', 'is not an object of lock names'],
  ['an entry that is a list', '{"app": [3]}', "entry 'app' is not an object"],
  ['duplicate counts', '{"app": {"GSI2": [3, 3]}}', "index 'GSI2' is not { counts, strategies } with distinct whole numbers from 1 to 100"],
  ['an unknown strategy', '{"app": {"GSI2": {"counts": [3], "strategies": ["HASH"]}}}', "index 'GSI2' is not { counts, strategies }"],
  ['an index that is neither', '{"app": {"GSI2": 3}}', "index 'GSI2' is not { counts, strategies }"],
])('SHARD_LOCK_INVALID: %s', (_what, text, message) => {
  const { diagnostics } = applyShardLock(model({ shardCount: 3 }), 'app', text);
  expect(diagnostics).toHaveLength(1);
  expect(diagnostics[0]).toMatchObject({ code: 'SHARD_LOCK_INVALID', location: 'shard lock' });
  expect(diagnostics[0].message).toContain(message);
});

test('formatting is stable: names, indexes, counts and strategies sorted', () => {
  const text = formatShardLock({ b: { GSI9: { counts: [5, 1], strategies: ['RANDOM', 'ATTRIBUTE:a'] }, GSI1: { counts: [2], strategies: [] } }, a: {} });
  expect(text).toBe(formatShardLock(JSON.parse(text)));
  expect(Object.keys(JSON.parse(text))).toEqual(['a', 'b']);
  expect(JSON.parse(text).b).toEqual({ GSI1: { counts: [2], strategies: [] }, GSI9: { counts: [1, 5], strategies: ['ATTRIBUTE:a', 'RANDOM'] } });
  expect(Object.keys(JSON.parse(text).b)).toEqual(['GSI1', 'GSI9']);
  expect(lockNames(text)).toEqual(['a', 'b']);
  expect(lockNames('[]')).toBeUndefined();
});

test('a count derived from the peak is held too: a higher peak that raises 3 to 4 asks for the 3', () => {
  expect(model({ peakWritesPerSecond: 2000 }).indexes.GSI2.shards!.writeCount).toBe(3);
  const { diagnostics } = applyShardLock(model({ peakWritesPerSecond: 3000 }), 'app', lock({ GSI2: [3] }));
  expect(diagnostics.map((d) => d.fix)).toEqual(['add 3 to previousShardCounts: previousShardCounts: [3]']);
});

test('a sharded multi-attribute index is recorded and checked like a composed one', () => {
  const attributeKeyed = (sharding: ShardingDefinition) => compileManifest(shardedTournamentManifest(sharding)).model;
  const first = applyShardLock(attributeKeyed({ shardCount: 4 }), 'app', undefined);
  expect(first.recorded).toEqual({ ByStatus: { counts: [4], strategies: ['RANDOM'] } });
  const resharded = applyShardLock(attributeKeyed({ shardCount: 8 }), 'app', first.text);
  expect(resharded.diagnostics.map((d) => [d.code, d.location, d.fix])).toEqual([['SHARD_LOCK_COUNT_MISSING', 'index ByStatus', 'add 4 to previousShardCounts: previousShardCounts: [4]']]);
  expect(applyShardLock(attributeKeyed({ shardCount: 8, previousShardCounts: [4] }), 'app', first.text).recorded).toEqual({ ByStatus: { counts: [8], strategies: [] } });
});

test('a multi-attribute index no longer sharded: the lock says its key would lose the shard attribute', () => {
  const { text } = applyShardLock(compileManifest(shardedTournamentManifest({ shardCount: 4 })).model, 'app', undefined);
  const { diagnostics } = applyShardLock(compileManifest(shardedTournamentManifest()).model, 'app', text);
  expect(diagnostics.map((d) => d.code)).toEqual(['SHARD_LOCK_INDEX_UNSHARDED']);
  expect(diagnostics[0].message).toContain("items written since hold the shard attribute ByStatusShard, which the index's key no longer has: a deployed GSI's key cannot change");
});
