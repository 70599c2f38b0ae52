// The check that a condition or filter was made with `where`: plain Condition data passed where a
// `where(...)` value belongs would otherwise fail as "not a function" deep inside a request build.
import type { Where } from './where';
import { ErrorContext, SingleTableError } from '../table/errors';

/** `value` as a `where` condition; throws INVALID_CONDITION, naming `place`, when it was not made by `where`. */
export function madeByWhere(value: unknown, place: string, context: ErrorContext): Where<unknown> {
  if (typeof (value as Partial<Where<unknown>> | undefined)?.compile !== 'function') {
    throw new SingleTableError('INVALID_CONDITION', `${place} must be made with where(...), e.g. ${place.split('.').pop()}: where({ attr: 'status', eq: 'OPEN' }); `
      + `got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'plain condition data' : typeof value}`, context);
  }
  return value as Where<unknown>;
}
