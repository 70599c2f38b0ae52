// Composing an item's keys from its values, exactly as the model declares them: the table key,
// every index slot the entity populates (absent when an input is missing, empty or false, so the
// item stays out of a sparse index), shard suffixes, and UTF-8 size limits that DynamoDB enforces
// but local engines do not.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { SingleTableError } from './errors';
import { encodeSegment, MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, utf8Length } from '../keys/encoding';
import { shardedKey, shardForItem, shardForValue } from '../keys/shard';
import { composeKey } from '../keys/template';
import { EntityModel, IndexModel, KeyTemplateModel, TABLE_INDEX, TableModel } from '../manifest/model';

type Values = Readonly<Record<string, unknown>>;

/** The table key of an item: both parts must be composable. */
export function tableKey(model: TableModel, entity: EntityModel, values: Values): { pk: string; sk: string } {
  const keys = entity.keys[TABLE_INDEX];
  const index = model.indexes[TABLE_INDEX];
  return {
    pk: requiredKey(model, entity, keys.pk, values, index.partitionKey, MAX_PARTITION_KEY_BYTES),
    sk: requiredKey(model, entity, keys.sk!, values, index.sortKey!, MAX_SORT_KEY_BYTES),
  };
}

/** The table key as the AttributeValue map DynamoDB wants. */
export function keyAttributes(model: TableModel, key: { pk: string; sk: string }): Record<string, AttributeValue> {
  const index = model.indexes[TABLE_INDEX];
  return { [index.partitionKey]: { S: key.pk }, [index.sortKey!]: { S: key.sk } };
}

function requiredKey(model: TableModel, entity: EntityModel, template: KeyTemplateModel, values: Values, attribute: string, limit: number): string {
  const r = composeKey(template, values, model.delimiter, model.escapeChar);
  if ('key' in r) return checkSize(entity, attribute, r.key, limit);
  if ('absent' in r) {
    throw new SingleTableError('MISSING_ATTRIBUTE', `is needed (non-empty) for key ${attribute} = ${template.source}`, { entity: entity.name, attribute: r.absent });
  }
  throw new SingleTableError('INVALID_VALUE', `${r.error} (key ${attribute} = ${template.source})`, { entity: entity.name, attribute: r.attribute });
}

/** Throws KEY_TOO_LARGE when a key value exceeds DynamoDB's UTF-8 byte limit. */
export function checkSize(entity: EntityModel, attribute: string, key: string, limit: number): string {
  // Each UTF-16 unit is at most 3 UTF-8 bytes, so short keys skip the byte count.
  if (key.length * 3 > limit) {
    const bytes = utf8Length(key);
    if (bytes > limit) {
      throw new SingleTableError('KEY_TOO_LARGE', `key ${attribute} is ${bytes} bytes of UTF-8; DynamoDB allows ${limit}`, { entity: entity.name, attribute });
    }
  }
  return key;
}

/**
 * Writes the key attribute values of one secondary index slot into `out` and returns it, or
 * returns undefined and writes nothing when an input is absent (the item is left out of the
 * index). For an LSI only the sort key is written.
 */
export function indexKeyAttributes(
  model: TableModel,
  entity: EntityModel,
  index: IndexModel,
  values: Values,
  table: { pk: string; sk: string },
  out: Record<string, AttributeValue> = {},
): Record<string, AttributeValue> | undefined {
  const keys = entity.keys[index.name];
  let pkValue: string | undefined;
  if (index.type !== 'LSI') {
    const pk = composeKey(keys.pk, values, model.delimiter, model.escapeChar);
    if (!('key' in pk)) return absentOrThrow(entity, keys.pk, pk);
    pkValue = index.shards ? shardedKey(pk.key, shardOf(model, entity, index, values, table), model.delimiter) : pk.key;
    checkSize(entity, index.partitionKey, pkValue, MAX_PARTITION_KEY_BYTES);
  }
  let skValue: string | undefined;
  if (index.sortKey && keys.sk) {
    const sk = composeKey(keys.sk, values, model.delimiter, model.escapeChar);
    if (!('key' in sk)) return absentOrThrow(entity, keys.sk, sk);
    skValue = checkSize(entity, index.sortKey, sk.key, MAX_SORT_KEY_BYTES);
  }
  if (pkValue !== undefined) out[index.partitionKey] = { S: pkValue };
  if (skValue !== undefined) out[index.sortKey!] = { S: skValue };
  return out;
}

function absentOrThrow(entity: EntityModel, template: KeyTemplateModel, r: { absent: string } | { error: string; attribute: string }): undefined {
  if ('absent' in r) return undefined;
  throw new SingleTableError('INVALID_VALUE', `${r.error} (key template ${template.source})`, { entity: entity.name, attribute: r.attribute });
}

/** The shard an item's entry goes to on a sharded GSI. */
function shardOf(model: TableModel, entity: EntityModel, index: IndexModel, values: Values, table: { pk: string; sk: string }): number {
  const shards = index.shards!;
  if (shards.strategy !== 'ATTRIBUTE') return shardForItem(table.pk, table.sk, shards.writeCount);
  const name = shards.attribute!;
  const encoded = encodeSegment(entity.attributes[name].type, values[name], model.escapeChar);
  if (!('segment' in encoded)) {
    throw new SingleTableError('MISSING_ATTRIBUTE', `is the shard attribute of ${index.name} and must be given`, { entity: entity.name, attribute: name });
  }
  return shardForValue(encoded.segment, shards.writeCount);
}

/** The attributes an index slot's keys are computed from (the shard attribute included). */
export function indexInputs(entity: EntityModel, index: IndexModel): string[] {
  const keys = entity.keys[index.name];
  const names = index.type === 'LSI' ? [...(keys.sk?.attributes ?? [])] : [...keys.pk.attributes, ...(keys.sk?.attributes ?? [])];
  if (index.shards?.strategy === 'ATTRIBUTE' && index.shards.attribute) names.push(index.shards.attribute);
  return [...new Set(names)];
}
