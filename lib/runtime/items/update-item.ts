// UpdateItem: set and remove attributes of an existing item, its index keys recomputed; with
// `readMissing`, the other inputs of an index whose keys move are read first (update.ts).
import type { AttributeValue, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import { collectionsOf, withItemCollectionRequest } from './item-collections';
import { buildUpdate, UpdateExtras, updateReadingMissing } from './update';
import type { UpdateOperators } from './update-options';
import { writeFailure } from './write-failure';
import type { EntityName, ItemOf, ResultItemOf } from '../../model/infer';
import { toItem } from '../query/results';
import { maintainedFor, Table } from '../table/context';
import { GetItemCommand, UpdateItemCommand } from '../table/sdk';
import { send, sendWrite } from '../table/send';
import type { KeyOf, UpdateItemOptions } from '../types';

/**
 * Sets the given attributes of an existing item, removes `remove`, applies the operators (`add`,
 * `append`, `prepend`, `deleteFromSet`, `setIfMissing`); returns the item as it is now.
 */
export async function updateItem<M, E extends EntityName<M>>(
  table: Table<M>,
  entity: E,
  changes: KeyOf<M, E> & Partial<ItemOf<M, E>>,
  options: UpdateItemOptions<M, E> = {},
): Promise<ResultItemOf<M, E>> {
  const { model, tableName } = table;
  const remove = options.remove as readonly string[] | undefined;
  const operators = options as UpdateOperators;
  const maintained = maintainedFor(table, entity);
  const extras: UpdateExtras = { operators, condition: options.condition, maintained };
  // Only a change of a unique value moves a guard, in a transaction; other updates go alone.
  const unique = maintained?.unique(table, 'update', entity, changes, options as never);
  if (unique) return unique as Promise<ResultItemOf<M, E>>;
  const collections = collectionsOf(table);
  const write = (update: UpdateItemCommandInput) => {
    const input = withItemCollectionRequest(collections, update);
    const failed = (e: { Item?: Record<string, AttributeValue> }) => writeFailure(table, entity, input, changes, e, options.condition);
    return sendWrite(table, () => table.dynamodb.send(new UpdateItemCommand(input)), failed, collections);
  };
  const out = options.readMissing
    ? await updateReadingMissing(model, tableName, entity, changes, remove, {
      get: async (input) => (await send(table, () => table.dynamodb.send(new GetItemCommand(input)))).Item,
      update: write,
    }, extras)
    : await write(buildUpdate(model, tableName, entity, changes, remove, undefined, extras));
  return toItem(out.Attributes, table.strip) as ResultItemOf<M, E>;
}
