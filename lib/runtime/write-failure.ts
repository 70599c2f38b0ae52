// Why a conditional write was refused. A write's condition joins up to four parts with AND: the
// item's existence (create / replace / update / mustExist), the version a versioned entity expects,
// inputs read for `readMissing`, and the caller's own condition. When the write asked DynamoDB for
// the stored item on failure (ReturnValuesOnConditionCheckFailure: ALL_OLD, which it does whenever
// there is more than existence to tell apart), the stored item says which part failed.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { TableContext } from './context';
import { SingleTableError } from './errors';
import { tableKeyNames } from './keys';
import { fromItem } from './marshall';
import { valuesText } from './values';

/** The placeholder of the version a versioned write expects. */
export const EXPECTED_VERSION = ':expectedVersion';

/** A write refused by its condition: CONDITION_FAILED, or VERSION_CONFLICT for a versioned entity. */
export class ConditionFailedError extends SingleTableError {
  /**
   * The item as stored when the write was refused (without key and type attributes), when the
   * write asked for it (it had a condition of the caller's or a version); undefined when there was no item.
   */
  public readonly item?: Record<string, unknown>;
  /** VERSION_CONFLICT: the version the write expected; undefined for a put that only creates. */
  public readonly expectedVersion?: number;
  /** VERSION_CONFLICT: the version stored. */
  public readonly storedVersion?: number;

  constructor(code: 'CONDITION_FAILED' | 'VERSION_CONFLICT', message: string, entity: string, cause: unknown, item?: Record<string, unknown>, versions: [number?, number?] = []) {
    super(code, message, { entity, cause });
    this.name = 'ConditionFailedError';
    this.item = item;
    [this.expectedVersion, this.storedVersion] = versions;
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
  const fail = (why: string, code: 'CONDITION_FAILED' | 'VERSION_CONFLICT' = 'CONDITION_FAILED', versions?: [number?, number?]) =>
    new ConditionFailedError(code, `${valuesText(values, tableKeyNames(entity))}: ${why}`, entityName, error, item, versions);
  const exists = 'an item with this key already exists';
  const missing = 'there is no item with this key';
  if (input.ReturnValuesOnConditionCheckFailure !== 'ALL_OLD') return fail(creates ? exists : missing);
  if (!stored && condition.includes('attribute_exists(#pk)')) return fail(missing);
  const expected = input.ExpressionAttributeValues?.[EXPECTED_VERSION]?.N;
  if (stored && entity.version && (creates || expected !== undefined)) {
    const actual = stored[entity.version]?.N;
    if (creates || actual !== expected) {
      const at = actual === undefined ? 'has no version' : `is at version ${actual}`;
      const fix = actual === undefined ? '' : `; read it and retry with version ${actual}`;
      return fail(`${creates ? 'a put without a version only creates, and the item' : `the write expected version ${expected}; the item`} ${at}${fix}`,
        'VERSION_CONFLICT', [expected === undefined ? undefined : Number(expected), actual === undefined ? undefined : Number(actual)]);
    }
  }
  if (stored && creates) return fail(exists);
  return fail(`the caller's condition is false for ${stored ? 'the item as stored (the error\'s `item`)' : 'the item: there is none with this key'}`);
}
