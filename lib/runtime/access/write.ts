// PutItem for a generated access module: the item checked against its entity's slice, every key
// composed from the slot templates (an index slot whose inputs are absent is left out: sparse),
// with the same errors and the same request as `putItem`.
import type { AttributeValue, PutItemCommandInput } from '@aws-sdk/client-dynamodb';
import { PutItemCommand } from '../sdk';
import { AccessModel, AccessTable, EntityAccess, SlotAccess, templateComposer } from './table';
import { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES } from '../../keys/encoding';
import { shardedKey } from '../../keys/shard';
import type { ComposeFailure, Composer } from '../../keys/template';
import type { ItemCollectionListener, WritingTable } from '../item-collections';
import { putCondition } from '../items';
import { absentOrThrow, checkSize, requiredKey, shardFor } from '../keys';
import type { PutOptions } from '../ops/put-item';
import { sendWrite } from '../send';
import type { AttributeSlot } from '../values';
import { convertItem, valuesText } from '../values';
import { ConditionFailedError } from '../write-failure';

type Values = Readonly<Record<string, unknown>>;

/** An entity's slot templates compiled once; identical templates share one composer (numbers into `composers`). */
interface CompiledKeys {
  readonly composers: Composer[];
  readonly pk: (number | undefined)[];
  readonly sk: (number | undefined)[];
}

const compiled = new WeakMap<EntityAccess, CompiledKeys>();

function compile(model: AccessModel, entity: EntityAccess): CompiledKeys {
  let keys = compiled.get(entity);
  if (keys) return keys;
  const sources: string[] = [];
  const composers: Composer[] = [];
  const number = (template: string | undefined) => {
    if (template === undefined) return undefined;
    let n = sources.indexOf(template);
    if (n < 0) n = sources.push(template) - 1, composers.push(templateComposer(model, template, entity.attributes));
    return n;
  };
  keys = { composers, pk: entity.slots.map((s) => number(s.pk?.[1])), sk: entity.slots.map((s) => number(s.sk?.[1])) };
  compiled.set(entity, keys);
  return keys;
}

/** Every attribute DynamoDB stores for an item: values, type, table and index keys. */
export function entityItem(model: AccessModel, entity: EntityAccess, item: Values): Record<string, AttributeValue> {
  const stored = convertItem(entity.name, item, entity.attributes);
  const keys = compile(model, entity);
  const done: (string | ComposeFailure)[] = keys.composers.map((compose) => compose(item));
  const [table, ...indexes] = entity.slots;
  const pk = table.pk!;
  const sk = table.sk!;
  const tableKey = {
    pk: requiredKey(entity, { source: pk[1] }, done[keys.pk[0]!], pk[0], MAX_PARTITION_KEY_BYTES),
    sk: requiredKey(entity, { source: sk[1] }, done[keys.sk[0]!], sk[0], MAX_SORT_KEY_BYTES),
  };
  stored[pk[0]] = { S: tableKey.pk };
  stored[sk[0]] = { S: tableKey.sk };
  indexes.forEach((slot, i) => {
    const out: Record<string, AttributeValue> = {};
    for (const [key, n, limit] of [[slot.pk, keys.pk[i + 1], MAX_PARTITION_KEY_BYTES], [slot.sk, keys.sk[i + 1], MAX_SORT_KEY_BYTES]] as const) {
      if (!key) continue;
      const r = done[n!];
      if (typeof r !== 'string') return absentOrThrow(entity, { source: key[1] }, r);
      const value = key === slot.pk && slot.shard ? slot.shard(model, entity, item, tableKey, r) : r;
      out[key[0]] = { S: checkSize(entity, key[0], value, limit) };
    }
    Object.assign(stored, out);
    return undefined;
  });
  stored[model.typeAttribute] = { S: entity.typeValue };
  return stored;
}

/**
 * The shard suffix of a write-sharded partition key: from the table key (RANDOM), or from the
 * shard attribute's value (ATTRIBUTE). A slot refers to it only on a sharded index, so a bundle
 * without one carries no shard code.
 */
export function shardedBy(index: string, writeCount: number, attribute?: AttributeSlot): NonNullable<SlotAccess['shard']> {
  return (model, entity, item, tableKey, key) => {
    const encode = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : attribute!.kind.segment!(v, model.escapeChar));
    return shardedKey(key, shardFor(entity, index, writeCount, attribute?.name, encode, item, tableKey), model.delimiter);
  };
}

/**
 * Writes a whole item of an entity. Generated modules pass `collections` (collectionsOf) on a
 * table with LSIs, whose writes report their item collection's size.
 */
export async function putEntity(
  table: AccessTable<unknown>, entity: EntityAccess, item: Values, options: PutOptions = {},
  collections?: (table: WritingTable) => ItemCollectionListener | undefined,
): Promise<void> {
  const { model } = table;
  const input: PutItemCommandInput = { TableName: table.tableName, Item: entityItem(model, entity, item) };
  const mode = options.mode ?? 'upsert';
  if (mode !== 'upsert') Object.assign(input, putCondition(entity.slots[0].pk![0], entity.name, mode));
  const listener = collections?.(table);
  if (listener) input.ReturnItemCollectionMetrics = 'SIZE';
  await sendWrite(table, () => table.dynamodb.send(new PutItemCommand(input)), (e) => {
    // As writeFailure words it for a put without version or condition: the key, then the reason.
    const names = [...new Set(`${entity.slots[0].pk![1]}#${entity.slots[0].sk![1]}`.match(/[^{}]+(?=\})/g))];
    return new ConditionFailedError('CONDITION_FAILED', `${valuesText(item, names)}: ${mode === 'create' ? 'an item with this key already exists' : 'there is no item with this key'}`,
      entity.name, e);
  }, listener);
}
