// Running a transaction of actions: the reads of the unique values it moves, the request built
// from them, and what follows a refusal. A cancellation on a value read that changed since reads
// again and builds anew; a guard the actions give up that names another item is left in place
// and the rest sent again; a resend under the caller's token that DynamoDB finds other content
// is built again with the time its first send stamped, read from an item it wrote.
import { randomUUID } from 'node:crypto';
import type { AttributeValue, TransactWriteItemsCommandInput } from '@aws-sdk/client-dynamodb';
import { buildReadStamp, buildTransactWrite, checkActions, SentItem, UntypedAction, uniqueTouched } from './plan';
import { sendTransaction, TransactionCanceledError } from './send';
import { valuesText } from '../attributes/values';
import { collectionsOf, withItemCollectionRequest } from '../items/item-collections';
import { buildReadUnique } from '../items/unique';
import { READ_MISSING_ATTEMPTS } from '../items/update';
import type { Table } from '../table/context';
import { SingleTableError } from '../table/errors';
import { GetItemCommand, TransactWriteItemsCommand } from '../table/sdk';
import { send } from '../table/send';

type Item = Record<string, AttributeValue>;

/** Applies `list` as one transaction, under the caller's token `given` (checked) or one of its own. */
export async function runTransactWrite(table: Table<unknown>, list: readonly UntypedAction[], given: string | undefined): Promise<void> {
  const { model, tableName } = table;
  const entities = checkActions(model, list);
  const needsRead = list.map((a, i) => uniqueTouched(entities[i], a).length > 0);
  const read = () => Promise.all(list.map(async (a, i) => {
    if (!needsRead[i]) return undefined;
    const input = buildReadUnique(model, tableName, entities[i], (a.type === 'update' ? a.changes : a.item ?? a.key)!);
    return (await send(table, () => table.dynamodb.send(new GetItemCommand(input)))).Item;
  }));
  const collections = collectionsOf(table);
  let now = new Date().toISOString();
  const kept = new Set<string>();
  let stored = await read();
  let stampRead = false;
  for (let reads = 1; ;) {
    const plan = buildTransactWrite(model, tableName, list, stored, needsRead, { now, kept });
    const request: TransactWriteItemsCommandInput = { TransactItems: plan.items, ClientRequestToken: given ?? randomUUID() };
    const input = withItemCollectionRequest(collections, request);
    try {
      const out = await sendTransaction(table, plan.sent, () => table.dynamodb.send(new TransactWriteItemsCommand(input)));
      const metrics = out.ItemCollectionMetrics?.[tableName];
      if (metrics) collections?.(metrics);
      return;
    } catch (error) {
      if ((error as Error).name === 'IdempotentParameterMismatchException') {
        // A resend of a call applied before stamped another time than its first send: that send's
        // time is on the items it wrote. Built again with it, the request is the first one, and
        // DynamoDB answers it without applying it again.
        const stamp = given !== undefined && !stampRead ? buildReadStamp(model, tableName, list) : undefined;
        stampRead = true;
        const first = stamp && (await send(table, () => table.dynamodb.send(new GetItemCommand(stamp.input)))).Item?.[stamp.attribute]?.S;
        if (first !== undefined && first !== now) {
          now = first;
          continue;
        }
        throw new SingleTableError('TOKEN_REUSED',
          `token ${JSON.stringify(input.ClientRequestToken)} was used in the last 10 minutes for a transaction with other content. A repeated call sends ` +
          'other content when the items it writes changed after the first call (it reads the unique values it moves, and takes the time of a ' +
          'timestamped item from it): use a new token per distinct write', { cause: error });
      }
      if (!(error instanceof TransactionCanceledError)) throw error;
      // A guard the actions give up that names another item (two items held the value before it
      // was unique) stays where it is: send the transaction again without its delete.
      const foreign = releasesRefused(error, plan.sent);
      if (foreign.length > 0) {
        foreign.forEach((id) => kept.add(id));
        continue;
      }
      // A failed condition on values read before may mean they changed since: the stored item the
      // failure returns tells. When they did, read again and build the transaction anew (a new
      // request, so a new token; with the caller's token the same token cannot carry other
      // actions, so the error goes to the caller).
      const stale = error.reasons.filter((r) => r.code === 'ConditionalCheckFailed' && needsRead[r.action] && !r.unique
        && !holdsRead(r.stored, stored[r.action], uniqueTouched(entities[r.action], list[r.action])));
      if (stale.length === 0 || given !== undefined) throw error;
      if (reads >= READ_MISSING_ATTEMPTS) {
        const r = stale[0];
        throw new SingleTableError('CONDITION_FAILED',
          `action ${r.action}, ${valuesText(r.key, Object.keys(r.key))}: the unique values it moves changed between each read and write, ${reads} times; ` +
          'try again later', { entity: r.entity, cause: error });
      }
      stored = await read();
      reads++;
    }
  }
}

/** The guards (by partition key) whose release failed: each names another item. */
function releasesRefused(error: TransactionCanceledError, sent: readonly SentItem[]): string[] {
  const raw = (error.cause as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return sent.flatMap((s, i) => (s.releases !== undefined && raw[i]?.Code === 'ConditionalCheckFailed' ? [s.releases] : []));
}

/** Whether the item as a failure returned it (undefined: none) holds the unique values read before. */
function holdsRead(now: Item | undefined, read: Item | undefined, attributes: readonly string[]): boolean {
  if (!now || !read) return !now && !read;
  return attributes.every((a) => JSON.stringify(now[a]) === JSON.stringify(read[a]));
}
