// Writes of entities with unique attributes: a put, an update that changes a unique value, or a
// delete goes as a one-action transaction with its guard writes. putItem, updateItem and deleteItem
// reach this through `maintainedWrites` (the hooks the table is opened with), so a handler that
// writes no such entity carries neither it nor the transaction code. Their failed conditions surface
// as the single-item operations' do (ConditionFailedError with the stored item), and a taken value
// as UNIQUE_VIOLATION.
import { getItem } from './get-item';
import { buildDelete, buildPut } from './requests';
import { buildUpdate, touchedByOperator } from './update';
import { writeFailure } from './write-failure';
import type { Where } from '../expressions/where';
import type { ConditionalWriteInput, Table, UniqueWriteOptions } from '../table/context';
import { SingleTableError } from '../table/errors';
import { TransactionCanceledError } from '../transact/send';
import { transactWrite } from '../transact/transact-write';

type Values = Record<string, unknown>;

/**
 * The write of an entity with unique attributes, as a transaction with its guard writes; undefined
 * when the write touches no unique value (it goes as the single-item operation). Throws, before
 * any request, when no guard can be known: an update operator on a unique attribute (DynamoDB
 * computes the value), or `readMissing` with a change of a unique value.
 */
export function uniqueWrite(
  table: Table<unknown>, op: 'put' | 'update' | 'delete', entity: string, values: Values, options: UniqueWriteOptions,
): Promise<unknown> | undefined {
  const unique = table.model.entities[entity]?.unique ?? [];
  if (op === 'update') {
    // An operator's result is unknown without the item, and so the guard to move.
    const operated = unique.find((u) => touchedByOperator(options, u));
    if (operated) {
      throw new SingleTableError('INVALID_VALUE', `an update operator on the unique attribute ${operated} leaves its new value to DynamoDB, so the guard of that `
        + `value cannot be written; set ${operated} to its new value instead`, { entity, attribute: operated });
    }
    const touched = unique.filter((u) => values[u] !== undefined || options.remove?.includes(u));
    if (touched.length === 0) return undefined;
    if (options.readMissing) {
      throw new SingleTableError('UNIQUE_NEEDS_TRANSACTION', `an update with readMissing cannot move the guard items of unique ${touched}: `
        + 'give every input of the index keys it moves instead, or write it with transactWrite', { entity });
    }
  }
  if (unique.length === 0) return undefined;
  return writers[op](table, entity, values, options);
}

const writers = {
  put: async (table: Table<unknown>, entity: string, item: Values, options: UniqueWriteOptions): Promise<void> => {
    await alone(table, { type: 'put', entity, item, mode: options.mode, condition: options.condition },
      (condition) => buildPut(table.model, table.tableName, entity, item, options.mode as never, condition, table.maintained), item);
  },
  update: async (table: Table<unknown>, entity: string, changes: Values, options: UniqueWriteOptions) => {
    const { add, append, prepend, deleteFromSet, setIfMissing } = options;
    const operators = { add, append, prepend, deleteFromSet, setIfMissing };
    await alone(table, { type: 'update', entity, changes, remove: options.remove, condition: options.condition, ...operators },
      (condition) => buildUpdate(table.model, table.tableName, entity, changes, options.remove, undefined,
        { operators, maintained: table.maintained, condition }),
      changes);
    // A transaction returns no item: read it as the update left it.
    return (await getItem(table as Table<never>, entity as never, keyOf(table, entity, changes) as never, { consistent: true }))!;
  },
  delete: async (table: Table<unknown>, entity: string, key: Values, options: UniqueWriteOptions) => {
    const before = await getItem(table as Table<never>, entity as never, key as never, { consistent: true });
    const { mustExist, version } = options;
    await alone(table, { type: 'delete', entity, key, mustExist, version, condition: options.condition },
      (condition) => buildDelete(table.model, table.tableName, entity, key, mustExist, condition, version, table.maintained), key);
    return before;
  },
};

function keyOf(table: Table<unknown>, entity: string, values: Values): Values {
  const keys = table.model.entities[entity].keys.table;
  return Object.fromEntries([...keys.pk.attributes, ...keys.sk!.attributes].map((n) => [n, values[n]]));
}

/**
 * One action as a transaction. Its own failed condition (the transaction asks for the stored item)
 * becomes the ConditionFailedError the single-item operation throws: VERSION_CONFLICT, the caller's
 * condition, or the item's existence (`singleInput` builds that operation's input with the
 * caller's condition, `values` hold the table key). The values it moves changing under it is the
 * transaction's own error, after its retries.
 */
async function alone(
  table: Table<unknown>, action: Values, singleInput: (condition?: Where<unknown>) => ConditionalWriteInput, values: Values,
): Promise<void> {
  try {
    await transactWrite(table as Table<never>, [action as never]);
  } catch (error) {
    if (!(error instanceof TransactionCanceledError) || error.code !== 'TRANSACTION_CANCELLED') throw error;
    // The item's own condition failed (a create of an existing item may also find its own value taken).
    const own = error.reasons.find((r) => !r.unique);
    if (!own || !error.reasons.every((r) => r.code === 'ConditionalCheckFailed')) throw error;
    const condition = action.condition as Where<unknown> | undefined;
    throw writeFailure(table, String(action.entity), singleInput(condition), values, { Item: own.stored }, condition);
  }
}
