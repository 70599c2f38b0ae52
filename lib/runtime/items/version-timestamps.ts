// What single-item writes add for entities with a version or timestamps: the next version and its
// condition, the timestamps, and the wording of a version conflict. Part of the hooks an
// application passes as `maintainedWrites` (maintained-writes.ts); transactions take these
// themselves (transact/plan.ts). The plain operations (requests.ts, update.ts, write-failure.ts)
// reach them only through the table, so a handler without such an entity leaves them out.
import { existenceCondition } from './requests';
import { describe } from '../../keys/encoding';
import { EntityModel, TABLE_INDEX, TableModel } from '../../model/model';
import type { ConditionParts, VersionTimestampHooks } from '../table/context';
import { SingleTableError } from '../table/errors';

type Values = Readonly<Record<string, unknown>>;

/** The placeholder of the version a versioned write expects. */
export const EXPECTED_VERSION = ':expectedVersion';

/** The hooks of versioned and timestamped entities' writes. */
export const versionTimestampHooks: VersionTimestampHooks = {
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
