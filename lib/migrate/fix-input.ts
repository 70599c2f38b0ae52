// The UpdateItem that applies one item's fix: SET / REMOVE of managed attributes only, on the
// condition that the item still exists and every attribute the fix was computed from still holds
// the value it was read with (or is still absent). Pure: the worker sends it.
import type { AttributeValue, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import { ItemFix } from './plan';
import { TABLE_INDEX, TableModel } from '../model/model';

type StaleFix = Extract<ItemFix, { kind: 'STALE' }>;

/** UpdateItem input for a stale item; `key` is the item's table key as stored. */
export function buildFixUpdate(model: TableModel, tableName: string, key: Record<string, AttributeValue>, fix: StaleFix): UpdateItemCommandInput {
  const names: Record<string, string> = {};
  const values: Record<string, AttributeValue> = {};
  const name = (attr: string) => {
    const ref = `#n${Object.keys(names).length}`;
    names[ref] = attr;
    return ref;
  };
  const value = (av: AttributeValue) => {
    const ref = `:v${Object.keys(values).length}`;
    values[ref] = av;
    return ref;
  };
  const sets = Object.entries(fix.set).map(([attr, av]) => `${name(attr)} = ${value(av)}`);
  const removes = fix.remove.map(name);
  const conditions = [`attribute_exists(${name(model.indexes[TABLE_INDEX].partitionKey)})`];
  for (const [attr, av] of Object.entries(fix.condition.attributes)) {
    conditions.push(av === undefined ? `attribute_not_exists(${name(attr)})` : `${name(attr)} = ${value(av)}`);
  }
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean).join(' ');
  const input: UpdateItemCommandInput = {
    TableName: tableName,
    Key: key,
    UpdateExpression: expression,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ReturnConsumedCapacity: 'INDEXES',
  };
  if (Object.keys(values).length > 0) input.ExpressionAttributeValues = values;
  return input;
}

/** The table key attributes of a stored item. */
export function storedKey(model: TableModel, item: Record<string, AttributeValue>): Record<string, AttributeValue> {
  const table = model.indexes[TABLE_INDEX];
  return { [table.partitionKey]: item[table.partitionKey], [table.sortKey!]: item[table.sortKey!] };
}
