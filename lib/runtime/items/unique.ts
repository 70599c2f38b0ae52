// Unique attributes inside a transaction: which guard items an action writes or deletes, and the
// condition that the item still holds the unique values its guards were computed from. A write
// that can change a unique value reads the item's current values first (`readUnique`); the
// transaction then holds the item's write on the condition that they are unchanged, the delete of
// each guard the item gives up (on the condition that it names this item: a guard of another item
// holding the same value stays) and a create-only put of each guard it claims.
import type { AttributeValue, GetItemCommandInput, Put } from '@aws-sdk/client-dynamodb';
import { MAX_PARTITION_KEY_BYTES } from '../../keys/encoding';
import { GUARD_OWNER_ATTRIBUTE, guardKey, guardMark, scopePrefix } from '../../keys/unique-guard';
import { EntityModel, TABLE_INDEX, TableModel } from '../../model/model';
import { checkSize, keyAttributes, tableKey } from '../attributes/item-keys';
import { fromAttributeValue } from '../attributes/marshall';
import { attributeOf } from '../attributes/values';
import type { ExpressionRefs } from '../expressions/refs';
import { SingleTableError } from '../table/errors';

type Item = Record<string, AttributeValue>;
type Values = Readonly<Record<string, unknown>>;


/** A guard a transaction writes or deletes, for error reports. */
export interface GuardRef {
  readonly attribute: string;
  readonly value: unknown;
}

/**
 * The table key attributes of the guard of `value` in `attribute`, or undefined when there is no
 * value. `keyValues` hold the item's table key attributes, the attribute's scope among them (a
 * scoped attribute). The runtime, the stream release and the backfill all key guards here.
 */
export function guardKeyAttributes(model: TableModel, entity: EntityModel, attribute: string, value: unknown, keyValues: Values): Item | undefined {
  const kind = attributeOf(entity, attribute).type;
  const key = guardKey(model.delimiter, model.escapeChar, entity.typeValue, attribute, kind, value, scopeOf(model, entity, attribute, keyValues));
  if (key === undefined) return undefined;
  if ('error' in key) throw new SingleTableError('INVALID_VALUE', `${key.error} (a unique attribute)`, { entity: entity.name, attribute });
  checkSize(entity, attribute, key.pk, MAX_PARTITION_KEY_BYTES);
  return keyAttributes(model, key);
}

/** A scoped attribute's guard prefix (`TENANT#acme`); undefined for an attribute unique across the table. */
function scopeOf(model: TableModel, entity: EntityModel, attribute: string, keyValues: Values): string | undefined {
  const scope = entity.uniqueScope?.[attribute];
  if (scope === undefined) return undefined;
  const prefix = scopePrefix(entity.keys[TABLE_INDEX].pk, scope, keyValues[scope], model.delimiter, model.escapeChar);
  if (typeof prefix === 'string') return prefix;
  const why = prefix === undefined ? 'is missing' : prefix.error;
  throw new SingleTableError(prefix === undefined ? 'MISSING_ATTRIBUTE' : 'INVALID_VALUE', `${why} (the scope of the unique values of ${attribute})`, { entity: entity.name, attribute: scope });
}

/** The consistent read of the unique values (and the existence) of the item with this table key. */
export function buildReadUnique(model: TableModel, tableName: string, entity: EntityModel, keyValues: Values): GetItemCommandInput {
  const names: Record<string, string> = { '#k': model.indexes[TABLE_INDEX].partitionKey };
  entity.unique!.forEach((name, i) => { names[`#u${i}`] = name; });
  return {
    TableName: tableName,
    Key: keyAttributes(model, tableKey(model, entity, keyValues)),
    ConsistentRead: true,
    ProjectionExpression: Object.keys(names).join(', '),
    ExpressionAttributeNames: names,
  };
}

/** A guard one action gives up (`claims` false: the value it drops) or takes (the value it gets). */
export interface GuardWrite {
  /** The guard's table key attributes. */
  readonly guardKey: Item;
  /** The table key of the action's item: the owner a released guard must name, or the one a claimed guard gets. */
  readonly owner: Item;
  readonly claims: boolean;
  readonly guard: GuardRef;
}

/**
 * The guards of one item's change of unique values: `before` is the item as read (undefined:
 * none), `after` its values after the write (undefined: deleted), `touched` the unique
 * attributes the write can change, `keyValues` the item's table key attributes (its scopes).
 * Unchanged values keep their guards.
 */
export function guardWrites(
  model: TableModel, entity: EntityModel, owner: Item, keyValues: Values,
  before: Item | undefined, after: Values | undefined, touched: readonly string[],
): GuardWrite[] {
  const out: GuardWrite[] = [];
  const pk = model.indexes[TABLE_INDEX].partitionKey;
  for (const attribute of touched) {
    const oldValue = before?.[attribute] === undefined ? undefined : fromAttributeValue(before[attribute]);
    const newValue = after?.[attribute];
    const oldKey = oldValue === undefined ? undefined : guardKeyAttributes(model, entity, attribute, oldValue, keyValues);
    const newKey = after === undefined ? undefined : guardKeyAttributes(model, entity, attribute, newValue, keyValues);
    if (oldKey?.[pk].S === newKey?.[pk].S) continue;
    if (oldKey) out.push({ guardKey: oldKey, owner, claims: false, guard: { attribute, value: oldValue } });
    if (newKey) out.push({ guardKey: newKey, owner, claims: true, guard: { attribute, value: newValue } });
  }
  return out;
}

/**
 * The condition that a guard is absent or names one of `owners` as the holder of its value: a
 * guard is deleted, or given to another item, only by an item that holds it. A guard naming
 * another item is left alone (two items stored the value before it was unique).
 */
export function heldByCondition(model: TableModel, owners: readonly Item[]): Pick<Put, 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
  const { partitionKey: pk, sortKey: sk } = model.indexes[TABLE_INDEX];
  const absent = { ConditionExpression: 'attribute_not_exists(#k)', ExpressionAttributeNames: { '#k': pk } };
  if (owners.length === 0) return absent;
  const values: Record<string, AttributeValue> = {};
  const held = owners.map((owner, i) => {
    values[`:p${i}`] = owner[pk];
    values[`:s${i}`] = owner[sk!];
    return `(#o.#k = :p${i} AND #o.#s = :s${i})`;
  });
  return {
    ConditionExpression: [absent.ConditionExpression, ...held].join(' OR '),
    ExpressionAttributeNames: { ...absent.ExpressionAttributeNames, '#s': sk!, '#o': GUARD_OWNER_ATTRIBUTE },
    ExpressionAttributeValues: values,
  };
}

/** The guard item with table key `key` of a value the item whose table key is `owner` holds. */
export function guardItem(model: TableModel, key: Item, owner: Item): Item {
  return { ...key, [model.typeAttribute]: { S: guardMark(model.escapeChar) }, [GUARD_OWNER_ATTRIBUTE]: { M: owner } };
}

/**
 * The condition that the item is as read: present with these unique values, or absent. Added to
 * `refs`; returns the expression.
 */
export function unchangedCondition(model: TableModel, stored: Item | undefined, attributes: readonly string[], refs: ExpressionRefs): string {
  const pk = refs.name(model.indexes[TABLE_INDEX].partitionKey);
  if (!stored) return `attribute_not_exists(${pk})`;
  const parts = [`attribute_exists(${pk})`];
  for (const name of attributes) {
    parts.push(stored[name] === undefined ? `attribute_not_exists(${refs.name(name)})` : `${refs.name(name)} = ${refs.value(stored[name])}`);
  }
  return parts.join(' AND ');
}
