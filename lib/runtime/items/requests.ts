// Pure builders for single-item commands: manifest model + input -> SDK command input.
// Nothing here talks to DynamoDB; client.ts sends what these return.
import type { AttributeValue, DeleteItemCommandInput, GetItemCommandInput, PutItemCommandInput } from '@aws-sdk/client-dynamodb';
import { EntityModel, TABLE_INDEX, TableModel } from '../../model/model';
import { checkAttributeKeyValues, keyAttributes, tableKey, writeItemKeys } from '../attributes/item-keys';
import { attributeOf, attributeValue, entityOf, itemAttributes } from '../attributes/values';
import { madeByWhere } from '../expressions/made-by-where';
import type { Where } from '../expressions/where';
import type { VersionTimestampHooks } from '../table/context';
import { SingleTableError } from '../table/errors';

type Values = Readonly<Record<string, unknown>>;

/** How a put treats an existing item: overwrite it, require its absence, or require its presence. */
export type PutMode = 'upsert' | 'create' | 'replace';

/** Every attribute DynamoDB stores for an item: values, type, table and index keys. */
export function itemToWrite(model: TableModel, entity: EntityModel, item: Readonly<Record<string, unknown>>): Record<string, AttributeValue> {
  const stored = itemAttributes(entity, item);
  checkAttributeKeyValues(model, entity, stored);
  writeItemKeys(model, entity, item, stored);
  stored[model.typeAttribute] = { S: entity.typeValue };
  return stored;
}

/**
 * PutItem input. On a versioned entity (its `maintained` hooks given) a put without the version
 * creates the item (version 1), and one with the version the caller read replaces the item at that
 * version (and writes the next); `condition` adds the caller's own condition.
 */
export function buildPut(
  model: TableModel, tableName: string, entityName: string, item: Readonly<Record<string, unknown>>, mode: PutMode = 'upsert', condition?: Where<unknown>,
  maintained?: VersionTimestampHooks,
): PutItemCommandInput {
  const entity = entityOf(model, entityName);
  const kept = maintained?.put(model, entity, item);
  const input: PutItemCommandInput = { TableName: tableName, Item: itemToWrite(model, entity, kept?.item ?? item) };
  // Checked after the item, as the access modules' put checks it: putCondition refuses a mode that is none of the three.
  const existence = mode !== 'upsert' && putCondition(model.indexes[TABLE_INDEX].partitionKey, entityName, mode);
  // A versioned entity's condition (it asks for the stored item on failure, which tells a version conflict apart).
  Object.assign(input, kept?.condition?.(mode) ?? existence);
  if (condition !== undefined) madeByWhere(condition, 'condition', { entity: entityName }).addTo(input, entity);
  return input;
}

/** The existence condition of a `create` or `replace` put. */
export function putCondition(partitionKey: string, entity: string, mode: PutMode) {
  // An untyped caller's typo must not quietly become a create-only put.
  if (mode !== 'create' && mode !== 'replace') {
    throw new SingleTableError('INVALID_VALUE', `put mode ${JSON.stringify(mode)} is not 'upsert', 'create' or 'replace'`, { entity });
  }
  return keyExistence(partitionKey, mode === 'replace');
}

/** A condition on the table partition key: the item exists, or it does not. */
export function existenceCondition(model: TableModel, exists: boolean) {
  return keyExistence(model.indexes[TABLE_INDEX].partitionKey, exists);
}

function keyExistence(partitionKey: string, exists: boolean) {
  return {
    ConditionExpression: exists ? 'attribute_exists(#pk)' : 'attribute_not_exists(#pk)',
    ExpressionAttributeNames: { '#pk': partitionKey },
  };
}

/**
 * The table key of an entity from exactly its key attributes: every attribute the table key
 * templates read, of its kind, and nothing else.
 */
export function keyFromInput(model: TableModel, entity: EntityModel, key: Readonly<Record<string, unknown>>): Record<string, AttributeValue> {
  if (typeof key !== 'object' || key === null) throw new SingleTableError('INVALID_VALUE', 'the key must be an object', { entity: entity.name });
  const keys = entity.keys[TABLE_INDEX];
  const names = new Set([...keys.pk.attributes, ...keys.sk!.attributes]);
  for (const name in key) {
    if (!names.has(name)) {
      throw new SingleTableError('UNKNOWN_ATTRIBUTE', `is not part of the table key (${keys.pk.source} / ${keys.sk!.source}); pass only ${[...names].join(', ')}`, { entity: entity.name, attribute: name });
    }
    attributeValue(entity, attributeOf(entity, name), key[name]);
  }
  return keyAttributes(model, tableKey(model, entity, key));
}

/** GetItem input. */
export function buildGet(model: TableModel, tableName: string, entityName: string, key: Values, consistent = false): GetItemCommandInput {
  const entity = entityOf(model, entityName);
  return { TableName: tableName, Key: keyFromInput(model, entity, key), ConsistentRead: consistent };
}

/**
 * DeleteItem input; with `mustExist` the delete fails when there is no such item, with `version`
 * (a versioned entity, its `maintained` hooks given) when the item is at another version.
 */
export function buildDelete(
  model: TableModel, tableName: string, entityName: string, key: Values, mustExist = false, condition?: Where<unknown>, version?: number,
  maintained?: VersionTimestampHooks,
): DeleteItemCommandInput {
  const entity = entityOf(model, entityName);
  const input: DeleteItemCommandInput = { TableName: tableName, Key: keyFromInput(model, entity, key), ReturnValues: 'ALL_OLD' };
  if (version !== undefined) {
    // Without the hooks the model has no versioned entity (openTable checks).
    if (!maintained) throw new SingleTableError('INVALID_VALUE', `is not versioned: remove the version option (${version})`, { entity: entityName });
    Object.assign(input, maintained.deleteAt(model, entity, version));
  } else if (mustExist) {
    Object.assign(input, existenceCondition(model, true));
  }
  if (version !== undefined || condition) input.ReturnValuesOnConditionCheckFailure = 'ALL_OLD';
  if (condition !== undefined) madeByWhere(condition, 'condition', { entity: entityName }).addTo(input, entity);
  return input;
}
