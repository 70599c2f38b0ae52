// Attribute values checked against their declared kinds and converted to AttributeValues.
// Runs before any key is composed, so a bad value is reported with its entity and attribute
// rather than as a DynamoDB validation error later.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { setValue, storableNumber, toAttributeValue } from './marshall';
import { DATE_RULE, mustBe, normalizeDate } from '../../keys/encoding';
import { didYouMean } from '../../model/closest-name';
import type { AttributeModel, EntityModel, TableModel } from '../../model/model';
import { SingleTableError } from '../table/errors';

/** The entity of a name, or an error listing the known ones. */
export function entityOf(model: TableModel, name: string): EntityModel {
  // Own properties only: a name such as 'constructor' must not find Object.prototype's member.
  const entity = Object.hasOwn(model.entities, name) ? model.entities[name] : undefined;
  if (!entity) {
    throw new SingleTableError('UNKNOWN_ENTITY', `is not declared in the manifest; ${didYouMean(name, Object.keys(model.entities))}known entities: ${Object.keys(model.entities).join(', ')}`, { entity: String(name) });
  }
  return entity;
}

/**
 * How the runtime checks and stores one attribute kind. One object per kind, so code that knows
 * its entities' kinds (a generated access module) carries only those kinds' checks.
 */
export interface ValueKind {
  /** What a value must be, as INVALID_VALUE says it. */
  readonly rule: string;
  /** The AttributeValue of a value; false or undefined when the value is not of the kind. */
  readonly value: (value: unknown) => AttributeValue | false | undefined;
}

export const STRING_KIND: ValueKind = { rule: 'a string', value: (v) => typeof v === 'string' && { S: v } };
export const NUMBER_KIND: ValueKind = {
  rule: 'a finite number DynamoDB can store (0, or magnitude 1e-130 to below 1e126)',
  value: (v) => storableNumber(v) && { N: String(v) },
};
export const BOOLEAN_KIND: ValueKind = { rule: 'a boolean', value: (v) => typeof v === 'boolean' && { BOOL: v } };
export const DATE_KIND: ValueKind = {
  // A plain reference: a template over another module's constant would keep this object in bundles that never use it.
  rule: DATE_RULE,
  value: (v) => {
    const iso = normalizeDate(v);
    return iso !== undefined && { S: iso };
  },
};
export const LIST_KIND: ValueKind = { rule: 'an array of storable values', value: (v) => Array.isArray(v) && toAttributeValue(v) };
export const MAP_KIND: ValueKind = { rule: 'a plain object of storable values', value: (v) => isPlainObject(v) && toAttributeValue(v) };
export const STRING_SET_KIND: ValueKind = { rule: 'a non-empty Set of strings', value: (v) => v instanceof Set && setValue(v, 'string') };
export const NUMBER_SET_KIND: ValueKind = { rule: 'a non-empty Set of storable numbers', value: (v) => v instanceof Set && setValue(v, 'number') };

/** The kind of each AttributeKind. */
export const VALUE_KINDS: Readonly<Record<string, ValueKind>> = {
  STRING: STRING_KIND,
  NUMBER: NUMBER_KIND,
  BOOLEAN: BOOLEAN_KIND,
  DATE: DATE_KIND,
  LIST: LIST_KIND,
  MAP: MAP_KIND,
  STRING_SET: STRING_SET_KIND,
  NUMBER_SET: NUMBER_SET_KIND,
};

/** The AttributeValue of one attribute's value; throws INVALID_VALUE naming the rule. */
export function attributeValue(entity: EntityModel, attr: AttributeModel, value: unknown): AttributeValue {
  return checkedValue(entity.name, attr.name, VALUE_KINDS[attr.type], value);
}

/** The AttributeValue of a value of a kind; throws INVALID_VALUE naming the entity, the attribute and the rule. */
export function checkedValue(entity: string, attribute: string, kind: ValueKind, value: unknown): AttributeValue {
  const av = kind.value(value);
  if (!av) throw new SingleTableError('INVALID_VALUE', mustBe(kind.rule, value), { entity, attribute });
  return av;
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Set) && !(value instanceof Date);
}

/**
 * Named values as the caller wrote them, for messages: `(price: 100, sku: "a")`. Their key
 * encodings (`PRICE#P5021`) mean nothing to the caller.
 */
export function valuesText(values: Readonly<Record<string, unknown>>, names: readonly string[]): string {
  return `(${names.map((name) => `${name}: ${valueText(values[name])}`).join(', ')})`;
}

function valueText(value: unknown): string {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (typeof value === 'bigint') return `${value}n`;
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** Declared attribute of an entity, or UNKNOWN_ATTRIBUTE. */
export function attributeOf(entity: EntityModel, name: string): AttributeModel {
  const attr = Object.hasOwn(entity.attributes, name) ? entity.attributes[name] : undefined;
  if (!attr) throw unknownAttribute(entity.name, name, Object.keys(entity.attributes));
  return attr;
}

function unknownAttribute(entity: string, name: string, declared: readonly string[]): SingleTableError {
  return new SingleTableError('UNKNOWN_ATTRIBUTE', `is not declared; ${didYouMean(name, declared)}declared attributes: ${declared.join(', ')}`, { entity, attribute: name });
}

/**
 * One declared attribute as item conversion reads it: its name, its kind, and whether it is
 * optional (a tuple: generated modules hold many, and most attributes are required).
 */
export type AttributeSlot = readonly [name: string, kind: ValueKind, optional?: boolean];

/**
 * Converts a whole item: every given attribute declared and of its kind, every required one
 * present. `undefined` values count as not given.
 */
export function itemAttributes(entity: EntityModel, input: Readonly<Record<string, unknown>>): Record<string, AttributeValue> {
  return convertItem(entity.name, input, attributeList(entity), {});
}

/** `itemAttributes` over an entity's attributes in declaration order, written into `item` (an empty object). */
export function convertItem(
  entity: string, input: Readonly<Record<string, unknown>>, attributes: readonly AttributeSlot[], item: Record<string, AttributeValue>,
): Record<string, AttributeValue> {
  if (typeof input !== 'object' || input === null) {
    throw new SingleTableError('INVALID_VALUE', 'the item ' + mustBe('an object', input), { entity });
  }
  // Walks the declared attributes (a short, fixed list) rather than the input's keys; the input
  // then holds an unknown attribute exactly when it has more defined keys than were converted.
  let converted = 0;
  for (const [name, kind, optional] of attributes) {
    const value = input[name];
    if (value === undefined) {
      if (!optional) throw new SingleTableError('MISSING_ATTRIBUTE', 'is required', { entity, attribute: name });
      continue;
    }
    item[name] = checkedValue(entity, name, kind, value);
    converted++;
  }
  if (Object.keys(input).length !== converted) {
    const names = attributes.map((a) => a[0]);
    for (const name in input) if (input[name] !== undefined && !names.includes(name)) throw unknownAttribute(entity, name, names);
  }
  return item;
}

const attributeLists = new WeakMap<EntityModel, AttributeSlot[]>();

/** The entity's attributes as slots, built once per entity (the model is frozen). */
function attributeList(entity: EntityModel): AttributeSlot[] {
  let list = attributeLists.get(entity);
  if (!list) {
    list = Object.values(entity.attributes).map((a) => [a.name, VALUE_KINDS[a.type], !a.required]);
    attributeLists.set(entity, list);
  }
  return list;
}
