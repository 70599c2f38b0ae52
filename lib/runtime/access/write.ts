// PutItem for a generated access module: the item checked against its entity's slice, every key
// composed from the slot templates (an index slot whose inputs are absent is left out: sparse),
// with the same errors and the same request as `putItem`.
import type { AttributeValue, PutItemCommandInput } from '@aws-sdk/client-dynamodb';
import { AccessModel, AccessTable, EntityAccess, KeyAccess, SlotAccess, tableKeyValue } from './table';
import { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES } from '../../keys/encoding';
import { shardedKey } from '../../keys/shard';
import { composeParts, partsSource, SegmentEncode } from '../../keys/template';
import { madeByWhere } from '../expressions/made-by-where';
import type { ItemCollectionListener, WritingTable } from '../items/item-collections';
import type { PutOptions } from '../items/put-item';
import { putCondition, PutMode } from '../items/requests';
import { ConditionFailedError, writeFailure } from '../items/write-failure';
import { absentOrThrow, checkSize, shardFor } from '../keys/item-keys';
import { convertItem, valuesText } from '../keys/values';
import { PutItemCommand } from '../table/sdk';
import { sendWrite } from '../table/send';

type Values = Readonly<Record<string, unknown>>;

/** Every attribute DynamoDB stores for an item: values, type, table and index keys. */
export function entityItem(model: AccessModel, entity: EntityAccess, item: Values): Record<string, AttributeValue> {
  const stored = convertItem(entity.name, item, entity.attributes, {});
  const { slots } = entity;
  const { pk, sk } = slots[0];
  const tableKey = {
    pk: tableKeyValue(model, entity, pk!, item, MAX_PARTITION_KEY_BYTES),
    sk: tableKeyValue(model, entity, sk!, item, MAX_SORT_KEY_BYTES),
  };
  stored[pk![0]] = { S: tableKey.pk };
  stored[sk![0]] = { S: tableKey.sk };
  // An index key's value; undefined where the slot has no such key, null where an input is absent (the item stays out of the index).
  const indexKey = (key?: KeyAccess) => {
    const r = key && composeParts(key[1], item, model.escapeChar);
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
 * What a put reads of an entity: its name, its table key, and how its stored item is made. A
 * generated module holds one per entity, with the entity's item builder (straight-line code, see
 * ./build.ts), which stores what entityItem stores from the entity's slice.
 */
export interface ItemPut {
  readonly name: string;
  /** The table's partition key attribute: `create` and `replace` are conditions on it. */
  readonly partitionKey: string;
  /** The table key's attributes, which a refused `create` or `replace` names with their values. */
  readonly keys: readonly string[];
  /** The item DynamoDB stores (values, type, table and index keys), checked; throws what entityItem throws. */
  readonly item: (item: unknown) => Record<string, AttributeValue>;
}

/**
 * The PutItem request of a whole item, checked: what putWith sends (less the item collection
 * metrics a table with LSIs asks for).
 */
export function itemPutRequest(table: Pick<AccessTable<unknown>, 'tableName'>, put: ItemPut, item: unknown, mode: PutMode = 'upsert'): PutItemCommandInput {
  const input: PutItemCommandInput = { TableName: table.tableName, Item: put.item(item) };
  if (mode !== 'upsert') Object.assign(input, putCondition(put.partitionKey, put.name, mode));
  return input;
}

/** What the item collection listener reads of a generated module's table: its slice of the model, not the whole one. */
const writing = new WeakMap<AccessTable<unknown>, WritingTable>();

/**
 * Writes a whole item with an entity's item builder. Generated modules pass `collections`
 * (collectionsOf) on a table with LSIs, whose writes report their item collection's size. A
 * condition of the caller's (made by `where`) is checked against the entity as the whole model
 * declares it, which the table then loads.
 */
export async function putWith(
  table: AccessTable<unknown>, put: ItemPut, item: unknown, options: PutOptions = {},
  collections?: (table: WritingTable) => ItemCollectionListener | undefined,
): Promise<void> {
  const { mode = 'upsert', condition } = options;
  const input = itemPutRequest(table, put, item, mode);
  if (condition !== undefined) madeByWhere(condition, 'condition', { entity: put.name }).addTo(input, table.model.entities[put.name]);
  let view = writing.get(table);
  if (collections && !view) writing.set(table, view = { tableName: table.tableName, options: table.options, model: table.access });
  const listener = view && collections!(view);
  if (listener) input.ReturnItemCollectionMetrics = 'SIZE';
  await sendWrite(table, () => table.dynamodb.send(new PutItemCommand(input)), (e) => (condition !== undefined
    ? writeFailure(table, put.name, input, item as Values, e, condition)
    // As writeFailure words it for a put without version or condition: the key, then the reason.
    : new ConditionFailedError('CONDITION_FAILED', `${valuesText(item as Values, put.keys)}: ${mode === 'create' ? 'an item with this key already exists' : 'there is no item with this key'}`,
      put.name, e)), listener);
}
