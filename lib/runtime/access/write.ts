// PutItem for a generated access module: the item checked against its entity's slice, every key
// composed from the slot templates (an index slot whose inputs are absent is left out: sparse),
// with the same errors and the same request as `putItem`.
import type { AttributeValue, PutItemCommandInput } from '@aws-sdk/client-dynamodb';
import { PutItemCommand } from '../sdk';
import { AccessModel, AccessTable, EntityAccess, KeyAccess, SlotAccess, tableKeyNames, tableKeyValue } from './table';
import { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES } from '../../keys/encoding';
import { shardedKey } from '../../keys/shard';
import { ComposeFailure, composeParts, partsSource, SegmentEncode, TemplateParts } from '../../keys/template';
import type { ItemCollectionListener, WritingTable } from '../item-collections';
import { putCondition, PutMode } from '../items';
import { absentOrThrow, checkSize, shardFor } from '../keys';
import type { PutOptions } from '../ops/put-item';
import { sendWrite } from '../send';
import { convertItem, valuesText } from '../values';
import { ConditionFailedError } from '../write-failure';

type Values = Readonly<Record<string, unknown>>;

/** Every attribute DynamoDB stores for an item: values, type, table and index keys. */
export function entityItem(model: AccessModel, entity: EntityAccess, item: Values): Record<string, AttributeValue> {
  const stored = convertItem(entity.name, item, entity.attributes, new (StoredItem as unknown as new () => Record<string, AttributeValue>)());
  const { slots } = entity;
  const { pk, sk } = slots[0];
  // Generated modules write a template used by several keys as one array (SK, GSI1PK and GSI1SK
  // `ORDER#{orderId}`): a key of the same array as the one before is that key again.
  let parts: TemplateParts | undefined;
  let last: string | ComposeFailure;
  const compose = (key: KeyAccess) => (key[1] === parts ? last : (last = composeParts(parts = key[1], item, model.escapeChar)));
  const tableKey = {
    pk: tableKeyValue(model, entity, pk!, item, MAX_PARTITION_KEY_BYTES, compose(pk!)),
    sk: tableKeyValue(model, entity, sk!, item, MAX_SORT_KEY_BYTES, compose(sk!)),
  };
  stored[pk![0]] = { S: tableKey.pk };
  stored[sk![0]] = { S: tableKey.sk };
  // An index key's value; undefined where the slot has no such key, null where an input is absent (the item stays out of the index).
  const indexKey = (key?: KeyAccess) => {
    const r = key && compose(key);
    return typeof r === 'object' ? absentOrThrow(entity, { source: partsSource(key![1]) }, r) ?? null : r;
  };
  for (let i = 1; i < slots.length; i++) {
    const slot = slots[i];
    const pkValue = indexKey(slot.pk);
    if (pkValue === null) continue;
    // A sharded key carries its shard suffix; the size is the suffixed key's.
    const sharded = slot.shard && pkValue !== undefined ? slot.shard(model, entity, item, tableKey, pkValue) : pkValue;
    const indexPk = sharded !== undefined && checkSize(entity, slot.pk![0], sharded, MAX_PARTITION_KEY_BYTES);
    const skValue = indexKey(slot.sk);
    if (skValue === null) continue;
    if (indexPk) stored[slot.pk![0]] = { S: indexPk };
    if (skValue !== undefined) stored[slot.sk![0]] = { S: checkSize(entity, slot.sk![0], skValue, MAX_SORT_KEY_BYTES) };
  }
  stored[model.typeAttribute] = { S: entity.typeValue };
  return stored;
}

/**
 * The maker of the object an item is stored in: a plain object like `{}` (Object.prototype, no own
 * property), but made by a constructor, so V8 sizes it by the items made before and keeps their
 * attributes and keys in the object itself. `{}` holds four; the others go to a separate store,
 * copied each time it grows (about a tenth of a put's time).
 */
function StoredItem(): void {}
StoredItem.prototype = Object.prototype;

/**
 * The shard suffix of a write-sharded partition key: from the table key (RANDOM), or from the
 * shard attribute's value (ATTRIBUTE), encoded with its kind's encoder. A slot refers to it only
 * on a sharded index, so a bundle without one carries no shard code.
 */
export function shardedBy(index: string, writeCount: number, attribute?: string, encode?: SegmentEncode): NonNullable<SlotAccess['shard']> {
  return (model, entity, item, tableKey, key) => {
    const encoded = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : encode!(v, model.escapeChar));
    return shardedKey(key, shardFor(entity, index, writeCount, attribute, encoded, item, tableKey), model.delimiter);
  };
}

/**
 * The PutItem request of a whole item of an entity, checked: what putEntity sends (less the item
 * collection metrics a table with LSIs asks for).
 */
export function putRequest(table: Pick<AccessTable<unknown>, 'model' | 'tableName'>, entity: EntityAccess, item: Values, mode: PutMode = 'upsert'): PutItemCommandInput {
  const input: PutItemCommandInput = { TableName: table.tableName, Item: entityItem(table.model, entity, item) };
  if (mode !== 'upsert') Object.assign(input, putCondition(entity.slots[0].pk![0], entity.name, mode));
  return input;
}

/**
 * Writes a whole item of an entity. Generated modules pass `collections` (collectionsOf) on a
 * table with LSIs, whose writes report their item collection's size.
 */
export async function putEntity(
  table: AccessTable<unknown>, entity: EntityAccess, item: Values, options?: PutOptions,
  collections?: (table: WritingTable) => ItemCollectionListener | undefined,
): Promise<void> {
  const mode = options?.mode ?? 'upsert';
  const input = putRequest(table, entity, item, mode);
  const listener = collections?.(table);
  if (listener) input.ReturnItemCollectionMetrics = 'SIZE';
  await sendWrite(table, () => table.dynamodb.send(new PutItemCommand(input)), (e) =>
    // As writeFailure words it for a put without version or condition: the key, then the reason.
    new ConditionFailedError('CONDITION_FAILED', `${valuesText(item, tableKeyNames(entity))}: ${mode === 'create' ? 'an item with this key already exists' : 'there is no item with this key'}`,
      entity.name, e), listener);
}
