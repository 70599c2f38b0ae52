// Typed runtime errors. Every failure the runtime detects itself is raised before any network
// call and names the entity or pattern, the attribute and the rule it broke; `code` is stable so
// callers can branch on it without parsing messages.

/** Stable error codes of the runtime. */
export type RuntimeErrorCode =
  | 'TABLE_NAME_MISSING'
  | 'MANIFEST_MISMATCH'
  | 'INVALID_MODEL'
  | 'UNKNOWN_ENTITY'
  | 'UNKNOWN_PATTERN'
  | 'UNKNOWN_ATTRIBUTE'
  | 'MISSING_ATTRIBUTE'
  | 'INVALID_VALUE'
  | 'KEY_TOO_LARGE'
  | 'PARTIAL_INDEX_UPDATE'
  | 'INVALID_QUERY_INPUT'
  | 'CONSISTENT_READ_ON_GSI'
  | 'INVALID_CURSOR'
  | 'SHARDED_PATTERN'
  | 'DUPLICATE_BATCH_KEY'
  | 'CONDITION_FAILED'
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
  public readonly code: RuntimeErrorCode;
  public readonly entity?: string;
  public readonly pattern?: string;
  public readonly attribute?: string;

  constructor(code: RuntimeErrorCode, message: string, context: ErrorContext = {}) {
    const where = [
      context.entity && `entity ${context.entity}`,
      context.pattern && `pattern ${context.pattern}`,
      context.attribute && `attribute ${context.attribute}`,
    ].filter(Boolean).join(', ');
    super(`[${code}] ${where ? where + ': ' : ''}${message}`, context.cause === undefined ? undefined : { cause: context.cause });
    this.name = 'SingleTableError';
    this.code = code;
    this.entity = context.entity;
    this.pattern = context.pattern;
    this.attribute = context.attribute;
  }
}

/** A batch that still had unprocessed requests after every retry; lists exactly those. */
export class UnprocessedError<T> extends SingleTableError {
  /** The requests DynamoDB never processed, as the caller passed them. */
  public readonly unprocessed: T[];

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
