// `cdk-single-table/runtime/access`: what the modules `single-table generate --access` writes are
// built on. Not user API: generated code imports it, and it changes with the generator.
export { checkModuleTable, openAccess } from './table';
export type { EntityAccess, SlotAccess, KeyAccess } from './table';
export type { AccessModel } from '../table/context';
export { itemPutRequest, putWith } from './write';
export type { ItemPut } from './write';
export { attributeFault, declaredOnly, keyFault, shardFault, textSegment } from './build';
export { checkSize } from '../attributes/item-keys';
export { normalizeDate } from '../../keys/encoding';
export { storableNumber } from '../attributes/marshall';
export { shardForItem, shardForValue } from '../../keys/shard';
export { getEntity } from './read';
export { queryPattern, pagedQuery, patternRequest, readPattern, partitionCondition, sortKeyCondition, sortKeyRequest } from './query';
export type { IndexSlot, PatternAccess, PatternOptions, SlicedPatternAccess } from './query';
export { sliceReader } from './slice-read';
export { shardsToQuery } from '../query/fanout-shards';
export type { ModelSlice, SliceEntity, SliceKeys, SlicePlan, SliceReader } from './slice-read';
export { named } from './named';
export { STRING_KIND, NUMBER_KIND, BOOLEAN_KIND, DATE_KIND, LIST_KIND, MAP_KIND, STRING_SET_KIND, NUMBER_SET_KIND } from '../attributes/values';
export { stringSegment, numberSegment, dateSegment, booleanSegment } from '../../keys/encoding';
export type { ValueKind, AttributeSlot } from '../attributes/values';
export { collectionsOf } from '../items/item-collections';
export type { KeyedPattern } from '../query/key-condition';
export type { FetchMode, IndexType, ShardModel } from '../../model/model';
export { readShards } from '../query/read-index';
