// Typed runtime errors. Every failure the runtime detects itself is raised before any network
// call and names the entity or pattern, the attribute and the rule it broke; `code` is stable so
// callers can branch on it without parsing messages.

/** Stable error codes of the runtime. */
export type RuntimeErrorCode =
  | 'TABLE_NAME_MISSING'
  /** The model has a versioned, timestamped or unique entity and the table was opened without `maintainedWrites`. */
  | 'MAINTAINED_WRITES_MISSING'
  | 'MANIFEST_MISMATCH'
  /** `deployedModel` found no SINGLE_TABLE_MODEL: the function was not connected with `SingleTable.connect`. */
  | 'MODEL_MISSING'
  /** A compiled model file that cannot be read or parsed, or of another format or version. */
  | 'INVALID_MODEL'
  | 'UNKNOWN_ENTITY'
  | 'UNKNOWN_PATTERN'
  | 'UNKNOWN_ATTRIBUTE'
  | 'MISSING_ATTRIBUTE'
  | 'INVALID_VALUE'
  | 'KEY_TOO_LARGE'
  /** A transaction was cancelled: TransactionCanceledError lists each action's reason. */
  | 'TRANSACTION_CANCELLED'
  /** A write would give a unique attribute's value to a second item: TransactionCanceledError names the entity, attribute and value. */
  | 'UNIQUE_VIOLATION'
  /** A single-item write of an entity with unique attributes, whose guard items only a transaction keeps. */
  | 'UNIQUE_NEEDS_TRANSACTION'
  /** A transaction holds more than 100 actions (guard items counted), or none. */
  | 'TRANSACTION_TOO_LARGE'
  /** Two actions of one transaction act on the same item, which DynamoDB rejects (a guard two actions touch is one request). */
  | 'DUPLICATE_TRANSACTION_ITEM'
  /** A transaction's token was used within 10 minutes for a transaction with other content (a resend reads its first send's time back first). */
  | 'TOKEN_REUSED'
  | 'PARTIAL_INDEX_UPDATE'
  | 'INVALID_QUERY_INPUT'
  | 'CONSISTENT_READ_ON_GSI'
  | 'INVALID_CURSOR'
  | 'DUPLICATE_BATCH_KEY'
  /** A condition (of a write, or a filter) names an unknown operator, is empty, or applies an operator to a kind it does not fit. */
  | 'INVALID_CONDITION'
  /**
   * A put's, update's or delete's condition on the item's existence failed. A create-only put whose
   * first answer was lost and that the SDK retried fails so on its own write: read the item back
   * (consistently) and compare, or store a request id in the item to recognise it.
   */
  | 'CONDITION_FAILED'
  /** A stream record without the fields DynamoDB Streams writes (eventName, dynamodb.Keys). */
  | 'INVALID_STREAM_RECORD'
  /** A write to a versioned entity expected another version than the stored one (ConditionFailedError has both). */
  | 'VERSION_CONFLICT'
  /** A batch left requests not known to be processed: see UnprocessedError. */
  | 'UNPROCESSED';

/** Where an error applies: the entity or pattern, and the attribute. */
export interface ErrorContext {
  readonly entity?: string;
  readonly pattern?: string;
  readonly attribute?: string;
  readonly cause?: unknown;
}

/** An error raised by the runtime, with a stable `code`. */
export class SingleTableError extends Error {
  declare public readonly code: RuntimeErrorCode;
  declare public readonly entity?: string;
  declare public readonly pattern?: string;
  declare public readonly attribute?: string;

  constructor(code: RuntimeErrorCode, message: string, { entity, pattern, attribute, cause }: ErrorContext = {}) {
    const where = [entity && `entity ${entity}`, pattern && `pattern ${pattern}`, attribute && `attribute ${attribute}`].filter(Boolean).join(', ');
    super(`[${code}] ${where && where + ': '}${message}`, cause === undefined ? undefined : { cause });
    Object.assign(this, { name: 'SingleTableError', code, entity, pattern, attribute });
  }
}

/**
 * A batch that still had requests not known to be processed after every retry.
 *
 * `unprocessed` lists, as the caller passed them, every request the runtime cannot show to be
 * done: the ones DynamoDB handed back as unprocessed, the chunks never sent, and every request of
 * a call that failed without an answer. That last group may have been applied: when a connection
 * resets or a 500 arrives after DynamoDB wrote the batch, the runtime cannot tell, so it lists
 * them. A request is left out only when DynamoDB answered that it was processed; nothing is
 * dropped silently.
 *
 * Resending the list is safe for BatchWriteItem: its puts and deletes carry no condition, so a
 * request applied twice leaves the item as applying it once does (unless another writer changed
 * the item in between; a put then overwrites that change). Keys of a BatchGetItem can be read again.
 */
export class UnprocessedError<T> extends SingleTableError {
  /** Every request not known to be processed, as the caller passed them; may include requests that were applied but whose answer was lost. */
  declare public readonly unprocessed: T[];

  constructor(operation: string, unprocessed: T[], attempts: number, cause?: unknown) {
    const reason = cause instanceof Error ? ` (last error: ${cause.name}: ${cause.message})` : '';
    super('UNPROCESSED', `${operation} left ${unprocessed.length} request(s) unprocessed after ${attempts} attempt(s)${reason}: ${JSON.stringify(unprocessed, jsonSafe)}`, { cause });
    this.name = 'UnprocessedError';
    this.unprocessed = unprocessed;
  }
}

/** JSON.stringify throws on a bigint (a LIST or MAP may hold one), and writes a Set as {}. */
function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  return value instanceof Set ? [...value] : value;
}

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
