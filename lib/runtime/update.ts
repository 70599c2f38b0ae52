// UpdateItem builder. The rule that keeps indexes honest: an index slot's keys are recomputed
// whenever one of its inputs changes, and that needs every input of the slot. Removing an input
// (or setting it to '' or false) takes the item out of the index, which needs nothing else
// (seed 002: a task that stops running leaves the running-tasks index). Changing only some of a
// slot's inputs would leave stale keys, so it fails naming the missing ones; pass them too, or
// write the whole item with `put(..., { mode: 'replace' })`.
import type { AttributeValue, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import { SingleTableError } from './errors';
import { existenceCondition } from './items';
import { indexInputs, indexKeyAttributes, keyAttributes, tableKey, tableKeyNames } from './keys';
import { attributeOf, attributeValue, entityOf } from './values';
import { TABLE_INDEX, TableModel } from '../manifest/model';

/** UpdateItem input: `input` holds the table key attributes and the attributes to set. */
export function buildUpdate(
  model: TableModel,
  tableName: string,
  entityName: string,
  input: Readonly<Record<string, unknown>>,
  remove: readonly string[] = [],
): UpdateItemCommandInput {
  const entity = entityOf(model, entityName);
  const keyNames = new Set(tableKeyNames(entity));
  const names: Record<string, string> = {};
  const values: Record<string, AttributeValue> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  const changed = new Set<string>();
  const nameRef = (name: string) => {
    const ref = `#a${Object.keys(names).length}`;
    names[ref] = name;
    return ref;
  };
  const setAttr = (name: string, av: AttributeValue) => {
    const ref = `:v${sets.length}`;
    values[ref] = av;
    sets.push(`${nameRef(name)} = ${ref}`);
  };

  for (const name in input) {
    const value = input[name];
    if (value === undefined) continue;
    const av = attributeValue(entity, attributeOf(entity, name), value);
    if (keyNames.has(name)) continue; // identifies the item; a different value is a different item
    setAttr(name, av);
    changed.add(name);
  }
  const removed = new Set<string>();
  for (const name of remove) {
    const attr = attributeOf(entity, name);
    if (keyNames.has(name) || attr.required) {
      throw new SingleTableError('INVALID_VALUE', `cannot be removed: it is ${keyNames.has(name) ? 'part of the table key' : 'required'}`, { entity: entity.name, attribute: name });
    }
    if (changed.has(name)) throw new SingleTableError('INVALID_VALUE', 'is both set and removed', { entity: entity.name, attribute: name });
    removes.push(nameRef(name));
    removed.add(name);
    changed.add(name);
  }
  for (const name of keyNames) {
    if (input[name] === undefined) throw new SingleTableError('MISSING_ATTRIBUTE', 'is part of the table key and identifies the item to update', { entity: entity.name, attribute: name });
  }
  const table = tableKey(model, entity, input);

  for (const slot in entity.keys) {
    if (slot === TABLE_INDEX) continue;
    const index = model.indexes[slot];
    const inputs = indexInputs(entity, index);
    if (!inputs.some((n) => changed.has(n))) continue;
    const leaves = inputs.some((n) => removed.has(n) || input[n] === '' || input[n] === false);
    const missing = inputs.filter((n) => input[n] === undefined && !keyNames.has(n));
    if (!leaves && missing.length > 0) {
      const given = inputs.filter((n) => changed.has(n));
      throw new SingleTableError('PARTIAL_INDEX_UPDATE',
        `changes ${given.join(', ')} but not ${missing.join(', ')}, which index ${slot} also composes its keys from; ` +
        `pass ${missing.join(', ')} too (their current values are fine), or write the whole item with put(..., { mode: 'replace' })`,
        { entity: entity.name, attribute: missing[0] });
    }
    const indexKeys = leaves ? undefined : indexKeyAttributes(model, entity, index, input, table);
    if (indexKeys) {
      for (const attr in indexKeys) setAttr(attr, indexKeys[attr]);
    } else {
      if (index.type !== 'LSI') removes.push(nameRef(index.partitionKey));
      if (index.sortKey) removes.push(nameRef(index.sortKey));
    }
  }
  if (sets.length === 0 && removes.length === 0) {
    throw new SingleTableError('INVALID_VALUE', 'the update sets and removes nothing', { entity: entity.name });
  }

  const condition = existenceCondition(model, true);
  Object.assign(names, condition.ExpressionAttributeNames);
  const expression = (sets.length ? `SET ${sets.join(', ')}` : '') + (removes.length ? ` REMOVE ${removes.join(', ')}` : '');
  const out: UpdateItemCommandInput = {
    TableName: tableName,
    Key: keyAttributes(model, table),
    UpdateExpression: expression.trim(),
    ConditionExpression: condition.ConditionExpression,
    ExpressionAttributeNames: names,
    ReturnValues: 'ALL_NEW',
  };
  if (sets.length) out.ExpressionAttributeValues = values;
  return out;
}
