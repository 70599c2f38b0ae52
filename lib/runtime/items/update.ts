// UpdateItem builder. The rule that keeps indexes honest: an index slot's keys are recomputed
// whenever one of its inputs changes, and that needs every input of the slot. Removing an input
// (or setting it to '' or false) takes the item out of the index, which needs nothing else
// (a task that stops running leaves the running-tasks index). Changing only some of a
// slot's inputs would leave stale keys, so it fails naming every missing one (of every index it
// moves); pass them too, let the update read them (`readMissing`), or write the whole item with
// `putItem(..., { mode: 'replace' })`.
import type { AttributeValue, GetItemCommandInput, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import { existenceCondition } from './requests';
import type { UpdateOperators } from './update-options';
import type { EntityModel, TableModel } from '../../model/model';
import { checkAttributeKeyValues, indexInputs, indexKeyAttributes, indexNeeds, indexSlots, keyAttributes, tableKey, tableKeyNames } from '../attributes/item-keys';
import { fromAttributeValue, storableNumber } from '../attributes/marshall';
import { attributeOf, attributeValue, entityOf } from '../attributes/values';
import { madeByWhere } from '../expressions/made-by-where';
import type { Where } from '../expressions/where';
import type { ConditionParts, VersionTimestampHooks } from '../table/context';
import { ConditionFailedError, SingleTableError } from '../table/errors';

/** What an update adds beside its values and removals: operators, the caller's condition, and the hooks of a versioned or timestamped entity. */
export interface UpdateExtras {
  readonly operators?: UpdateOperators;
  readonly condition?: Where<unknown>;
  readonly maintained?: VersionTimestampHooks;
}

type OperatorName = keyof UpdateOperators;
const OPERATOR_KINDS: Readonly<Record<OperatorName, readonly string[] | undefined>> = {
  add: ['NUMBER', 'STRING_SET', 'NUMBER_SET'],
  append: ['LIST'],
  prepend: ['LIST'],
  deleteFromSet: ['STRING_SET', 'NUMBER_SET'],
  setIfMissing: undefined,
};

/** Reads and conditional updates an update with `readMissing` makes before giving up on a conflict. */
export const READ_MISSING_ATTEMPTS = 3;

type Input = Readonly<Record<string, unknown>>;
type Item = Record<string, AttributeValue>;

/** What an update changes, checked: the sets, the removals, the operators, and the table key. */
interface Changes {
  readonly entity: EntityModel;
  /** The input with the maintained attributes' new values (version, updatedAt). */
  readonly values: Input;
  /** The condition on the version the update read (a versioned entity). */
  readonly versioned?: ConditionParts;
  readonly operations: [OperatorName, string, AttributeValue][];
  readonly keyNames: ReadonlySet<string>;
  readonly set: [string, AttributeValue][];
  readonly removed: ReadonlySet<string>;
  readonly changed: ReadonlySet<string>;
  /** Per index slot the update moves but lacks inputs of: the inputs missing. */
  readonly missing: ReadonlyMap<string, string[]>;
}

function changesOf(model: TableModel, entityName: string, given: Input, remove: readonly string[], extras: UpdateExtras): Changes {
  const entity = entityOf(model, entityName);
  const keyNames = new Set(tableKeyNames(entity));
  const maintained = extras.maintained?.update(model, entity, given);
  const { input, condition: versioned, owned } = maintained ?? { input: given, owned: [] };
  const set: [string, AttributeValue][] = [];
  const changed = new Set<string>();
  for (const name in input) {
    const value = input[name];
    if (value === undefined) continue;
    const av = attributeValue(entity, attributeOf(entity, name), value);
    if (keyNames.has(name)) continue; // identifies the item; a different value is a different item
    set.push([name, av]);
    changed.add(name);
  }
  const removed = new Set<string>();
  for (const name of remove) {
    const attr = attributeOf(entity, name);
    if (keyNames.has(name) || attr.required) {
      throw new SingleTableError('INVALID_VALUE', `cannot be removed: it is ${keyNames.has(name) ? 'part of the table key' : 'required'}`, { entity: entity.name, attribute: name });
    }
    if (changed.has(name)) throw new SingleTableError('INVALID_VALUE', 'is both set and removed', { entity: entity.name, attribute: name });
    removed.add(name);
    changed.add(name);
  }
  const operations = operationsOf(model, entity, extras.operators ?? {}, keyNames, changed, owned);
  for (const name of keyNames) {
    if (input[name] === undefined) throw new SingleTableError('MISSING_ATTRIBUTE', 'is part of the table key and identifies the item to update', { entity: entity.name, attribute: name });
  }
  const missing = new Map<string, string[]>();
  for (const slot of indexSlots(model, entity)) {
    const index = model.indexes[slot];
    const inputs = indexInputs(entity, index);
    if (!inputs.some((n) => changed.has(n))) continue;
    // Removing an input (or setting it to '' or false) takes the item out of the index: nothing else is needed.
    if (inputs.some((n) => removed.has(n) || input[n] === '' || input[n] === false)) continue;
    const lacking = indexNeeds(entity, index).filter((n) => input[n] === undefined && !keyNames.has(n));
    if (lacking.length > 0) missing.set(slot, lacking);
  }
  return { entity, values: input, versioned, operations, keyNames, set, removed, changed, missing };
}

/** The operators' attributes and values, checked: declared, of a kind the operator fits, no key input, each attribute changed once. */
function operationsOf(
  model: TableModel, entity: EntityModel, operators: UpdateOperators, keyNames: ReadonlySet<string>, changed: Set<string>, owned: readonly string[],
) {
  const out: [OperatorName, string, AttributeValue][] = [];
  for (const op of Object.keys(OPERATOR_KINDS) as OperatorName[]) {
    const values = operators[op];
    for (const name in values) {
      if (values[name] === undefined) continue;
      const attr = attributeOf(entity, name);
      const where = { entity: entity.name, attribute: name };
      const kinds = OPERATOR_KINDS[op];
      if (kinds && !kinds.includes(attr.type)) throw new SingleTableError('INVALID_VALUE', `${op} applies to ${kinds.join(', ')} attributes; ${name} is ${attr.type}`, where);
      if (keyNames.has(name)) throw new SingleTableError('INVALID_VALUE', `is part of the table key, which identifies the item: ${op} cannot change it`, where);
      if (owned.includes(name)) throw new SingleTableError('INVALID_VALUE', `is maintained by the runtime: ${op} cannot change it`, where);
      for (const slot of indexSlots(model, entity)) {
        if (indexNeeds(entity, model.indexes[slot]).includes(name)) {
          throw new SingleTableError('PARTIAL_INDEX_UPDATE',
            `is part of index ${slot}'s key, and ${op} leaves its new value to DynamoDB, so the index key cannot be computed; ` +
            `set ${name} to its new value instead (read the item first, or let the update read the other inputs with { readMissing: true })`, where);
        }
      }
      if (changed.has(name)) throw new SingleTableError('INVALID_VALUE', `is changed twice in one update (${op} and another change)`, where);
      changed.add(name);
      const value = values[name];
      const av = op === 'add' && attr.type === 'NUMBER' && storableNumber(value) ? { N: String(value) } : attributeValue(entity, attr, value);
      out.push([op, name, av]);
    }
  }
  return out;
}

/** The attributes an update lacks to recompute the index keys it moves, every index at once; empty when it lacks none. */
export function missingIndexInputs(
  model: TableModel, entityName: string, input: Input, remove: readonly string[] = [], extras: UpdateExtras = {},
): string[] {
  return unionOf(changesOf(model, entityName, input, remove, extras).missing);
}

function unionOf(missing: ReadonlyMap<string, string[]>): string[] {
  return [...new Set([...missing.values()].flat())];
}

/**
 * Every attribute an update must pass for none to be lacking: the ones it lacks, and those the
 * indexes they are inputs of need in turn (passed, an attribute counts as changed and moves its
 * indexes' keys too). Without it, each retry would be refused for one more attribute.
 */
function toPass(model: TableModel, changes: Changes): string[] {
  const { entity, values, removed, keyNames } = changes;
  const all = new Set(unionOf(changes.missing));
  for (let grew = true; grew;) {
    grew = false;
    for (const slot of indexSlots(model, entity)) {
      const inputs = indexInputs(entity, model.indexes[slot]);
      if (!inputs.some((n) => all.has(n)) || inputs.some((n) => removed.has(n) || values[n] === '' || values[n] === false)) continue;
      for (const n of indexNeeds(entity, model.indexes[slot])) {
        if (values[n] === undefined && !keyNames.has(n) && !all.has(n)) {
          all.add(n);
          grew = true;
        }
      }
    }
  }
  return [...all];
}

/** The error of an update that lacks index inputs: every attribute to pass at once, and the update that would work. */
function partialIndexUpdate(model: TableModel, changes: Changes, prefix: string, alternatives: string): SingleTableError {
  const { entity, changed, missing, keyNames } = changes;
  const given = [...changed].filter((n) => [...missing.keys()].some((slot) => indexInputs(entity, model.indexes[slot]).includes(n)));
  const per = [...missing].map(([slot, names]) => `${slot}${model.indexes[slot].partitionAttributes ? "'s shard" : ''}: ${names.join(', ')}`).join('; ');
  const pass = toPass(model, changes);
  const fields = [...new Set([...keyNames, ...Object.keys(changes.values).filter((n) => changes.values[n] !== undefined), ...pass])];
  return new SingleTableError('PARTIAL_INDEX_UPDATE',
    `${prefix}changes ${given.join(', ')} but not ${unionOf(missing).join(', ')}, which the index keys it moves are also composed from (${per}); ` +
    `pass ${pass.join(', ')} too, with their current values: { ${fields.join(', ')} }${alternatives}`,
    { entity: entity.name, attribute: pass[0] });
}

/** The error of a transaction's update action that lacks index inputs (a transaction cannot read them first). */
export function partialIndexUpdateInTransaction(
  model: TableModel, entityName: string, input: Input, remove: readonly string[], extras: UpdateExtras, action: number,
): SingleTableError {
  return partialIndexUpdate(model, changesOf(model, entityName, input, remove, extras), `action ${action} `, ' (a transaction cannot read them first)');
}

/**
 * UpdateItem input: `input` holds the table key attributes and the attributes to set. `stored`
 * is the stored item as read for `readMissing` (or undefined): index inputs the update lacks are
 * taken from it, on the condition that they still hold those values.
 */
export function buildUpdate(
  model: TableModel,
  tableName: string,
  entityName: string,
  input: Input,
  remove: readonly string[] = [],
  stored?: Item,
  extras: UpdateExtras = {},
): UpdateItemCommandInput {
  const changes = changesOf(model, entityName, input, remove, extras);
  const { entity, values: withMaintainedValues, versioned, operations, set, removed, changed, missing } = changes;
  const lacking = unionOf(missing);
  if (lacking.length > 0 && !stored) {
    throw partialIndexUpdate(model, changes, '', "; or let the update read them with { readMissing: true }, or write the whole item with putItem(..., { mode: 'replace' })");
  }
  const names: Record<string, string> = {};
  const values: Record<string, AttributeValue> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  const adds: string[] = [];
  const deletes: string[] = [];
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
  checkAttributeKeyValues(model, entity, set);
  for (const [name, av] of set) setAttr(name, av);
  for (const name of removed) removes.push(nameRef(name));
  operations.forEach(([op, name, av], i) => {
    const ref = `:o${i}`;
    values[ref] = av;
    const attr = nameRef(name);
    if (op === 'add') {adds.push(`${attr} ${ref}`);} else if (op === 'deleteFromSet') {deletes.push(`${attr} ${ref}`);} else if (op === 'setIfMissing') {sets.push(`${attr} = if_not_exists(${attr}, ${ref})`);} else {
      values[':empty'] = { L: [] };
      sets.push(op === 'append' ? `${attr} = list_append(if_not_exists(${attr}, :empty), ${ref})` : `${attr} = list_append(${ref}, if_not_exists(${attr}, :empty))`);
    }
  });

  // The inputs read stand in for the ones not given, and must still hold when the update runs.
  const known: Record<string, unknown> = { ...withMaintainedValues };
  const unchanged: string[] = [];
  for (const name of lacking) {
    const av = stored![name];
    if (av === undefined) {
      unchanged.push(`attribute_not_exists(${nameRef(name)})`);
      continue;
    }
    known[name] = fromAttributeValue(av);
    const ref = `:r${unchanged.length}`;
    values[ref] = av;
    unchanged.push(`${nameRef(name)} = ${ref}`);
  }
  const table = tableKey(model, entity, input);

  for (const slot of indexSlots(model, entity)) {
    const index = model.indexes[slot];
    const inputs = indexInputs(entity, index);
    if (!inputs.some((n) => changed.has(n))) continue;
    // A multi-attribute GSI's key attribute removed: DynamoDB takes the item out of the index; its shard may stay.
    if (index.partitionAttributes && inputs.some((n) => removed.has(n))) continue;
    // Absent when an input is removed, empty, false, or (read) not stored: the item leaves the index.
    const indexKeys = indexKeyAttributes(model, entity, index, known, table);
    if (indexKeys) {
      for (const attr in indexKeys) setAttr(attr, indexKeys[attr]);
    } else {
      if (index.type !== 'LSI') removes.push(nameRef(index.partitionKey));
      if (index.sortKey) removes.push(nameRef(index.sortKey));
    }
  }
  if (sets.length === 0 && removes.length === 0 && adds.length === 0 && deletes.length === 0) {
    throw new SingleTableError('INVALID_VALUE', 'the update sets and removes nothing', { entity: entity.name });
  }

  const condition: ConditionParts = versioned ?? existenceCondition(model, true);
  Object.assign(names, condition.ExpressionAttributeNames);
  Object.assign(values, condition.ExpressionAttributeValues);
  const clauses: [string, string[]][] = [['SET', sets], ['REMOVE', removes], ['ADD', adds], ['DELETE', deletes]];
  const out: UpdateItemCommandInput = {
    TableName: tableName,
    Key: keyAttributes(model, table),
    UpdateExpression: clauses.filter(([, parts]) => parts.length).map(([verb, parts]) => `${verb} ${parts.join(', ')}`).join(' '),
    ConditionExpression: [condition.ConditionExpression, ...unchanged].join(' AND '),
    ExpressionAttributeNames: names,
    ReturnValues: 'ALL_NEW',
  };
  if (Object.keys(values).length) out.ExpressionAttributeValues = values;
  if (versioned || extras.condition) out.ReturnValuesOnConditionCheckFailure = 'ALL_OLD';
  if (extras.condition !== undefined) madeByWhere(extras.condition, 'condition', { entity: entity.name }).addTo(out, entity);
  return out;
}

/** The consistent GetItem that reads the attributes an update lacks (`readMissing`). */
export function buildReadMissing(
  model: TableModel, tableName: string, entityName: string, input: Input, missing: readonly string[],
): GetItemCommandInput {
  const entity = entityOf(model, entityName);
  const names: Record<string, string> = {};
  missing.forEach((name, i) => { names[`#m${i}`] = name; });
  return {
    TableName: tableName,
    Key: keyAttributes(model, tableKey(model, entity, input)),
    ConsistentRead: true,
    ProjectionExpression: Object.keys(names).join(', '),
    ExpressionAttributeNames: names,
  };
}

/** How an update with `readMissing` reads and writes: the client's sending steps. */
export interface ReadMissingSend<T> {
  /** Sends a GetItem; the item, or undefined when there is none. */
  get(input: GetItemCommandInput): Promise<Item | undefined>;
  /** Sends the conditional UpdateItem; a failed condition rejects with CONDITION_FAILED. */
  update(input: UpdateItemCommandInput): Promise<T>;
}

/**
 * An update that reads the index inputs it lacks: read, update on the condition that they are
 * unchanged, and on a conflict read again, at most READ_MISSING_ATTEMPTS times. An update that
 * lacks nothing is sent as it is, without a read.
 */
export async function updateReadingMissing<T>(
  model: TableModel, tableName: string, entityName: string, input: Input, remove: readonly string[] = [], send: ReadMissingSend<T>,
  extras: UpdateExtras = {},
): Promise<T> {
  const missing = missingIndexInputs(model, entityName, input, remove, extras);
  if (missing.length === 0) return send.update(buildUpdate(model, tableName, entityName, input, remove, undefined, extras));
  for (let attempt = 1; ; attempt++) {
    const stored = await send.get(buildReadMissing(model, tableName, entityName, input, missing));
    if (!stored) throw new SingleTableError('CONDITION_FAILED', 'there is no item with this key', { entity: entityName });
    try {
      return await send.update(buildUpdate(model, tableName, entityName, input, remove, stored, extras));
    } catch (error) {
      if ((error as SingleTableError).code !== 'CONDITION_FAILED') throw error;
      // The inputs read still stand, so the caller's own condition is what failed: not a conflict to retry.
      const now = (error as ConditionFailedError).item;
      if (now && missing.every((name) => now[name] === (stored[name] && fromAttributeValue(stored[name])))) throw error;
      if (attempt >= READ_MISSING_ATTEMPTS) {
        throw new SingleTableError('CONDITION_FAILED',
          `${missing.join(', ')} changed between each read and update, ${attempt} times; try again later, or pass them`, { entity: entityName, cause: error });
      }
    }
  }
}

/** Whether an update operator (add, append, ...) names the attribute. */
export function touchedByOperator(operators: UpdateOperators, name: string): boolean {
  const { add, append, prepend, deleteFromSet, setIfMissing } = operators;
  return [add, append, prepend, deleteFromSet, setIfMissing].some((o) => o !== undefined && Object.hasOwn(o, name));
}
