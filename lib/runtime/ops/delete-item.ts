// DeleteItem by an entity's table key.
// The Lambda runtime provides the SDK (an optional dependency of the package).
// eslint-disable-next-line import/no-extraneous-dependencies
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import type { EntityName, ResultItemOf } from '../../manifest/infer';
import type { TableContext } from '../context';
import { collectionsOf, withItemCollectionRequest } from '../item-collections';
import { buildDelete } from '../items';
import { toItem } from '../results';
import { sendWrite } from '../send';
import type { KeyOf } from '../types';
import { refuseUnique } from '../unique-refusal';

/** Options of `deleteItem`. */
export interface DeleteOptions {
  /** Fail with CONDITION_FAILED when there is no such item. @default false */
  readonly mustExist?: boolean;
}

/** Deletes an item; returns what it held, undefined when there was none. */
export async function deleteItem<M, E extends EntityName<M>>(
  table: TableContext<M>, entity: E, key: KeyOf<M, E>, options: DeleteOptions = {},
): Promise<ResultItemOf<M, E> | undefined> {
  refuseUnique(table.model, entity, 'deleteItem');
  const collections = collectionsOf(table);
  const input = withItemCollectionRequest(collections, buildDelete(table.model, table.tableName, entity, key, options.mustExist));
  const out = await sendWrite(table, entity, input.ConditionExpression, () => table.dynamodb.send(new DeleteItemCommand(input)), collections);
  return toItem(out.Attributes, table.strip) as ResultItemOf<M, E> | undefined;
}
