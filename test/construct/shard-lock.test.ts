// The shard lock at synth: recorded counts or strategies the manifest dropped fail the synth, new
// ones are written to the file (and annotated), and without the prop no file is read or written.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { synth, synthError } from './synth';
import { ShardingDefinition, ShardStrategy } from '../../lib/model/manifest';
import { edited } from '../fixtures/valid-manifest';

const sharded = (sharding?: ShardingDefinition) => edited((m) => { m.globalIndexes!.GSI2.sharding = sharding; });

function lockFile(content?: object): string {
  const file = join(mkdtempSync(join(tmpdir(), 'single-table-lock-')), 'single-table.lock.json');
  if (content) writeFileSync(file, JSON.stringify(content));
  return file;
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

test('lowering 10 -> 5 without the old count fails, naming the index, the missing count and the fix', () => {
  const file = lockFile({ 'Test/Table': { GSI2: [10] } });
  const message = synthError({ shardLock: file }, sharded({ shardCount: 5 }));
  expect(message).toContain("[SHARD_LOCK_COUNT_MISSING] index GSI2: the shard lock 'Test/Table' records shard count(s) 10, which shardCount and previousShardCounts (5) do not declare");
  expect(message).toContain(`(${file}). Fix: add 10 to previousShardCounts: previousShardCounts: [10]`);
  expect(read(file)).toEqual({ 'Test/Table': { GSI2: [10] } });
});

test('ATTRIBUTE sharding switched 3 -> 5 without history fails too: reads by value need the old count', () => {
  const file = lockFile({ 'Test/Table': { GSI2: [3] } });
  const manifest = sharded({ shardCount: 5, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'status' });
  expect(synthError({ shardLock: file }, manifest)).toContain('[SHARD_LOCK_COUNT_MISSING] index GSI2');
});

test('lowering with the old count in previousShardCounts passes and records the new count', () => {
  const file = lockFile({ 'Test/Table': { GSI2: [10] } });
  const { stack } = synth({ shardLock: file }, sharded({ shardCount: 5, previousShardCounts: [10] }));
  // A bare list of counts (a file from before strategies were recorded) gains the current strategy.
  expect(read(file)).toEqual({ 'Test/Table': { GSI2: { counts: [5, 10], strategies: ['RANDOM'] } } });
  Annotations.fromStack(stack).hasWarning('/Test/Table', Match.stringLikeRegexp(
    "^\\[SHARD_LOCK_UPDATED\\] shard lock 'Test/Table': recorded GSI2: shard count 5, strategy RANDOM in .*Fix: commit .* with this manifest change",
  ));
});

test('a missing file is created with every declared count, sorted; other entries are kept', () => {
  const fresh = lockFile();
  synth({ shardLock: fresh }, sharded({ shardCount: 4, previousShardCounts: [8, 2] }));
  expect(readFileSync(fresh, 'utf8')).toBe(JSON.stringify({ 'Test/Table': { GSI2: { counts: [2, 4, 8], strategies: ['RANDOM'] } } }, null, 2) + '\n');

  const shared = lockFile({ 'Other/Table': { GSI1: [3] } });
  synth({ shardLock: shared, shardLockName: 'orders' }, sharded({ shardCount: 4 }));
  expect(Object.keys(read(shared))).toEqual(['Other/Table', 'orders']);
  expect(read(shared).orders).toEqual({ GSI2: { counts: [4], strategies: ['RANDOM'] } });
});

test('an up-to-date lock is not rewritten and adds no annotation', () => {
  const file = lockFile();
  writeFileSync(file, '{"Test/Table": {"GSI2": {"counts": [3], "strategies": ["RANDOM"]}}}');
  const { stack } = synth({ shardLock: file }, sharded({ shardCount: 3 }));
  expect(readFileSync(file, 'utf8')).toBe('{"Test/Table": {"GSI2": {"counts": [3], "strategies": ["RANDOM"]}}}');
  Annotations.fromStack(stack).hasNoWarning('*', Match.anyValue());
});

test.each([
  ['turned unsharded', sharded(undefined)],
  ['removed', edited((m) => {
    delete m.globalIndexes!.GSI2;
    delete m.entities.Order.indexes!.GSI2;
    delete m.accessPatterns!.ordersByStatus;
  })],
])('a recorded index %s fails: its items keep shard-suffixed keys', (_what, manifest) => {
  const file = lockFile({ 'Test/Table': { GSI2: [3] } });
  const message = synthError({ shardLock: file }, manifest);
  expect(message).toContain("[SHARD_LOCK_INDEX_UNSHARDED] index GSI2: the shard lock 'Test/Table' records shard counts 3");
  expect(message).toContain("delete 'GSI2' from the entry 'Test/Table' of the lock file deliberately");
});

test('RANDOM switched to ATTRIBUTE without history fails, naming the strategy to keep; with it, both are recorded', () => {
  const file = lockFile({ 'Test/Table': { GSI2: { counts: [3], strategies: ['RANDOM'] } } });
  const attribute = { shardCount: 3, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'status' };
  const message = synthError({ shardLock: file }, sharded(attribute));
  expect(message).toContain("[SHARD_LOCK_STRATEGY_MISSING] index GSI2: the shard lock 'Test/Table' records strategy RANDOM, which strategy and previousStrategies (ATTRIBUTE:status) do not declare");
  expect(message).toContain('Fix: add it to previousStrategies: previousStrategies: [{ strategy: ShardStrategy.RANDOM }]');
  synth({ shardLock: file }, sharded({ ...attribute, previousStrategies: [{ strategy: ShardStrategy.RANDOM }] }));
  expect(read(file)).toEqual({ 'Test/Table': { GSI2: { counts: [3], strategies: ['ATTRIBUTE:status', 'RANDOM'] } } });
});

test('a malformed lock file fails the synth', () => {
  const file = lockFile({ 'Test/Table': { GSI2: [0] } });
  expect(synthError({ shardLock: file }, sharded({ shardCount: 3 }))).toContain("[SHARD_LOCK_INVALID] shard lock: the lock file entry 'Test/Table', index 'GSI2'");
});

test('a manifest error leaves the lock file as it was', () => {
  const file = lockFile();
  synthError({ shardLock: file }, sharded({ shardCount: 0 }));
  expect(existsSync(file)).toBe(false);
});

test('without shardLock no file is written, even when counts are lowered', () => {
  const dir = mkdtempSync(join(tmpdir(), 'single-table-nolock-'));
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    synth({}, sharded({ shardCount: 2 }));
  } finally {
    process.chdir(cwd);
  }
  expect(readdirSync(dir)).toEqual([]);
});
