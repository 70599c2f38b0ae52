// DeleteItem by an entity's table key.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { collectionsOf, withItemCollectionRequest } from './item-collections';
import { buildDelete } from './requests';
import { writeFailure } from './write-failure';
import type { EntityName, ItemOf, ResultItemOf } from '../../model/infer';
import type { Where } from '../expressions/where';
import { toItem } from '../query/results';
import { maintainedFor, Table } from '../table/context';
import { DeleteItemCommand } from '../table/sdk';
import { sendWrite } from '../table/send';
import type { KeyOf } from '../types';

/** Options of `deleteItem`. */
export interface DeleteItemOptions<Item = Record<string, unknown>> {
  /** Fail with CONDITION_FAILED when there is no such item. @default false */
  readonly mustExist?: boolean;
  /** A condition the stored item must meet, made with `where`. @default - none */
  readonly condition?: Where<Item>;
  /** A versioned entity: the version the caller read; the delete fails with VERSION_CONFLICT at another. @default - any version */
  readonly version?: number;
}

/** Deletes an item; returns what it held, undefined when there was none. */
export async function deleteItem<M, E extends EntityName<M>>(
  table: Table<M>, entity: E, key: KeyOf<M, E>, options: DeleteItemOptions<ItemOf<M, E>> = {},
): Promise<ResultItemOf<M, E> | undefined> {
  const maintained = maintainedFor(table, entity);
  // An entity with unique values frees them with their guard items, in a transaction.
  const unique = maintained?.unique(table, 'delete', entity, key, options);
  if (unique) return unique as Promise<ResultItemOf<M, E> | undefined>;
  const collections = collectionsOf(table);
  const built = buildDelete(table.model, table.tableName, entity, key, options.mustExist, options.condition, options.version, maintained);
  const input = withItemCollectionRequest(collections, built);
  const failed = (e: { Item?: Record<string, AttributeValue> }) => writeFailure(table, entity, input, key, e, options.condition);
  const out = await sendWrite(table, () => table.dynamodb.send(new DeleteItemCommand(input)), failed, collections);
  return toItem(out.Attributes, table.strip) as ResultItemOf<M, E> | undefined;
}
