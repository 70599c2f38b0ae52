// Sharding rules: settings that can work, and enough shards for the declared peak.
import { didYouMean } from '../../model/closest-name';
import { AttributeKind, ShardStrategy } from '../../model/manifest';
import { IndexType } from '../../model/model';
import { MAX_SHARDS } from '../shape';
import { peakEntryWriteUnits, SAFE_WRITES_PER_PARTITION, shardsFor } from '../sizes';
import { own } from '../values';
import { entitiesOn, ManifestRule } from './rule';

/** Settings that can work together; each value's own type and range is checked with the manifest's shape. */
export const shardSettingsArePossible: ManifestRule = (model, manifest, sink) => {
  for (const [name, def] of Object.entries(manifest.globalIndexes ?? {})) {
    const s = def?.sharding;
    if (!s) continue;
    const where = `index ${name}`;
    if (s.shardCount === undefined && s.peakWritesPerSecond === undefined) {
      sink.error('SHARDING_WITHOUT_COUNT', where, 'is sharded without shardCount or peakWritesPerSecond', 'set shardCount, or peakWritesPerSecond to derive it');
    }
    const shards = model.indexes[name]?.shards;
    if (shards && s.shardCount === undefined && shards.writeCount > MAX_SHARDS) {
      sink.error('SHARD_COUNT_INVALID', where, `peakWritesPerSecond ${s.peakWritesPerSecond} needs ${shards.writeCount} shards, more than ${MAX_SHARDS}`, 'redesign the partition key for more cardinality instead of sharding');
    }
    for (const previous of s.previousStrategies ?? []) {
      const valid = previous.strategy === ShardStrategy.ATTRIBUTE ? previous.shardAttribute !== undefined : previous.shardAttribute === undefined;
      if (!valid) {
        sink.error('PREVIOUS_SHARD_STRATEGY_INVALID', where, `previousStrategies holds ${JSON.stringify(previous)}, not a strategy the index can have been deployed with`,
          "list each earlier strategy as { strategy: ShardStrategy.RANDOM } or { strategy: ShardStrategy.ATTRIBUTE, shardAttribute: '<attribute>' }");
      }
    }
    const strategy = s.strategy ?? ShardStrategy.RANDOM;
    if (strategy === ShardStrategy.RANDOM && s.shardAttribute !== undefined) {
      sink.error('SHARD_ATTRIBUTE_UNUSED', where, `names shardAttribute '${s.shardAttribute}' with the RANDOM strategy`, 'set strategy: ShardStrategy.ATTRIBUTE, or remove shardAttribute');
    } else if (strategy === ShardStrategy.ATTRIBUTE) {
      if (!s.shardAttribute) {
        sink.error('SHARD_ATTRIBUTE_MISSING', where, 'uses the ATTRIBUTE strategy without shardAttribute', 'name the attribute the shard is computed from');
        continue;
      }
      for (const entity of entitiesOn(model, name)) {
        const attr = own(entity.attributes, s.shardAttribute);
        if (!attr || !attr.required || ![AttributeKind.STRING, AttributeKind.NUMBER, AttributeKind.DATE].includes(attr.type)) {
          sink.error('SHARD_ATTRIBUTE_INVALID', `${where}, entity ${entity.name}`, `shardAttribute '${s.shardAttribute}' is ${attr ? `${attr.required ? '' : 'optional '}${attr.type}` : 'not declared'}; every entity on the index must have it as a required STRING, NUMBER or DATE`, `${attr ? '' : didYouMean(s.shardAttribute, Object.keys(entity.attributes))}declare '${s.shardAttribute}' as a required attribute of ${entity.name}`);
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
