// PutItem: the whole item, its type and every key it has, validated before anything is sent.
// The Lambda runtime provides the SDK (an optional dependency of the package).
// eslint-disable-next-line import/no-extraneous-dependencies
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { EntityName, ItemOf } from '../../manifest/infer';
import type { TableContext } from '../context';
import { collectionsOf, withItemCollectionRequest } from '../item-collections';
import { buildPut, PutMode } from '../items';
import { sendWrite } from '../send';
import { refuseUnique } from '../unique-refusal';

/** Options of `putItem`. */
export interface PutOptions {
  /** `upsert` overwrites, `create` fails if the item exists, `replace` fails if it does not. @default 'upsert' */
  readonly mode?: PutMode;
}

/** Writes a whole item. */
export async function putItem<M, E extends EntityName<M>>(
  table: TableContext<M>, entity: E, item: ItemOf<M, E>, options: PutOptions = {},
): Promise<void> {
  refuseUnique(table.model, entity, 'putItem');
  const collections = collectionsOf(table);
  const input = withItemCollectionRequest(collections, buildPut(table.model, table.tableName, entity, item, options.mode));
  await sendWrite(table, entity, input.ConditionExpression, () => table.dynamodb.send(new PutItemCommand(input)), collections);
}
