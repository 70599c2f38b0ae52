// TransactWriteItems: puts, updates, deletes and condition checks of any entities, all applied or
// none. Each action is built as its single-item operation builds it (keys, sparse index keys,
// conditions); an entity's unique attributes add their guard writes (../unique.ts). The reads,
// retries and resends around the request are ../transact-run.ts.
import { runTransactWrite } from './run';
import type { Table } from '../table/context';
import { SingleTableError } from '../table/errors';
import type { TransactWriteAction } from '../types';

/** Options of `transactWrite`. */
export interface TransactWriteOptions {
  /**
   * The ClientRequestToken (1 to 36 characters): a call repeated with the same token and actions
   * within 10 minutes is applied at most once (a repeat takes the time of its timestamps from the
   * items the first call wrote). Give one when the caller itself may repeat the call (a queue
   * redelivering a message).
   * @default - a new token per call, kept by the call's own retries
   */
  readonly token?: string;
}

/**
 * Applies up to 100 actions atomically: all or none. A cancellation throws TransactionCanceledError
 * (code TRANSACTION_CANCELLED, or UNIQUE_VIOLATION when a unique value is taken) listing each
 * failed action with its index, entity, key and DynamoDB's reason.
 */
export async function transactWrite<M>(
  table: Table<M>, actions: readonly TransactWriteAction<M>[], options: TransactWriteOptions = {},
): Promise<void> {
  const given = options.token;
  if (given !== undefined && (typeof given !== 'string' || given.length < 1 || given.length > 36)) {
    throw new SingleTableError('INVALID_VALUE', `the token must be a string of 1 to 36 characters, got ${JSON.stringify(given)}`);
  }
  return runTransactWrite(table, actions as never, given);
}
