// PutItem: the whole item, its type and every key it has, validated before anything is sent.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { collectionsOf, withItemCollectionRequest } from './item-collections';
import { buildPut, PutMode } from './requests';
import { writeFailure } from './write-failure';
import type { EntityName, ItemOf } from '../../model/infer';
import type { Where } from '../expressions/where';
import { maintainedFor, Table } from '../table/context';
import { PutItemCommand } from '../table/sdk';
import { sendWrite } from '../table/send';

/** Options of `putItem`. */
export interface PutItemOptions<Item = Record<string, unknown>> {
  /** `upsert` overwrites, `create` fails if the item exists, `replace` fails if it does not. @default 'upsert' */
  readonly mode?: PutMode;
  /** A condition the stored item must meet, made with `where`; ANDed with the mode's. @default - none */
  readonly condition?: Where<Item>;
}

/** Writes a whole item. */
export async function putItem<M, E extends EntityName<M>>(
  table: Table<M>, entity: E, item: ItemOf<M, E>, { mode, condition }: PutItemOptions<ItemOf<M, E>> = {},
): Promise<void> {
  const maintained = maintainedFor(table, entity);
  // An entity with unique values writes them with their guard items, in a transaction.
  const unique = maintained?.unique(table, 'put', entity, item, { mode, condition });
  if (unique) return unique as Promise<void>;
  const collections = collectionsOf(table);
  const built = buildPut(table.model, table.tableName, entity, item, mode, condition, maintained);
  const input = withItemCollectionRequest(collections, built);
  const failed = (e: { Item?: Record<string, AttributeValue> }) => writeFailure(table, entity, input, item, e, condition);
  await sendWrite(table, () => table.dynamodb.send(new PutItemCommand(input)), failed, collections);
}
