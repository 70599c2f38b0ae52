// GetItem for a generated access module: the key checked and composed from the entity's table
// slot, with the same errors and the same request as `getItem`.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { EntityAccess, tableKeyNames, tableKeyValue } from './table';
import { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES } from '../../keys/encoding';
import { partsSource } from '../../keys/template';
import { fromItem } from '../attributes/marshall';
import { checkedValue } from '../attributes/values';
import type { GetItemOptions } from '../items/get-item';
import type { AccessModel, Table } from '../table/context';
import { SingleTableError } from '../table/errors';
import { GetItemCommand } from '../table/sdk';
import { send } from '../table/send';

/**
 * The table key of an entity from exactly its key attributes: every attribute the table key
 * templates read, of its kind, and nothing else.
 */
export function entityKey(model: AccessModel, entity: EntityAccess, key: Readonly<Record<string, unknown>>): Record<string, AttributeValue> {
  if (typeof key !== 'object' || key === null) throw new SingleTableError('INVALID_VALUE', 'the key must be an object', { entity: entity.name });
  const { pk, sk } = entity.slots[0];
  const names = tableKeyNames(entity);
  for (const name in key) {
    if (!names.includes(name)) {
      throw new SingleTableError('UNKNOWN_ATTRIBUTE', `is not part of the table key (${partsSource(pk![1])} / ${partsSource(sk![1])}); pass only ${names.join(', ')}`,
        { entity: entity.name, attribute: name });
    }
    checkedValue(entity.name, name, entity.attributes.find((a) => a[0] === name)![1], key[name]);
  }
  return {
    [pk![0]]: { S: tableKeyValue(model, entity, pk!, key, MAX_PARTITION_KEY_BYTES) },
    [sk![0]]: { S: tableKeyValue(model, entity, sk!, key, MAX_SORT_KEY_BYTES) },
  };
}

/** Reads an item of an entity by its table key; undefined when there is none. */
export async function getEntity(
  table: Table<unknown>, entity: EntityAccess, key: Readonly<Record<string, unknown>>, options: GetItemOptions = {},
): Promise<Record<string, unknown> | undefined> {
  const input = { TableName: table.tableName, Key: entityKey(table.access, entity, key), ConsistentRead: options.consistent ?? false };
  const out = await send(table, () => table.dynamodb.send(new GetItemCommand(input)));
  return out.Item && fromItem(out.Item, table.strip);
}
