// Pure builders of TransactWriteItems: each action becomes the request its single-item operation
// would send (same item, keys, sparse index keys, existence conditions; buildPut, buildUpdate and
// buildDelete make them), plus the guard writes of unique attributes. Checked before anything is
// sent: at most 100 items, one action per item, a valid token. The whole transaction carries one
// time in its timestamps, so a resend of it can be built again as the same request.
import type { AttributeValue, ConditionCheck, GetItemCommandInput, Put, TransactWriteItem, Update } from '@aws-sdk/client-dynamodb';
import type { TransactItemRef } from './send';
import { EntityModel, TABLE_INDEX, TableModel } from '../../model/model';
import { keyAttributes, tableKey, tableKeyNames } from '../attributes/item-keys';
import { entityOf, valuesText } from '../attributes/values';
import { madeByWhere } from '../expressions/made-by-where';
import { ExpressionPlaceholders, ExpressionRefs } from '../expressions/refs';
import { buildDelete, buildPut, keyFromInput } from '../items/requests';
import { GuardWrite, guardItem, guardWrites, heldByCondition, unchangedCondition } from '../items/unique';
import { buildUpdate, missingIndexInputs, partialIndexUpdateInTransaction, touchedByOperator } from '../items/update';
import type { UpdateOperators } from '../items/update-options';
import { versionTimestampHooks } from '../items/version-timestamps';
import type { VersionTimestampHooks } from '../table/context';
import { SingleTableError } from '../table/errors';

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
  /** A delete of a guard the action gives up: the guard's partition key (its condition fails when the guard names another item). */
  readonly releases?: string;
}

/** How a transaction is built beside its actions. */
export interface PlanOptions {
  /** The time every timestamp of the transaction carries (ISO-8601 UTC). */
  readonly now: string;
  /** Guards (by partition key) an action gives up that name another item: left in place. @default - none */
  readonly kept?: ReadonlySet<string>;
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
  options: PlanOptions,
): TransactPlan {
  const entities = checkActions(model, actions);
  const maintained = stampedAt(options.now);
  const items: TransactWriteItem[] = [];
  const sent: SentItem[] = [];
  const guards: (GuardWrite & SentItem)[] = [];
  actions.forEach((action, i) => {
    const entity = entities[i];
    const values = keyValuesOf(action);
    const key = Object.fromEntries(tableKeyNames(entity).map((n) => [n, values[n]]));
    const read = readDone[i];
    const before = stored[i];
    const { item, after, owner } = actionItem(model, tableName, entity, action, i, maintained);
    const input = (item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck)!;
    if (action.condition !== undefined) {
      const place = `actions[${i}].condition`;
      const condition = madeByWhere(action.condition, place, { entity: entity.name });
      andCondition(input, (refs) => condition.compile([entity], refs, place));
    }
    // The item must still hold what its guards were computed from.
    if (read) andCondition(input, (refs) => unchangedCondition(model, before, uniqueTouched(entity, action), refs));
    // The stored item a failure returns tells the caller's condition apart from a change of the values read.
    if (action.condition !== undefined || read) input.ReturnValuesOnConditionCheckFailure = 'ALL_OLD';
    items.push(item);
    sent.push({ action: i, entity: entity.name, key, readBefore: read });
    const touched = action.type === 'put' && action.mode === 'create' ? entity.unique ?? [] : uniqueTouched(entity, action);
    // An update or delete of an item that is not there fails on its own condition: no guard moves.
    if (touched.length > 0 && !(action.type !== 'put' && read && !before)) {
      for (const g of guardWrites(model, entity, owner, values, before, after, touched)) guards.push({ ...g, action: i, entity: entity.name, key });
    }
  });
  for (const g of guardRequests(model, tableName, guards, options.kept ?? new Set())) {
    items.push(g.item);
    sent.push(g.sent);
  }
  checkSize(items, sent);
  checkDistinct(model, items, sent);
  return { items, sent };
}

/**
 * The read of the time an earlier send of these actions stamped: the updatedAt of the first item
 * that a put or update of a timestamped entity writes. Undefined when no action stamps a time.
 */
export function buildReadStamp(
  model: TableModel, tableName: string, actions: readonly UntypedAction[],
): { input: GetItemCommandInput; attribute: string } | undefined {
  const entities = checkActions(model, actions);
  const i = actions.findIndex((a, n) => (a.type === 'put' || a.type === 'update') && entities[n].timestamps);
  if (i < 0) return undefined;
  const entity = entities[i];
  const attribute = entity.timestamps!.updatedAt;
  const input: GetItemCommandInput = {
    TableName: tableName,
    Key: keyAttributes(model, tableKey(model, entity, keyValuesOf(actions[i]))),
    ConsistentRead: true,
    ProjectionExpression: '#t',
    ExpressionAttributeNames: { '#t': attribute },
  };
  return { input, attribute };
}

/** The version and timestamp hooks with the transaction's time. */
function stampedAt(now: string): VersionTimestampHooks {
  return {
    ...versionTimestampHooks,
    put: (m, e, item) => versionTimestampHooks.put(m, e, item, now),
    update: (m, e, given) => versionTimestampHooks.update(m, e, given, now),
  };
}

/**
 * One request per guard the actions touch. A guard one action gives up and another takes (a value
 * moving from one item to another, or two items swapping values) is one put naming its new owner,
 * on the condition that it is absent or names the item giving it up: DynamoDB takes one action per
 * item in a transaction. Two actions taking one value are refused.
 */
function guardRequests(
  model: TableModel, tableName: string, writes: readonly (GuardWrite & SentItem)[], kept: ReadonlySet<string>,
): { item: TransactWriteItem; sent: SentItem }[] {
  const pk = model.indexes[TABLE_INDEX].partitionKey;
  const byGuard = new Map<string, (GuardWrite & SentItem)[]>();
  for (const w of writes) byGuard.set(w.guardKey[pk].S!, [...byGuard.get(w.guardKey[pk].S!) ?? [], w]);
  const out: { item: TransactWriteItem; sent: SentItem }[] = [];
  for (const [id, list] of byGuard) {
    const claims = list.filter((w) => w.claims);
    const released = list.filter((w) => !w.claims).map((w) => w.owner);
    if (claims.length > 1) {
      const [a, b] = claims;
      throw new SingleTableError('UNIQUE_VIOLATION',
        `actions ${a.action} and ${b.action} both take ${b.guard.attribute} = ${JSON.stringify(b.guard.value)}; one transaction can give a value to one item`,
        { entity: b.entity, attribute: b.guard.attribute });
    }
    const [claim] = claims;
    const { guard, action, entity, key } = claim ?? list[0];
    if (claim) {
      const put: Put = { TableName: tableName, Item: guardItem(model, claim.guardKey, claim.owner), ...heldByCondition(model, released) };
      out.push({ item: { Put: put }, sent: { action, entity, key, guard } });
    } else if (!kept.has(id)) {
      const del = { TableName: tableName, Key: list[0].guardKey, ...heldByCondition(model, released) };
      out.push({ item: { Delete: del }, sent: { action, entity, key, guard, releases: id } });
    }
  }
  return out;
}

/** One action's own item, what its unique attributes hold after it, and the item's table key (a guard's owner). */
function actionItem(
  model: TableModel, tableName: string, entity: EntityModel, action: UntypedAction, i: number, maintained: VersionTimestampHooks,
): { item: TransactWriteItem; after?: Values; owner: Item } {
  const name = entity.name;
  switch (action.type) {
    case 'put': {
      // The values hold a versioned entity's expected version.
      const built = buildPut(model, tableName, name, action.item!, action.mode as never, undefined, maintained);
      // A versioned put asks for the stored item on failure, which tells a version conflict apart.
      const { TableName, Item, ConditionExpression, ExpressionAttributeNames, ExpressionAttributeValues } = built;
      const put: Put = { TableName, Item, ConditionExpression, ExpressionAttributeNames, ExpressionAttributeValues };
      put.ReturnValuesOnConditionCheckFailure = built.ReturnValuesOnConditionCheckFailure;
      return { item: { Put: put }, after: action.item, owner: ownerKey(model, Item!) };
    }
    case 'update': {
      const remove = action.remove ?? [];
      const extras = { operators: action, maintained };
      if (missingIndexInputs(model, name, action.changes ?? {}, remove, extras).length > 0) {
        throw partialIndexUpdateInTransaction(model, name, action.changes ?? {}, remove, extras, i);
      }
      const { ReturnValues: _, ...update } = buildUpdate(model, tableName, name, action.changes!, remove, undefined, extras);
      const after: Record<string, unknown> = { ...action.changes };
      for (const r of remove) after[r] = undefined;
      return { item: { Update: update as Update }, after, owner: update.Key! };
    }
    case 'delete': {
      const built = buildDelete(model, tableName, name, action.key!, action.mustExist, undefined, action.version, maintained);
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
    throw new SingleTableError('DUPLICATE_TRANSACTION_ITEM',
      `actions ${a.action} and ${b.action} both act on the item ${valuesText(b.key, Object.keys(b.key))}; DynamoDB rejects two actions on one item in a transaction: merge them`,
      { entity: b.entity });
  });
}
