// Writes of entities with unique attributes: a put, an update that changes a unique value, or a
// delete goes as a one-action transaction with its guard writes. putItem, updateItem and deleteItem
// reach this through `maintainedWrites` (the hooks the table is opened with), so a handler that
// writes no such entity carries neither it nor the transaction code. Their failed conditions surface
// as the single-item operations' do (CONDITION_FAILED), and a taken value as UNIQUE_VIOLATION.
import type { TableContext } from './context';
import { SingleTableError } from './errors';
import { buildDelete, buildPut } from './items';
import { getItem } from './ops/get-item';
import { transactWrite } from './ops/transact-write';
import { TransactionCanceledError } from './transact-send';
import { buildUpdate, touchedByOperator, UpdateOperators, UpdateOptions } from './update';
import { ConditionalWriteInput, writeFailure } from './write-failure';

type Values = Record<string, unknown>;

/** The options of a single-item write as the unique path reads them. */
export interface UniqueWriteOptions extends Pick<UpdateOptions, 'readMissing'>, UpdateOperators {
  readonly mode?: string;
  readonly condition?: unknown;
  readonly remove?: readonly string[];
  readonly mustExist?: boolean;
  readonly version?: number;
}

/**
 * The write of an entity with unique attributes, as a transaction with its guard writes; undefined
 * when the write touches no unique value (it goes as the single-item operation). Throws, before
 * any request, when no guard can be known: an update operator on a unique attribute (DynamoDB
 * computes the value), or `readMissing` with a change of a unique value.
 */
export function uniqueWrite(
  table: TableContext<unknown>, op: 'put' | 'update' | 'delete', entity: string, values: Values, options: UniqueWriteOptions,
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
  put: async (table: TableContext<unknown>, entity: string, item: Values, options: UniqueWriteOptions): Promise<void> => {
    await alone(table, { type: 'put', entity, item, mode: options.mode, condition: options.condition },
      () => buildPut(table.model, table.tableName, entity, item, options.mode as never, undefined, table.maintained), item);
  },
  update: async (table: TableContext<unknown>, entity: string, changes: Values, options: UniqueWriteOptions) => {
    const { add, append, prepend, deleteFromSet, setIfMissing } = options;
    const operators = { add, append, prepend, deleteFromSet, setIfMissing };
    await alone(table, { type: 'update', entity, changes, remove: options.remove, condition: options.condition, ...operators },
      () => buildUpdate(table.model, table.tableName, entity, changes, options.remove, undefined, { operators, maintained: table.maintained }),
      changes);
    // A transaction returns no item: read it as the update left it.
    return (await getItem(table as TableContext<never>, entity as never, keyOf(table, entity, changes) as never, { consistent: true }))!;
  },
  delete: async (table: TableContext<unknown>, entity: string, key: Values, options: UniqueWriteOptions) => {
    const before = await getItem(table as TableContext<never>, entity as never, key as never, { consistent: true });
    const { mustExist, version } = options;
    await alone(table, { type: 'delete', entity, key, mustExist, version, condition: options.condition },
      () => buildDelete(table.model, table.tableName, entity, key, mustExist, undefined, version, table.maintained), key);
    return before;
  },
};

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
