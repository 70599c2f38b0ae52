// The client's put, update and delete: single-item operations, except for entities with unique
// attributes, whose writes go as one-action transactions with their guard writes (the single-item
// operations refuse those). Their failed conditions surface as the single-item operations' do
// (CONDITION_FAILED), and a taken value as UNIQUE_VIOLATION.
import type { TableContext } from './context';
import { SingleTableError } from './errors';
import { where } from './expressions/where';
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
        () => buildPut(table.model, table.tableName, entity, item, options.mode, undefined, table.maintained), item);
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
        () => buildUpdate(table.model, table.tableName, entity, changes, options.remove, undefined, { operators, maintained: table.maintained }),
        changes);
      // A transaction returns no item: read it as the update left it.
      return (await getItem(t, entity as never, keyOf(table, entity, changes) as never, { consistent: true }))!;
    },
    delete: async (entity: string, key: Values, options: Omit<DeleteOptions, 'condition'> & WriteOptions = {}) => {
      if (uniqueOf(entity).length === 0) return deleteItem(t, entity as never, key as never, single(options) as never);
      const before = await getItem(t, entity as never, key as never, { consistent: true });
      const { mustExist, version } = options;
      await alone(table, { type: 'delete', entity, key, mustExist, version, condition: options.condition },
        () => buildDelete(table.model, table.tableName, entity, key, mustExist, undefined, version, table.maintained), key);
      return before;
    },
  };
}

function keyOf(table: TableContext<unknown>, entity: string, values: Values): Values {
  const keys = table.model.entities[entity].keys.table;
  return Object.fromEntries([...keys.pk.attributes, ...keys.sk!.attributes].map((n) => [n, values[n]]));
}

/**
 * One action as a transaction; its own failed condition becomes CONDITION_FAILED, or, told apart
 * by the stored item DynamoDB returns to a versioned write, VERSION_CONFLICT as the single-item
 * operation reports it (`singleInput` builds that operation's input, `values` hold the table key).
 */
async function alone(table: TableContext<unknown>, action: Values, singleInput: () => ConditionalWriteInput, values: Values): Promise<void> {
  try {
    await transactWrite(table as TableContext<never>, [action as never]);
  } catch (error) {
    // The item's own condition failed (a create of an existing item may also find its own value taken).
    if (!(error instanceof TransactionCanceledError) || error.code !== 'TRANSACTION_CANCELLED') throw error;
    if (!error.reasons.every((r) => r.code === 'ConditionalCheckFailed') || error.reasons.every((r) => r.unique)) throw error;
    const own = error.reasons.find((r) => !r.unique);
    if (own?.stored) {
      const failure = writeFailure(table, String(action.entity), singleInput(), values, { Item: own.stored });
      if (failure.code === 'VERSION_CONFLICT') throw failure;
    }
    const why = action.type === 'put' && action.mode === 'create' ? 'an item with this key already exists'
      : action.type === 'put' && action.mode !== 'replace' ? 'the item changed while its unique values were being moved; try again'
        : 'there is no item with this key, or it changed while its unique values were being moved';
    throw new SingleTableError('CONDITION_FAILED', why, { entity: String(action.entity), cause: error });
  }
}
