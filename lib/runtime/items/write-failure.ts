// Why a conditional write was refused. A write's condition joins up to four parts with AND: the
// item's existence (create / replace / update / mustExist), the version a versioned entity expects,
// inputs read for `readMissing`, and the caller's own condition. When the write asked DynamoDB for
// the stored item on failure (ReturnValuesOnConditionCheckFailure: ALL_OLD, which it does whenever
// there is more than existence to tell apart), the stored item says which part failed. A version
// conflict is told by the table's maintained-write hooks (version-timestamps.ts) and a failed
// condition of the caller's by that condition (expressions/where.ts), so a handler whose writes
// have neither carries none of their wording.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { tableKeyNames } from '../attributes/item-keys';
import { fromItem } from '../attributes/marshall';
import { valuesText } from '../attributes/values';
import type { Where } from '../expressions/where';
import type { ConditionalWriteInput, Table } from '../table/context';
import { ConditionFailedError } from '../table/errors';

/**
 * The error of a write refused by its condition; `values` hold the item's table key attributes.
 * The stored item DynamoDB returns (for a write with a version or a caller's condition) tells a
 * version conflict (the table's maintained-write hooks word it) and the caller's `condition` (it
 * words its own failure) apart from the item's existence.
 */
export function writeFailure(
  table: Table<unknown>, entityName: string, input: ConditionalWriteInput, values: Readonly<Record<string, unknown>>,
  error: { Item?: Record<string, AttributeValue> }, condition?: Where<unknown>,
): ConditionFailedError {
  const entity = table.model.entities[entityName];
  const creates = !!input.ConditionExpression?.includes('attribute_not_exists(#pk)');
  const stored = error.Item;
  const item = stored && fromItem(stored, table.strip);
  const fail = (why: string, code: 'CONDITION_FAILED' | 'VERSION_CONFLICT' = 'CONDITION_FAILED') =>
    new ConditionFailedError(code, `${valuesText(values, tableKeyNames(entity))}: ${why}`, entityName, error, item);
  return (stored && table.maintained?.conflict(entity, input, stored, creates, fail))
    || fail(condition?.failed(input, stored) ?? (creates ? 'an item with this key already exists' : 'there is no item with this key'));
}
