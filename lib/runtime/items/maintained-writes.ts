// What single-item writes add for entities with a version, timestamps or unique attributes. An
// application whose model has such an entity opens its table with these hooks
// (`openTable({ maintainedWrites })`; createClient and transactions take them themselves);
// every other handler leaves this module, and its wording of version conflicts, out of its bundle.
// The plain operations (requests.ts, update.ts, write-failure.ts) reach it only through the table.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { existenceCondition } from './requests';
import { uniqueWrite } from './unique-write';
import type { ConditionFailedError, ConditionalWriteInput } from './write-failure';
import { describe } from '../../keys/encoding';
import { EntityModel, TABLE_INDEX, TableModel } from '../../model/model';
import { SingleTableError } from '../table/errors';

type Values = Readonly<Record<string, unknown>>;

/** The placeholder of the version a versioned write expects. */
export const EXPECTED_VERSION = ':expectedVersion';

/** A condition of a single-item write, as a command input holds it. */
export interface ConditionParts {
  readonly ConditionExpression: string;
  readonly ExpressionAttributeNames: Record<string, string>;
  readonly ExpressionAttributeValues?: Record<string, AttributeValue>;
  /** Set where the stored item tells a version conflict apart. */
  readonly ReturnValuesOnConditionCheckFailure?: 'ALL_OLD';
}

/** A put as the hooks shape it: the item with the attributes the runtime keeps, and a versioned entity's condition. */
export interface MaintainedPut {
  readonly item: Values;
  /** A versioned entity: the condition of the put in `mode` (undefined: the mode's own existence condition). */
  readonly condition?: (mode: string) => ConditionParts;
}

/** An update as the hooks shape it. */
export interface MaintainedUpdate {
  /** The input with the next version and updatedAt. */
  readonly input: Values;
  /** A versioned entity: the item exists at the version the update read. */
  readonly condition?: ConditionParts;
  /** Attributes the runtime sets, which no update operator may change. */
  readonly owned: readonly string[];
}

/** How a refused write is worded: the reason, and VERSION_CONFLICT with the versions expected and stored. */
export type FailureWording = (why: string, code?: 'VERSION_CONFLICT') => ConditionFailedError;

/**
 * Hooks of single-item writes (put, update, delete) for entities with a version, timestamps or
 * unique attributes: `openTable` refuses a model with such an entity without them.
 */
export interface MaintainedWrites {
  /**
   * The write of an entity with unique attributes as a transaction with its guard writes;
   * undefined when the write touches no unique value and goes as the single-item operation.
   */
  readonly unique: typeof uniqueWrite;
  /**
   * A put's item with the next version (1 for a create) and the timestamps, and its version
   * condition, stamped `now` (ISO-8601 UTC; the current time when not given).
   */
  put(model: TableModel, entity: EntityModel, item: Values, now?: string): MaintainedPut;
  /** An update's input with the next version and updatedAt (`now`, default the current time), and its version condition. */
  update(model: TableModel, entity: EntityModel, given: Values, now?: string): MaintainedUpdate;
  /** The condition of a delete at the version the caller read. */
  deleteAt(model: TableModel, entity: EntityModel, version: number): ConditionParts;
  /** A batch put's item with the timestamps. */
  stamp(entity: EntityModel, item: Values): Values;
  /** VERSION_CONFLICT when the version is what refused the write; undefined otherwise. */
  conflict(
    entity: EntityModel, input: ConditionalWriteInput, stored: Record<string, AttributeValue>, creates: boolean, fail: FailureWording,
  ): ConditionFailedError | undefined;
}

/** The hooks to pass as `maintainedWrites` when the model has a versioned, timestamped or unique entity. */
export const maintainedWrites: MaintainedWrites = {
  unique: uniqueWrite,

  put(model, entity, item, now) {
    const version = entity.version;
    const expected = version === undefined ? undefined : expectedVersion(entity, item[version]);
    const condition = version === undefined ? undefined : (mode: string): ConditionParts => {
      if (expected === undefined && mode === 'replace') {
        throw new SingleTableError('MISSING_ATTRIBUTE', 'is the version: a replace of a versioned item gives the version it read', { entity: entity.name, attribute: version });
      }
      if (expected !== undefined && mode === 'create') {
        throw new SingleTableError('INVALID_VALUE', 'is the version: a create writes version 1; leave it out', { entity: entity.name, attribute: version });
      }
      // The stored item on failure tells a version conflict apart from the item's existence.
      return { ...(expected === undefined ? existenceCondition(model, false) : versionCondition(model, version, expected)), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' };
    };
    return { item: withMaintained(entity, item, expected, now), condition };
  },

  update(model, entity, given, now) {
    const { version, timestamps } = entity;
    const owned = [version, timestamps?.updatedAt].filter((n): n is string => n !== undefined);
    if (owned.length === 0) return { input: given, owned };
    const input: Record<string, unknown> = { ...given };
    let condition: ConditionParts | undefined;
    if (version !== undefined) {
      const expected = expectedVersion(entity, given[version]);
      if (expected === undefined) {
        throw new SingleTableError('MISSING_ATTRIBUTE', 'is the version: an update of a versioned item gives the version it read', { entity: entity.name, attribute: version });
      }
      input[version] = expected + 1;
      condition = versionCondition(model, version, expected);
    }
    if (timestamps) input[timestamps.updatedAt] = now ?? new Date().toISOString();
    return { input, condition, owned };
  },

  deleteAt(model, entity, version) {
    if (entity.version === undefined) throw new SingleTableError('INVALID_VALUE', `is not versioned: remove the version option (${version})`, { entity: entity.name });
    return versionCondition(model, entity.version, expectedVersion(entity, version)!);
  },

  stamp: (entity, item) => withMaintained(entity, item),

  conflict(entity, input, stored, creates, fail) {
    const expected = input.ExpressionAttributeValues?.[EXPECTED_VERSION]?.N;
    if (!entity.version || (!creates && expected === undefined)) return undefined;
    const actual = stored[entity.version]?.N;
    if (!creates && actual === expected) return undefined;
    const at = actual === undefined ? 'has no version' : `is at version ${actual}`;
    const fix = actual === undefined ? '' : `; read it and retry with version ${actual}`;
    const number = (n: string | undefined) => (n === undefined ? undefined : Number(n));
    const versions = { expectedVersion: number(expected), storedVersion: number(actual) };
    return Object.assign(fail(`${creates ? 'a put without a version only creates, and the item' : `the write expected version ${expected}; the item`} ${at}${fix}`,
      'VERSION_CONFLICT'), versions);
  },
};

/** The item exists at the version the write expects. */
function versionCondition(model: TableModel, attribute: string, expected: number): ConditionParts {
  return {
    ConditionExpression: `attribute_exists(#pk) AND #ver = ${EXPECTED_VERSION}`,
    ExpressionAttributeNames: { '#pk': model.indexes[TABLE_INDEX].partitionKey, '#ver': attribute },
    ExpressionAttributeValues: { [EXPECTED_VERSION]: { N: String(expected) } },
  };
}

/** The version a write states it read: a whole number from 1, or undefined when it states none. */
function expectedVersion(entity: EntityModel, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    throw new SingleTableError('INVALID_VALUE', `is the version the write expects: a whole number from 1 as read from the item, got ${describe(value)}`,
      { entity: entity.name, attribute: entity.version });
  }
  return value as number;
}

/**
 * The item with the attributes the runtime maintains: the next version (1 for a create), and the
 * timestamps (createdAt kept when the item gives it, updatedAt now).
 */
function withMaintained(entity: EntityModel, item: Values, expected?: number, now = new Date().toISOString()): Values {
  const { version, timestamps } = entity;
  if (version === undefined && !timestamps) return item;
  const out: Record<string, unknown> = { ...item };
  if (version !== undefined) out[version] = (expected ?? 0) + 1;
  if (timestamps) {
    out[timestamps.createdAt] ??= now;
    out[timestamps.updatedAt] = now;
  }
  return out;
}
