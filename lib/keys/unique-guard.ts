// Guard items of unique attributes. The value an item holds in a unique attribute is claimed by a
// second item, the guard, whose table key is made from the entity, the attribute and the value:
// a put of the guard on `attribute_not_exists` in the item's transaction fails when another item
// holds the value.
//
// The guard's partition key starts with a segment no entity key can start with: the escape
// character followed by 'u'. Literal segments may not contain the escape character at all (the
// template parser refuses it), and an encoded string has it only before 'A' + the code of an
// escaped character, which is at most 'A' + ',' ('m', for the delimiter '+'); numbers, dates and
// booleans never hold it. So no entity's key can equal a guard's, whatever its templates and values.
import { encodeString, encodeValue } from './encoding';
import type { AttributeKind } from '../manifest/structs';

/**
 * The attribute of a guard item that holds the table key of the item holding its value (a map).
 * Its name has a character key attribute names cannot have, so no index ever reads it as a key.
 */
export const GUARD_OWNER_ATTRIBUTE = 'unique:owner';

/** The reserved first segment of every guard partition key, and the guard's sort key, for an escape character. */
export function guardMark(escapeChar: string): string {
  return `${escapeChar}unique`;
}

/** A guard's table key, or why the value has none. */
export type GuardKeyResult = { readonly pk: string; readonly sk: string } | { readonly error: string };

/**
 * The table key of the guard of `value` in `attribute` of the entity whose type value is
 * `typeValue`: `<mark>#<typeValue>#<attribute>#<value>` / `<mark>`, each part encoded as a
 * key segment (so distinct triples give distinct keys). Undefined when there is no value.
 */
export function guardKey(
  delimiter: string, escapeChar: string, typeValue: string, attribute: string, kind: AttributeKind, value: unknown,
): GuardKeyResult | undefined {
  const encoded = encodeValue(kind, value, escapeChar);
  if (encoded === undefined) return undefined;
  if (typeof encoded !== 'string') return encoded;
  const mark = guardMark(escapeChar);
  return { pk: [mark, encodeString(typeValue, escapeChar), encodeString(attribute, escapeChar), encoded].join(delimiter), sk: mark };
}

/** Whether a table partition key value is a guard's. */
export function isGuardKey(pk: string, delimiter: string, escapeChar: string): boolean {
  return pk.startsWith(guardMark(escapeChar) + delimiter);
}
