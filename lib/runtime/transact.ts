// Pure builders of TransactWriteItems: each action becomes the request its single-item operation
// would send (same item, keys, sparse index keys, existence conditions; buildPut, buildUpdate and
// buildDelete make them), plus the guard writes of unique attributes. Checked before anything is
// sent: at most 100 items, one action per item, a valid token.
import type { AttributeValue, ConditionCheck, Put, TransactWriteItem, Update } from '@aws-sdk/client-dynamodb';
import { SingleTableError } from './errors';
import { madeByWhere } from './expressions/made-by-where';
import { ExpressionPlaceholders, ExpressionRefs } from './expressions/refs';
import { buildDelete, buildPut, keyFromInput } from './items';
import { tableKeyNames } from './keys';
import { maintainedWrites } from './maintained-writes';
import type { TransactItemRef } from './transact-send';
import { guardWrites, unchangedCondition } from './unique';
import { buildUpdate, missingIndexInputs, touchedByOperator, UpdateOperators } from './update';
import { entityOf, valuesText } from './values';
import { EntityModel, TABLE_INDEX, TableModel } from '../manifest/model';

type Item = Record<string, AttributeValue>;
type Values = Readonly<Record<string, unknown>>;

/** DynamoDB's most items in one transaction. */
export const MAX_TRANSACT_ITEMS = 100;

/** An action as the builder reads it (the typed forms are in types.ts); an update's operators as updateItem's. */
export interface UntypedAction extends UpdateOperators {
  readonly type: string;
  readonly entity: string;
  readonly item?: Values;
  readonly mode?: string;
  readonly changes?: Values;
  readonly remove?: readonly string[];
  readonly key?: Values;
  readonly mustExist?: boolean;
  readonly version?: number;
  readonly readMissing?: unknown;
  readonly condition?: unknown;
}

/** What each item sent stands for: the caller's action, its entity and table key, and the guard it is (if one). */
export interface SentItem extends TransactItemRef {
  /** Whether its condition includes the unique values read before (a failure may mean they changed since). */
  readonly readBefore?: boolean;
}

/** A transaction ready to send. */
export interface TransactPlan {
  readonly items: TransactWriteItem[];
  readonly sent: SentItem[];
}

const ACTION_TYPES = ['put', 'update', 'delete', 'conditionCheck'];
const OPERATOR_NAMES = ['add', 'append', 'prepend', 'deleteFromSet', 'setIfMissing'] as const;

/** The actions' entities, checked; throws before anything is sent. */
export function checkActions(model: TableModel, actions: readonly UntypedAction[]): EntityModel[] {
  if (!Array.isArray(actions) || actions.length === 0) {
    throw new SingleTableError('TRANSACTION_TOO_LARGE', 'a transaction needs 1 to 100 actions, got none');
  }
  return actions.map((a, i) => {
    const entity = entityOf(model, a?.entity);
    if (!ACTION_TYPES.includes(a.type)) {
      throw new SingleTableError('INVALID_VALUE', `action ${i} has type ${JSON.stringify(a.type)}; use 'put', 'update', 'delete' or 'conditionCheck'`, { entity: entity.name });
    }
    if (a.type === 'conditionCheck' && a.condition === undefined) {
      throw new SingleTableError('INVALID_CONDITION', `action ${i} is a conditionCheck without a condition; give it one, e.g. condition: where({ attr: 'status', eq: 'OPEN' })`, { entity: entity.name });
    }
    // DynamoDB computes an operator's result, so the guard of the new value cannot be known.
    const operated = a.type === 'update' ? entity.unique?.find((u) => touchedByOperator(a, u)) : undefined;
    if (operated) {
      throw new SingleTableError('INVALID_VALUE',
        `action ${i}: ${OPERATOR_NAMES.find((op) => a[op] && Object.hasOwn(a[op], operated))} on the unique attribute ${operated} leaves its new value to DynamoDB, `
        + `so the guard of that value cannot be written; set ${operated} to its new value instead`, { entity: entity.name, attribute: operated });
    }
    if (a.type === 'update' && a.readMissing !== undefined) {
      throw new SingleTableError('INVALID_VALUE',
        `action ${i}: readMissing is not possible in a transaction, whose writes cannot depend on a read made in the same request; pass the index inputs the update lacks`,
        { entity: entity.name });
    }
    return entity;
  });
}

/** Which unique attributes an action can change, so the item's current values must be read first. */
export function uniqueTouched(entity: EntityModel, action: UntypedAction): string[] {
  const unique = entity.unique ?? [];
  if (unique.length === 0) return [];
  switch (action.type) {
    case 'put': return action.mode === 'create' ? [] : unique;
    case 'delete': return unique;
    case 'update': return unique.filter((u) => action.changes?.[u] !== undefined || action.remove?.includes(u));
    default: return [];
  }
}

/** The table key values an action names its item by. */
function keyValuesOf(action: UntypedAction): Values {
  return (action.type === 'put' ? action.item : action.type === 'update' ? action.changes : action.key) ?? {};
}

/**
 * The transaction of `actions`. `stored[i]` is what was read of action i's item (its unique
 * values), for actions that `uniqueTouched` says need it; `readDone[i]` is whether it was read.
 */
export function buildTransactWrite(
  model: TableModel, tableName: string, actions: readonly UntypedAction[], stored: readonly (Item | undefined)[], readDone: readonly boolean[],
): TransactPlan {
  const entities = checkActions(model, actions);
  const items: TransactWriteItem[] = [];
  const sent: SentItem[] = [];
  actions.forEach((action, i) => {
    const entity = entities[i];
    const values = keyValuesOf(action);
    const key = Object.fromEntries(tableKeyNames(entity).map((n) => [n, values[n]]));
    const read = readDone[i];
    const before = stored[i];
    const { item, after, owner } = actionItem(model, tableName, entity, action, i);
    const input = (item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck)!;
    if (action.condition !== undefined) {
      const place = `actions[${i}].condition`;
      const condition = madeByWhere(action.condition, place, { entity: entity.name });
      andCondition(input, (refs) => condition.compile([entity], refs, place));
    }
    // The item must still hold what its guards were computed from.
    if (read) andCondition(input, (refs) => unchangedCondition(model, before, uniqueTouched(entity, action), refs));
    items.push(item);
    sent.push({ action: i, entity: entity.name, key, readBefore: read });
    const touched = action.type === 'put' && action.mode === 'create' ? entity.unique ?? [] : uniqueTouched(entity, action);
    // An update or delete of an item that is not there fails on its own condition: no guard moves.
    if (touched.length > 0 && !(action.type !== 'put' && read && !before)) {
      for (const g of guardWrites(model, tableName, entity, owner, values, before, after, touched)) {
        items.push(g.item);
        sent.push({ action: i, entity: entity.name, key, guard: g.guard });
      }
    }
  });
  checkSize(items, sent);
  checkDistinct(model, items, sent);
  return { items, sent };
}

/** One action's own item, what its unique attributes hold after it, and the item's table key (a guard's owner). */
function actionItem(
  model: TableModel, tableName: string, entity: EntityModel, action: UntypedAction, i: number,
): { item: TransactWriteItem; after?: Values; owner: Item } {
  const name = entity.name;
  switch (action.type) {
    case 'put': {
      // The values hold a versioned entity's expected version.
      const built = buildPut(model, tableName, name, action.item!, action.mode as never, undefined, maintainedWrites);
      // A versioned put asks for the stored item on failure, which tells a version conflict apart.
      const { TableName, Item, ConditionExpression, ExpressionAttributeNames, ExpressionAttributeValues } = built;
      const put: Put = { TableName, Item, ConditionExpression, ExpressionAttributeNames, ExpressionAttributeValues };
      put.ReturnValuesOnConditionCheckFailure = built.ReturnValuesOnConditionCheckFailure;
      return { item: { Put: put }, after: action.item, owner: ownerKey(model, Item!) };
    }
    case 'update': {
      const remove = action.remove ?? [];
      const extras = { operators: action, maintained: maintainedWrites };
      const lacking = missingIndexInputs(model, name, action.changes ?? {}, remove, extras);
      if (lacking.length > 0) {
        throw new SingleTableError('PARTIAL_INDEX_UPDATE',
          `action ${i} moves index keys also composed from ${lacking.join(', ')}; pass ${lacking.join(', ')} too (their current values are fine): ` +
          'a transaction cannot read them first', { entity: name, attribute: lacking[0] });
      }
      const { ReturnValues: _, ...update } = buildUpdate(model, tableName, name, action.changes!, remove, undefined, extras);
      const after: Record<string, unknown> = { ...action.changes };
      for (const r of remove) after[r] = undefined;
      return { item: { Update: update as Update }, after, owner: update.Key! };
    }
    case 'delete': {
      const built = buildDelete(model, tableName, name, action.key!, action.mustExist, undefined, action.version, maintainedWrites);
      const { ReturnValues: _, ...del } = built;
      return { item: { Delete: del }, after: undefined, owner: del.Key! };
    }
    default: {
      // Its condition (added by the caller) alone decides: it may as well require the item's absence.
      const Key = keyFromInput(model, entity, action.key!);
      return { item: { ConditionCheck: { TableName: tableName, Key } as ConditionCheck }, after: undefined, owner: Key };
    }
  }
}

/** Adds a condition to a request's with AND, its placeholders merged. */
function andCondition(input: { ConditionExpression?: string } & ExpressionPlaceholders, build: (refs: ExpressionRefs) => string): void {
  const refs = ExpressionRefs.extending(input);
  const expression = build(refs);
  input.ConditionExpression = input.ConditionExpression ? `(${input.ConditionExpression}) AND (${expression})` : expression;
  refs.applyTo(input);
}

function ownerKey(model: TableModel, item: Item): Item {
  const { partitionKey: pk, sortKey: sk } = model.indexes[TABLE_INDEX];
  return { [pk]: item[pk], [sk!]: item[sk!] };
}

function checkSize(items: readonly TransactWriteItem[], sent: readonly SentItem[]): void {
  if (items.length <= MAX_TRANSACT_ITEMS) return;
  const guards = sent.filter((s) => s.guard).length;
  throw new SingleTableError('TRANSACTION_TOO_LARGE',
    `the transaction has ${items.length} items (${items.length - guards} actions, ${guards} unique-value guard writes); DynamoDB allows ${MAX_TRANSACT_ITEMS}: split it`);
}

function checkDistinct(model: TableModel, items: readonly TransactWriteItem[], sent: readonly SentItem[]): void {
  const { partitionKey: pk, sortKey: sk } = model.indexes[TABLE_INDEX];
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const key = item.Put?.Item ?? (item.Update ?? item.Delete ?? item.ConditionCheck)!.Key!;
    const id = JSON.stringify([key[pk].S, key[sk!].S]);
    const first = seen.get(id);
    seen.set(id, i);
    if (first === undefined) return;
    const [a, b] = [sent[first], sent[i]];
    const guard = b.guard ?? a.guard;
    if (guard) {
      throw new SingleTableError('UNIQUE_VIOLATION',
        `actions ${a.action} and ${b.action} both write the guard of ${guard.attribute} = ${JSON.stringify(guard.value)}; one transaction can give a value to one item`,
        { entity: b.entity, attribute: guard.attribute });
    }
    throw new SingleTableError('DUPLICATE_TRANSACTION_ITEM',
      `actions ${a.action} and ${b.action} both act on the item ${valuesText(b.key, Object.keys(b.key))}; DynamoDB rejects two actions on one item in a transaction: merge them`,
      { entity: b.entity });
  });
}
