// TransactWriteItems: puts, updates, deletes and condition checks of any entities, all applied or
// none. Each action is built as its single-item operation builds it (keys, sparse index keys,
// conditions); an entity's unique attributes add their guard writes (../unique.ts).
import { randomUUID } from 'node:crypto';
import type { AttributeValue, TransactWriteItemsCommandInput } from '@aws-sdk/client-dynamodb';
import type { TableContext } from '../context';
import { SingleTableError } from '../errors';
import { collectionsOf, withItemCollectionRequest } from '../item-collections';
import { GetItemCommand, TransactWriteItemsCommand } from '../sdk';
import { send } from '../send';
import { buildTransactWrite, checkActions, UntypedAction, uniqueTouched } from '../transact';
import { sendTransaction, TransactionCanceledError } from '../transact-send';
import type { TransactWriteAction } from '../types';
import { buildReadUnique } from '../unique';
import { READ_MISSING_ATTEMPTS } from '../update';

type Item = Record<string, AttributeValue>;

/** Options of `transactWrite`. */
export interface TransactWriteOptions {
  /**
   * The ClientRequestToken (1 to 36 characters): a call repeated with the same token and actions
   * within 10 minutes is applied at most once. Give one when the caller itself may repeat the call
   * (a queue redelivering a message).
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
  table: TableContext<M>, actions: readonly TransactWriteAction<M>[], options: TransactWriteOptions = {},
): Promise<void> {
  const { model, tableName } = table;
  const list = actions as readonly UntypedAction[];
  const entities = checkActions(model, list);
  const given = options.token;
  if (given !== undefined && (typeof given !== 'string' || given.length < 1 || given.length > 36)) {
    throw new SingleTableError('INVALID_VALUE', `the token must be a string of 1 to 36 characters, got ${JSON.stringify(given)}`);
  }
  const needsRead = list.map((a, i) => uniqueTouched(entities[i], a).length > 0);
  const read = () => Promise.all(list.map(async (a, i) => {
    if (!needsRead[i]) return undefined;
    const input = buildReadUnique(model, tableName, entities[i], (a.type === 'update' ? a.changes : a.item ?? a.key)!);
    return (await send(table, () => table.dynamodb.send(new GetItemCommand(input)))).Item;
  }));
  const collections = collectionsOf(table);
  let stored = await read();
  for (let reads = 1; ; reads++) {
    const plan = buildTransactWrite(model, tableName, list, stored, needsRead);
    const request: TransactWriteItemsCommandInput = { TransactItems: plan.items, ClientRequestToken: given ?? randomUUID() };
    const input = withItemCollectionRequest(collections, request);
    try {
      const out = await sendTransaction(table, plan.sent, () => table.dynamodb.send(new TransactWriteItemsCommand(input)));
      const metrics = out.ItemCollectionMetrics?.[tableName];
      if (metrics) collections?.(metrics);
      return;
    } catch (error) {
      // A failed condition on values read before may mean they changed since: read again, and
      // when they did, build the transaction anew (a new request, so a new token; with the
      // caller's token the same token cannot carry other actions, so the error goes to the caller).
      if ((error as Error).name === 'IdempotentParameterMismatchException') {
        throw new SingleTableError('TOKEN_REUSED',
          `token ${JSON.stringify(input.ClientRequestToken)} was used in the last 10 minutes for a transaction with other content; a repeated call after ` +
          'the first was applied sends other content when it reads unique values (they changed): use a new token per distinct write', { cause: error });
      }
      const stale = error instanceof TransactionCanceledError && error.reasons.some((r) => r.code === 'ConditionalCheckFailed' && needsRead[r.action] && !r.unique);
      if (!stale || given !== undefined || reads >= READ_MISSING_ATTEMPTS) throw error;
      const again = await read();
      if (sameReads(stored, again)) throw error;
      stored = again;
    }
  }
}

function sameReads(a: readonly (Item | undefined)[], b: readonly (Item | undefined)[]): boolean {
  const text = (item: Item | undefined) => (item ? JSON.stringify(Object.keys(item).sort().map((k) => [k, item[k]])) : '');
  return a.every((item, i) => text(item) === text(b[i]));
}
