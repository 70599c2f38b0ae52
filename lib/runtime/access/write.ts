// PutItem for a generated access module: the item its entity's item builder stores (./build.ts),
// with the same errors and the same request as `putItem`.
import type { AttributeValue, PutItemCommandInput } from '@aws-sdk/client-dynamodb';
import { valuesText } from '../attributes/values';
import { madeByWhere } from '../expressions/made-by-where';
import type { ItemCollectionListener, WritingTable } from '../items/item-collections';
import type { PutItemOptions } from '../items/put-item';
import { putCondition, PutMode } from '../items/requests';
import { writeFailure } from '../items/write-failure';
import type { Table } from '../table/context';
import { ConditionFailedError } from '../table/errors';
import { PutItemCommand } from '../table/sdk';
import { sendWrite } from '../table/send';

type Values = Readonly<Record<string, unknown>>;

/**
 * What a put reads of an entity: its name, its table key, and how its stored item is made. A
 * generated module holds one per entity, with the entity's item builder (straight-line code, see
 * ./build.ts), which stores what the runtime's putItem stores.
 */
export interface ItemPut {
  readonly name: string;
  /** The table's partition key attribute: `create` and `replace` are conditions on it. */
  readonly partitionKey: string;
  /** The table key's attributes, which a refused `create` or `replace` names with their values. */
  readonly keys: readonly string[];
  /** The item DynamoDB stores (values, type, table and index keys), checked; throws what putItem throws. */
  readonly item: (item: unknown) => Record<string, AttributeValue>;
}

/**
 * The PutItem request of a whole item, checked: what putWith sends (less the item collection
 * metrics a table with LSIs asks for).
 */
export function itemPutRequest(table: Pick<Table<unknown>, 'tableName'>, put: ItemPut, item: unknown, mode: PutMode = 'upsert'): PutItemCommandInput {
  const input: PutItemCommandInput = { TableName: table.tableName, Item: put.item(item) };
  if (mode !== 'upsert') Object.assign(input, putCondition(put.partitionKey, put.name, mode));
  return input;
}

/** What the item collection listener reads of a generated module's table: its slice of the model, not the whole one. */
const writing = new WeakMap<Table<unknown>, WritingTable>();

/**
 * Writes a whole item with an entity's item builder. Generated modules pass `collections`
 * (collectionsOf) on a table with LSIs, whose writes report their item collection's size. A
 * condition of the caller's (made by `where`) is checked against the entity as the whole model
 * declares it, which the table then loads.
 */
export async function putWith(
  table: Table<unknown>, put: ItemPut, item: unknown, options: PutItemOptions = {},
  collections?: (table: WritingTable) => ItemCollectionListener | undefined,
): Promise<void> {
  const { mode = 'upsert', condition } = options;
  const input = itemPutRequest(table, put, item, mode);
  if (condition !== undefined) madeByWhere(condition, 'condition', { entity: put.name }).addTo(input, table.model.entities[put.name]);
  let view = writing.get(table);
  if (collections && !view) writing.set(table, view = { tableName: table.tableName, options: table.options, model: table.access });
  const listener = view && collections!(view);
  if (listener) input.ReturnItemCollectionMetrics = 'SIZE';
  await sendWrite(table, () => table.dynamodb.send(new PutItemCommand(input)), (e) => (condition !== undefined
    ? writeFailure(table, put.name, input, item as Values, e, condition)
    // As writeFailure words it for a put without version or condition: the key, then the reason.
    : new ConditionFailedError('CONDITION_FAILED', `${valuesText(item as Values, put.keys)}: ${mode === 'create' ? 'an item with this key already exists' : 'there is no item with this key'}`,
      put.name, e)), listener);
}
