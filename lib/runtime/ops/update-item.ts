// UpdateItem: set and remove attributes of an existing item, its index keys recomputed.
// The Lambda runtime provides the SDK (an optional dependency of the package).
// eslint-disable-next-line import/no-extraneous-dependencies
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { EntityName, ItemOf } from '../../manifest/infer';
import type { TableContext } from '../context';
import { withItemCollectionRequest } from '../item-collections';
import { toItem } from '../results';
import { sendWrite } from '../send';
import type { KeyOf, OptionalAttributeOf } from '../types';
import { buildUpdate } from '../update';

/** Options of `updateItem`. */
export interface UpdateOptions<A extends string = string> {
  /** Optional attributes to remove. @default - none */
  readonly remove?: readonly A[];
}

/** Sets the given attributes of an existing item, removes `remove`; returns the item as it is now. */
export async function updateItem<M, E extends EntityName<M>>(
  table: TableContext<M>,
  entity: E,
  changes: KeyOf<M, E> & Partial<ItemOf<M, E>>,
  options: UpdateOptions<OptionalAttributeOf<M, E> & string> = {},
): Promise<ItemOf<M, E>> {
  const input = withItemCollectionRequest(table.model, buildUpdate(table.model, table.tableName, entity, changes, options.remove));
  const out = await sendWrite(table, entity, input.ConditionExpression, () => table.dynamodb.send(new UpdateItemCommand(input)));
  return toItem(out.Attributes, table.strip) as ItemOf<M, E>;
}
