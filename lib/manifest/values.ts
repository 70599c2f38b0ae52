// Small helpers for the user's names and values: dictionaries that never reach Object.prototype,
// the name rule every user name obeys, and how a bad value is shown in a message.
import { utf8Length } from '../keys/encoding';

/**
 * A dictionary without a prototype: a lookup by any user name (`toString`, `constructor`) finds
 * only what was stored under it, and storing `__proto__` stores an entry.
 */
export function dict<T>(): { [name: string]: T } {
  return Object.create(null);
}

/** The stored value, only when it is the dictionary's own entry. */
export function own<T>(map: { readonly [name: string]: T } | undefined, name: unknown): T | undefined {
  return map !== undefined && typeof name === 'string' && Object.prototype.hasOwnProperty.call(map, name) ? map[name] : undefined;
}

/**
 * Longest name in UTF-8 bytes: DynamoDB's limit for key attribute names, projected attribute names
 * and the TTL attribute, applied to every name so any attribute can later be a key or be projected.
 */
export const MAX_NAME_BYTES = 255;

/** Why a user name is not allowed, or undefined when it is. */
export function nameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return `is ${describeType(name)}, not a string`;
  if (name.length === 0) return 'is empty';
  const bytes = utf8Length(name);
  if (bytes > MAX_NAME_BYTES) return `${describeValue(name)} is ${bytes} bytes long; names are at most ${MAX_NAME_BYTES} bytes (UTF-8)`;
  // An object literal or JSON.parse result cannot hold `__proto__` as a plain entry the way every
  // other name is held: `item.__proto__ = x` replaces the item's prototype instead.
  if (name === '__proto__') return "'__proto__' cannot be a name: JavaScript objects (items, results) cannot hold it as an ordinary property";
  return undefined;
}

/** A value as a message shows it: NaN and Infinity as such, long strings shortened. */
export function describeValue(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '0' : String(value);
  if (typeof value === 'string') {
    return value.length > 64 ? `${JSON.stringify(value.slice(0, 24) + '...')} (${value.length} characters)` : JSON.stringify(value);
  }
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.slice(0, 5).map(describeValue).join(', ')}${value.length > 5 ? ', ...' : ''}]`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/** A value's JSON type with the value: `the string "false"`, `the number NaN`, `a list`. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return `the ${typeof value} ${describeValue(value)}`;
  return String(value);
}
