// Sharding rules (seed 004): settings that can work, and enough shards for the declared peak.
import { IndexType } from '../model';
import { peakEntryWriteUnits, SAFE_WRITES_PER_PARTITION, shardsFor } from '../sizes';
import { AttributeKind, ShardStrategy } from '../structs';
import { entitiesOn, ManifestRule } from './rule';

/** Largest shard count the library fans out over. */
export const MAX_SHARDS = 100;

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_SHARDS;

/** Shard counts, peaks, strategies and shard attributes that can work. */
export const shardSettingsArePossible: ManifestRule = (model, manifest, sink) => {
  for (const [name, def] of Object.entries(manifest.globalIndexes ?? {})) {
    const s = def?.sharding;
    if (!s) continue;
    const where = `index ${name}`;
    if (s.shardCount === undefined && s.peakWritesPerSecond === undefined) {
      sink.error('SHARDING_WITHOUT_COUNT', where, 'is sharded without shardCount or peakWritesPerSecond', 'set shardCount, or peakWritesPerSecond to derive it');
    }
    if (s.shardCount !== undefined && !isCount(s.shardCount)) {
      sink.error('SHARD_COUNT_INVALID', where, `shardCount ${JSON.stringify(s.shardCount)} is not a whole number from 1 to ${MAX_SHARDS}`, `use a whole number from 1 to ${MAX_SHARDS}`);
    }
    if (s.peakWritesPerSecond !== undefined && !(typeof s.peakWritesPerSecond === 'number' && s.peakWritesPerSecond > 0 && Number.isFinite(s.peakWritesPerSecond))) {
      sink.error('PEAK_WRITES_INVALID', where, `peakWritesPerSecond ${JSON.stringify(s.peakWritesPerSecond)} is not a positive number`, 'use the expected peak writes per second on the hottest key');
    }
    const shards = model.indexes[name]?.shards;
    if (shards && s.shardCount === undefined && shards.writeCount > MAX_SHARDS) {
      sink.error('SHARD_COUNT_INVALID', where, `peakWritesPerSecond ${s.peakWritesPerSecond} needs ${shards.writeCount} shards, more than ${MAX_SHARDS}`, 'redesign the partition key for more cardinality instead of sharding');
    }
    for (const previous of s.previousShardCounts ?? []) {
      if (!isCount(previous)) {
        sink.error('PREVIOUS_SHARD_COUNT_INVALID', where, `previousShardCounts holds ${JSON.stringify(previous)}, not a whole number from 1 to ${MAX_SHARDS}`, 'list the shard counts the index was deployed with');
      }
    }
    for (const previous of s.previousStrategies ?? []) {
      const valid = Object.values(ShardStrategy).includes(previous?.strategy)
        && (previous.strategy === ShardStrategy.ATTRIBUTE ? typeof previous.shardAttribute === 'string' && previous.shardAttribute !== '' : previous.shardAttribute === undefined);
      if (!valid) {
        sink.error('PREVIOUS_SHARD_STRATEGY_INVALID', where, `previousStrategies holds ${JSON.stringify(previous)}, not a strategy the index can have been deployed with`,
          "list each earlier strategy as { strategy: ShardStrategy.RANDOM } or { strategy: ShardStrategy.ATTRIBUTE, shardAttribute: '<attribute>' }");
      }
    }
    const strategy = s.strategy ?? ShardStrategy.RANDOM;
    if (!Object.values(ShardStrategy).includes(strategy)) {
      sink.error('SHARD_STRATEGY_INVALID', where, `strategy ${JSON.stringify(strategy)} is not a ShardStrategy`, 'use ShardStrategy.RANDOM or ShardStrategy.ATTRIBUTE');
    } else if (strategy === ShardStrategy.RANDOM && s.shardAttribute !== undefined) {
      sink.error('SHARD_ATTRIBUTE_UNUSED', where, `names shardAttribute '${s.shardAttribute}' with the RANDOM strategy`, 'set strategy: ShardStrategy.ATTRIBUTE, or remove shardAttribute');
    } else if (strategy === ShardStrategy.ATTRIBUTE) {
      if (!s.shardAttribute) {
        sink.error('SHARD_ATTRIBUTE_MISSING', where, 'uses the ATTRIBUTE strategy without shardAttribute', 'name the attribute the shard is computed from');
        continue;
      }
      for (const entity of entitiesOn(model, name)) {
        const attr = entity.attributes[s.shardAttribute];
        if (!attr || !attr.required || ![AttributeKind.STRING, AttributeKind.NUMBER, AttributeKind.DATE].includes(attr.type)) {
          sink.error('SHARD_ATTRIBUTE_INVALID', `${where}, entity ${entity.name}`, `shardAttribute '${s.shardAttribute}' is ${attr ? `${attr.required ? '' : 'optional '}${attr.type}` : 'not declared'}; every entity on the index must have it as a required STRING, NUMBER or DATE`, `declare '${s.shardAttribute}' as a required attribute of ${entity.name}`);
        }
      }
    }
  }
};

/** Warns when the declared peak needs more shards than the index has (about 800 writes/s each). */
export const shardsCoverDeclaredPeak: ManifestRule = (model, _manifest, sink) => {
  for (const index of Object.values(model.indexes)) {
    if (index.type !== IndexType.GSI || !index.shards?.peakWritesPerSecond) continue;
    const units = peakEntryWriteUnits(index, model.entities, model.indexes, model.typeAttribute);
    const needed = shardsFor(index.shards.peakWritesPerSecond * units);
    if (index.shards.writeCount < needed) {
      sink.warning('SHARDS_BELOW_PEAK', `index ${index.name}`, `${index.shards.writeCount} shard(s) take about ${index.shards.writeCount * SAFE_WRITES_PER_PARTITION} write units/s, but the declared peak is ${index.shards.peakWritesPerSecond} writes/s x ${units} unit(s) = ${index.shards.peakWritesPerSecond * units} units/s`, `set shardCount to at least ${needed}`);
    }
  }
};
