// Sending a transaction: throttling and cancellations that applied nothing are retried, and a
// cancellation DynamoDB gives up on becomes one error listing each action's reason.
//
// A cancelled transaction writes nothing (that is what atomic means), so resending one whose only
// reasons are TransactionConflict or throttling cannot apply anything twice. Every attempt of a
// call carries the same ClientRequestToken, so a resend of an attempt whose answer was lost (the
// SDK's own retry) or that is still in progress (TransactionInProgressException) is one
// idempotent request: DynamoDB applies it at most once within 10 minutes.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { valuesText } from '../attributes/values';
import type { GuardRef } from '../items/unique';
import type { Table } from '../table/context';
import { SingleTableError } from '../table/errors';
import { backoff, RetryPolicy } from '../table/retry';
import { send } from '../table/send';

/** Cancellation reasons DynamoDB raises for contention, not for the request's content. */
const RETRIED_REASONS = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);

/** What one item of a transaction stands for, to name it in a cancellation. */
export interface TransactItemRef {
  /** Index of the caller's action (or request) the item belongs to. */
  readonly action: number;
  readonly entity: string;
  /** The table key attributes of the action's item, as the caller passed them. */
  readonly key: Record<string, unknown>;
  /** The unique-value guard the item is, when it is one. */
  readonly guard?: GuardRef;
}

/** Why one action of a cancelled transaction failed. */
export interface CancellationReason {
  /** Index of the action in the call. */
  readonly action: number;
  /** The action's entity. */
  readonly entity: string;
  /** The action's table key attributes. */
  readonly key: Record<string, unknown>;
  /** DynamoDB's reason: ConditionalCheckFailed, TransactionConflict, ItemCollectionSizeLimitExceeded, ThrottlingError, ValidationError, ... */
  readonly code: string;
  /** DynamoDB's message. */
  readonly message?: string;
  /** Set when the item that failed is the guard of a unique value: that value is held by another item. */
  readonly unique?: GuardRef;
  /** The item as stored when its condition failed, as DynamoDB returns it to an action that asks (one with a condition or a version, or moving unique values). */
  readonly stored?: Record<string, AttributeValue>;
}

/**
 * A cancelled transaction. `code` is UNIQUE_VIOLATION when every failure is a unique value held by
 * another item, else TRANSACTION_CANCELLED; `reasons` lists each failed action.
 */
export class TransactionCanceledError extends SingleTableError {
  /** Each action that failed, in the order of the call. */
  public readonly reasons: CancellationReason[];

  constructor(reasons: CancellationReason[], cause: unknown) {
    const unique = reasons.length > 0 && reasons.every((r) => r.unique && r.code === 'ConditionalCheckFailed');
    const first = reasons[0];
    super(unique ? 'UNIQUE_VIOLATION' : 'TRANSACTION_CANCELLED', `the transaction was cancelled: ${reasons.map(describeReason).join('; ')}`, {
      entity: first?.entity,
      attribute: unique ? first.unique!.attribute : undefined,
      cause,
    });
    this.name = 'TransactionCanceledError';
    this.reasons = reasons;
  }
}

function describeReason(r: CancellationReason): string {
  const what = `action ${r.action}, ${r.entity} ${valuesText(r.key, Object.keys(r.key))}`;
  if (r.unique && r.code === 'ConditionalCheckFailed') return `${what}: another item holds ${r.unique.attribute} ${JSON.stringify(r.unique.value)}`;
  const guard = r.unique ? ` (guard of ${r.unique.attribute} ${JSON.stringify(r.unique.value)})` : '';
  return `${what}${guard}: ${r.code}${r.message && r.message !== r.code ? ` (${r.message})` : ''}`;
}

/** The reasons of a TransactionCanceledException, each named by its item; undefined for any other error. */
export function cancellationReasons(error: unknown, refs: readonly TransactItemRef[]): CancellationReason[] | undefined {
  const e = error as { name?: string; CancellationReasons?: { Code?: string; Message?: string; Item?: Record<string, AttributeValue> }[] };
  if (e?.name !== 'TransactionCanceledException') return undefined;
  const reasons: CancellationReason[] = [];
  (e.CancellationReasons ?? []).forEach((r, i) => {
    if (!r?.Code || r.Code === 'None') return;
    const ref = refs[i];
    reasons.push({ action: ref.action, entity: ref.entity, key: ref.key, code: r.Code, message: r.Message, unique: ref.guard, stored: r.Item });
  });
  return reasons;
}

/**
 * Sends a transaction (`run`), retrying throttling and cancellations for contention as the
 * table's retry policy says; any other cancellation throws TransactionCanceledError.
 */
export async function sendTransaction<T>(table: Pick<Table<unknown>, 'options'>, refs: readonly TransactItemRef[], run: () => Promise<T>): Promise<T> {
  const policy: RetryPolicy = table.options.retry ?? {};
  const max = policy.maxAttempts ?? 8;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(table, run);
    } catch (error) {
      const reasons = cancellationReasons(error, refs);
      if (!reasons) throw error;
      if (reasons.length === 0 || !reasons.every((r) => RETRIED_REASONS.has(r.code)) || attempt >= max) {
        throw new TransactionCanceledError(reasons, error);
      }
      await backoff(policy, attempt);
    }
  }
}
