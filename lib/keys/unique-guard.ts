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
//
// A scoped attribute's guards (unique per tenant) start with the items' partition key prefix up to the
// scope value, `TENANT#acme#<mark>#...`: the mark segment still tells them from every entity key
// (no segment of an entity key can be it), and the prefix puts them under the tenant's LeadingKeys.
import { encodeString, encodeValue, SegmentResult } from './encoding';
import type { AttributeKind } from '../model/manifest';
import type { KeyTemplateModel } from '../model/model';

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
 * `typeValue`: `[<scope>#]<mark>#<typeValue>#<attribute>#<value>` / `<mark>`, each part encoded
 * as a key segment (so distinct scopes and triples give distinct keys). `scope` is the prefix
 * `scopePrefix` composes, for a scoped attribute. Undefined when there is no value.
 */
export function guardKey(
  delimiter: string, escapeChar: string, typeValue: string, attribute: string, kind: AttributeKind, value: unknown, scope?: string,
): GuardKeyResult | undefined {
  const encoded = encodeValue(kind, value, escapeChar);
  if (encoded === undefined) return undefined;
  if (typeof encoded !== 'string') return encoded;
  const mark = guardMark(escapeChar);
  const parts = [mark, encodeString(typeValue, escapeChar), encodeString(attribute, escapeChar), encoded];
  return { pk: (scope === undefined ? parts : [scope, ...parts]).join(delimiter), sk: mark };
}

/**
 * The partition key prefix of a scoped attribute's guards: the template's literals before the scope
 * attribute and its encoded value (`TENANT#acme`), as the entity's own keys start. Undefined
 * without a value; the manifest rules ensure only literals precede the scope attribute.
 */
export function scopePrefix(template: KeyTemplateModel, scope: string, value: unknown, delimiter: string, escapeChar: string): SegmentResult {
  const at = template.segments.findIndex((s) => s.attribute === scope);
  const encoded = encodeValue(template.segments[at].kind!, value, escapeChar);
  if (typeof encoded !== 'string') return encoded;
  return [...template.segments.slice(0, at).map((s) => s.literal!), encoded].join(delimiter);
}

/** Whether a table partition key value is a guard's: one of its segments is the mark. */
export function isGuardKey(pk: string, delimiter: string, escapeChar: string): boolean {
  return pk.split(delimiter).includes(guardMark(escapeChar));
}
