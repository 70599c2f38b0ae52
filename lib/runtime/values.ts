// Attribute values checked against their declared kinds and converted to AttributeValues.
// Runs before any key is composed, so a bad value is reported with its entity and attribute
// rather than as a DynamoDB validation error later.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { SingleTableError } from './errors';
import { setValue, storableNumber, toAttributeValue } from './marshall';
import { describe, normalizeDate } from '../keys/encoding';
import type { AttributeModel, EntityModel, TableModel } from '../manifest/model';

/** The entity of a name, or an error listing the known ones. */
export function entityOf(model: TableModel, name: string): EntityModel {
  // Own properties only: a name such as 'constructor' must not find Object.prototype's member.
  const entity = Object.hasOwn(model.entities, name) ? model.entities[name] : undefined;
  if (!entity) {
    throw new SingleTableError('UNKNOWN_ENTITY', `is not declared in the manifest; known entities: ${Object.keys(model.entities).join(', ')}`, { entity: String(name) });
  }
  return entity;
}

/** The AttributeValue of one attribute's value; throws INVALID_VALUE naming the rule. */
export function attributeValue(entity: EntityModel, attr: AttributeModel, value: unknown): AttributeValue {
  let av: AttributeValue | false | undefined;
  switch (attr.type) {
    case 'STRING': av = typeof value === 'string' && { S: value }; break;
    case 'NUMBER': av = storableNumber(value) && { N: String(value) }; break;
    case 'BOOLEAN': av = typeof value === 'boolean' && { BOOL: value }; break;
    case 'DATE': {
      const iso = normalizeDate(value);
      av = iso !== undefined && { S: iso };
      break;
    }
    case 'LIST': av = Array.isArray(value) && toAttributeValue(value); break;
    case 'MAP': av = isPlainObject(value) && toAttributeValue(value); break;
    case 'STRING_SET': av = value instanceof Set && setValue(value, 'string'); break;
    case 'NUMBER_SET': av = value instanceof Set && setValue(value, 'number'); break;
  }
  if (!av) {
    throw new SingleTableError('INVALID_VALUE', `must be ${KIND_RULES[attr.type]}, got ${describe(value)}`, { entity: entity.name, attribute: attr.name });
  }
  return av;
}

/** What a value of each kind must be, for messages. */
export const KIND_RULES: Readonly<Record<string, string>> = {
  STRING: 'a string',
  NUMBER: 'a finite number DynamoDB can store (0, or magnitude 1e-130 to below 1e126)',
  BOOLEAN: 'a boolean',
  DATE: 'a Date or an ISO-8601 date string (stored as ISO-8601 UTC)',
  LIST: 'an array of storable values',
  MAP: 'a plain object of storable values',
  STRING_SET: 'a non-empty Set of strings',
  NUMBER_SET: 'a non-empty Set of storable numbers',
};

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
  if (!attr) {
    throw new SingleTableError('UNKNOWN_ATTRIBUTE', `is not declared; declared attributes: ${Object.keys(entity.attributes).join(', ')}`, { entity: entity.name, attribute: name });
  }
  return attr;
}

/**
 * Converts a whole item: every given attribute declared and of its kind, every required one
 * present. `undefined` values count as not given.
 */
export function itemAttributes(entity: EntityModel, input: Readonly<Record<string, unknown>>): Record<string, AttributeValue> {
  if (typeof input !== 'object' || input === null) {
    throw new SingleTableError('INVALID_VALUE', `the item must be an object, got ${describe(input)}`, { entity: entity.name });
  }
  const item: Record<string, AttributeValue> = {};
  // Walks the declared attributes (a short, fixed list) rather than the input's keys; the input
  // then holds an unknown attribute exactly when it has more defined keys than were converted.
  let converted = 0;
  for (const attr of attributeList(entity)) {
    const value = input[attr.name];
    if (value === undefined) {
      if (attr.required) throw new SingleTableError('MISSING_ATTRIBUTE', 'is required', { entity: entity.name, attribute: attr.name });
      continue;
    }
    item[attr.name] = attributeValue(entity, attr, value);
    converted++;
  }
  if (Object.keys(input).length !== converted) {
    for (const name in input) if (input[name] !== undefined) attributeOf(entity, name);
  }
  return item;
}

const attributeLists = new WeakMap<EntityModel, AttributeModel[]>();

/** The entity's attributes as an array, built once per entity (the model is frozen). */
function attributeList(entity: EntityModel): AttributeModel[] {
  let list = attributeLists.get(entity);
  if (!list) attributeLists.set(entity, list = Object.values(entity.attributes));
  return list;
}
