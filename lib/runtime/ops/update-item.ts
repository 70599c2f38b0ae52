// UpdateItem: set and remove attributes of an existing item, its index keys recomputed; with
// `readMissing`, the other inputs of an index whose keys move are read first (update.ts).
// The Lambda runtime provides the SDK (an optional dependency of the package).
// eslint-disable-next-line import/no-extraneous-dependencies
import { GetItemCommand, UpdateItemCommand, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import type { EntityName, ItemOf, ResultItemOf } from '../../manifest/infer';
import type { TableContext } from '../context';
import { collectionsOf, withItemCollectionRequest } from '../item-collections';
import { toItem } from '../results';
import { send, sendWrite } from '../send';
import type { KeyOf, OptionalAttributeOf } from '../types';
import { refuseUnique } from '../unique-refusal';
import { buildUpdate, UpdateOptions, updateReadingMissing } from '../update';

/** Sets the given attributes of an existing item, removes `remove`; returns the item as it is now. */
export async function updateItem<M, E extends EntityName<M>>(
  table: TableContext<M>,
  entity: E,
  changes: KeyOf<M, E> & Partial<ItemOf<M, E>>,
  options: { readonly remove?: readonly OptionalAttributeOf<M, E>[] } & Pick<UpdateOptions, 'readMissing'> = {},
): Promise<ResultItemOf<M, E>> {
  const { model, tableName } = table;
  const remove = options.remove as readonly string[] | undefined;
  // Only a change of a unique value moves a guard; other updates go alone.
  refuseUnique(model, entity, 'updateItem', (u) => (changes as Record<string, unknown>)[u] !== undefined || remove?.includes(u));
  const collections = collectionsOf(table);
  const write = (update: UpdateItemCommandInput) => {
    const input = withItemCollectionRequest(collections, update);
    return sendWrite(table, entity, input.ConditionExpression, () => table.dynamodb.send(new UpdateItemCommand(input)), collections);
  };
  const out = options.readMissing
    ? await updateReadingMissing(model, tableName, entity, changes, remove, {
      get: async (input) => (await send(table, () => table.dynamodb.send(new GetItemCommand(input)))).Item,
      update: write,
    })
    : await write(buildUpdate(model, tableName, entity, changes, remove));
  return toItem(out.Attributes, table.strip) as ResultItemOf<M, E>;
}
