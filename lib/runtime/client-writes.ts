// The client's put, update and delete: single-item operations, except for entities with unique
// attributes, whose writes go as one-action transactions with their guard writes (the single-item
// operations refuse those). Their failed conditions surface as the single-item operations' do
// (ConditionFailedError with the stored item), and a taken value as UNIQUE_VIOLATION.
import type { TableContext } from './context';
import { where, WriteCondition } from './expressions/where';
import { buildDelete, buildPut } from './items';
import { deleteItem, DeleteOptions } from './ops/delete-item';
import { getItem } from './ops/get-item';
import { putItem, PutOptions } from './ops/put-item';
import { transactWrite } from './ops/transact-write';
import { touchedByOperator, updateItem } from './ops/update-item';
import { TransactionCanceledError } from './transact-send';
import { buildUpdate, UpdateOperators, UpdateOptions } from './update';
import { ConditionalWriteInput, writeFailure } from './write-failure';

type Values = Record<string, unknown>;

/** The client's write options: conditions as plain data (the operations take them compiled, with `where`). */
interface WriteOptions {
  readonly condition?: unknown;
}

/** The options of the single-item operation: the caller's condition compiled. */
function single<O extends WriteOptions>(options: O): O {
  return options.condition === undefined ? options : { ...options, condition: where(options.condition as never) };
}

/** The client's writes over one table. */
export function clientWrites(table: TableContext<unknown>) {
  const t = table as TableContext<never>;
  const uniqueOf = (entity: string) => table.model.entities[entity]?.unique ?? [];
  return {
    put: async (entity: string, item: Values, options: Omit<PutOptions, 'condition'> & WriteOptions = {}): Promise<void> => {
      if (uniqueOf(entity).length === 0) return putItem(t, entity as never, item as never, single(options) as never);
      await alone(table, { type: 'put', entity, item, mode: options.mode, condition: options.condition },
        (condition) => buildPut(table.model, table.tableName, entity, item, options.mode, condition, table.maintained), item);
    },
    update: async (
      entity: string, changes: Values, options: Pick<UpdateOptions, 'readMissing'> & UpdateOperators & WriteOptions & { remove?: readonly string[] } = {},
    ) => {
      const touched = uniqueOf(entity).filter((u) => changes[u] !== undefined || options.remove?.includes(u));
      // An operator's result is unknown without the item, and so the guard to move: updateItem refuses it.
      const operated = uniqueOf(entity).some((u) => touchedByOperator(options, u));
      if (touched.length === 0 || options.readMissing || operated) return updateItem(t, entity as never, changes as never, single(options) as never);
      const { add, append, prepend, deleteFromSet, setIfMissing } = options;
      const operators = { add, append, prepend, deleteFromSet, setIfMissing };
      await alone(table, { type: 'update', entity, changes, remove: options.remove, condition: options.condition, ...operators },
        (condition) => buildUpdate(table.model, table.tableName, entity, changes, options.remove, undefined,
          { operators, maintained: table.maintained, condition }),
        changes);
      // A transaction returns no item: read it as the update left it.
      return (await getItem(t, entity as never, keyOf(table, entity, changes) as never, { consistent: true }))!;
    },
    delete: async (entity: string, key: Values, options: Omit<DeleteOptions, 'condition'> & WriteOptions = {}) => {
      if (uniqueOf(entity).length === 0) return deleteItem(t, entity as never, key as never, single(options) as never);
      const before = await getItem(t, entity as never, key as never, { consistent: true });
      const { mustExist, version } = options;
      await alone(table, { type: 'delete', entity, key, mustExist, version, condition: options.condition },
        (condition) => buildDelete(table.model, table.tableName, entity, key, mustExist, condition, version, table.maintained), key);
      return before;
    },
  };
}

function keyOf(table: TableContext<unknown>, entity: string, values: Values): Values {
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
  table: TableContext<unknown>, action: Values, singleInput: (condition?: WriteCondition<unknown>) => ConditionalWriteInput, values: Values,
): Promise<void> {
  try {
    await transactWrite(table as TableContext<never>, [action as never]);
  } catch (error) {
    if (!(error instanceof TransactionCanceledError) || error.code !== 'TRANSACTION_CANCELLED') throw error;
    // The item's own condition failed (a create of an existing item may also find its own value taken).
    const own = error.reasons.find((r) => !r.unique);
    if (!own || !error.reasons.every((r) => r.code === 'ConditionalCheckFailed')) throw error;
    const condition = action.condition === undefined ? undefined : where(action.condition as never);
    throw writeFailure(table, String(action.entity), singleInput(condition), values, { Item: own.stored }, condition);
  }
}
