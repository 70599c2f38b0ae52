// GetItem by an entity's table key.
import { buildGet } from './requests';
import type { EntityName, ResultItemOf } from '../../model/infer';
import { toItem } from '../query/results';
import type { Table } from '../table/context';
import { GetItemCommand } from '../table/sdk';
import { send } from '../table/send';
import type { KeyOf } from '../types';

/** Options of `getItem`. */
export interface GetItemOptions {
  /** Strongly consistent read. @default false */
  readonly consistent?: boolean;
}

/** Reads an item by its table key; undefined when there is none. */
export async function getItem<M, E extends EntityName<M>>(
  table: Table<M>, entity: E, key: KeyOf<M, E>, options: GetItemOptions = {},
): Promise<ResultItemOf<M, E> | undefined> {
  const input = buildGet(table.model, table.tableName, entity, key, options.consistent);
  const out = await send(table, () => table.dynamodb.send(new GetItemCommand(input)));
  return toItem(out.Item, table.strip) as ResultItemOf<M, E> | undefined;
}
