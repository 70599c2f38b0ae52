// Why a conditional write was refused. A write's condition joins up to four parts with AND: the
// item's existence (create / replace / update / mustExist), the version a versioned entity expects,
// inputs read for `readMissing`, and the caller's own condition. When the write asked DynamoDB for
// the stored item on failure (ReturnValuesOnConditionCheckFailure: ALL_OLD, which it does whenever
// there is more than existence to tell apart), the stored item says which part failed. A version
// conflict is told by the table's maintained-write hooks (maintained-writes.ts), so a handler of
// a model without versions carries none of its wording.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { TableContext } from './context';
import { SingleTableError } from './errors';
import { tableKeyNames } from './keys';
import { fromItem } from './marshall';
import { valuesText } from './values';

/** A write refused by its condition: CONDITION_FAILED, or VERSION_CONFLICT for a versioned entity. */
export class ConditionFailedError extends SingleTableError {
  /**
   * The item as stored when the write was refused (without key and type attributes), when the
   * write asked for it (it had a condition of the caller's or a version); undefined when there was no item.
   */
  public readonly item?: Record<string, unknown>;
  // Declared only: the maintained-write hooks set them on a VERSION_CONFLICT, so the class emits no code for them.
  /** VERSION_CONFLICT: the version the write expected; undefined for a put that only creates. */
  declare public readonly expectedVersion?: number;
  /** VERSION_CONFLICT: the version stored. */
  declare public readonly storedVersion?: number;

  constructor(code: 'CONDITION_FAILED' | 'VERSION_CONFLICT', message: string, entity: string, cause: unknown, item?: Record<string, unknown>) {
    super(code, message, { entity, cause });
    this.name = 'ConditionFailedError';
    this.item = item;
  }
}

/** What of a write's input tells its condition's parts apart. */
export interface ConditionalWriteInput {
  readonly ConditionExpression?: string;
  readonly ExpressionAttributeValues?: Record<string, AttributeValue>;
  readonly ReturnValuesOnConditionCheckFailure?: string;
}

/** The error of a write refused by its condition; `values` hold the item's table key attributes. */
export function writeFailure(
  table: TableContext<unknown>, entityName: string, input: ConditionalWriteInput, values: Readonly<Record<string, unknown>>,
  error: { Item?: Record<string, AttributeValue> },
): ConditionFailedError {
  const entity = table.model.entities[entityName];
  const condition = input.ConditionExpression ?? '';
  const creates = condition.includes('attribute_not_exists(#pk)');
  const stored = error.Item;
  const item = stored && fromItem(stored, table.strip);
  const fail = (why: string, code: 'CONDITION_FAILED' | 'VERSION_CONFLICT' = 'CONDITION_FAILED') =>
    new ConditionFailedError(code, `${valuesText(values, tableKeyNames(entity))}: ${why}`, entityName, error, item);
  const exists = 'an item with this key already exists';
  const missing = 'there is no item with this key';
  if (input.ReturnValuesOnConditionCheckFailure !== 'ALL_OLD') return fail(creates ? exists : missing);
  if (!stored && condition.includes('attribute_exists(#pk)')) return fail(missing);
  const conflict = stored && table.maintained?.conflict(entity, input, stored, creates, fail);
  if (conflict) return conflict;
  if (stored && creates) return fail(exists);
  return fail(`the caller's condition is false for ${stored ? 'the item as stored (the error\'s `item`)' : 'the item: there is none with this key'}`);
}
