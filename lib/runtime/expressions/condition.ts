// Conditions as plain typed data (`{ attr: 'status', eq: 'OPEN' }`, `{ and: [...] }`), compiled
// to a DynamoDB condition expression whose attribute names and values are all placeholders.
// Every node is checked before anything is sent: the attribute is declared, the operator applies
// to its kind, the value has its kind (dates normalized as they are stored), so a bad condition
// fails naming its place (`condition.and[1].attr`) instead of as a ValidationException.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { ExpressionRefs } from './refs';
import { describe } from '../../keys/encoding';
import { didYouMean } from '../../model/closest-name';
import type { AttributeModel, EntityModel } from '../../model/model';
import { storableNumber, toAttributeValue } from '../attributes/marshall';
import { attributeValue, VALUE_KINDS } from '../attributes/values';
import { SingleTableError } from '../table/errors';

type Ordered = string | number | Date;

/** One operator on an attribute whose values have type V; which ones apply follows from V. */
export type AttributeOperator<V> =
  | { readonly eq: V }
  | { readonly ne: V }
  | { readonly in: readonly V[] }
  | { readonly exists: boolean }
  | ([V] extends [Ordered]
    ? { readonly lt: V } | { readonly lte: V } | { readonly gt: V } | { readonly gte: V } | { readonly between: readonly [V, V] }
    : never)
  | ([V] extends [string | Date] ? { readonly beginsWith: string } : never)
  | ([V] extends [string] ? { readonly contains: string }
    : [V] extends [Set<infer T>] ? { readonly contains: T }
      : [V] extends [readonly unknown[]] ? { readonly contains: unknown } : never);

/** A comparison of a number (an attribute's size) with a bound. */
export type SizeComparison =
  | { readonly eq: number }
  | { readonly ne: number }
  | { readonly lt: number }
  | { readonly lte: number }
  | { readonly gt: number }
  | { readonly gte: number }
  | { readonly between: readonly [number, number] };

/** Attributes that have a size: strings (dates too), lists, maps and sets. */
type SizedName<Item> = { [K in keyof Item]-?: NonNullable<Item[K]> extends number | boolean ? never : K }[keyof Item] & string;

/**
 * A condition on an item of type `Item`: `{ attr, <operator> }`, `{ size, <comparison> }`, or
 * `and` / `or` of conditions, or `not` of one.
 */
export type Condition<Item> =
  | { [K in keyof Item & string]-?: { readonly attr: K } & AttributeOperator<NonNullable<Item[K]>> }[keyof Item & string]
  | ({ readonly size: SizedName<Item> } & SizeComparison)
  | { readonly and: readonly Condition<Item>[] }
  | { readonly or: readonly Condition<Item>[] }
  | { readonly not: Condition<Item> };

const COMPARISONS: Readonly<Record<string, string>> = { eq: '=', ne: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' };
const ATTRIBUTE_OPERATORS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'between', 'in', 'exists', 'beginsWith', 'contains'];
const SIZE_OPERATORS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'between'];
/** Kinds stored as strings or numbers: the ones DynamoDB orders. */
const ORDERED_KINDS = ['STRING', 'NUMBER', 'DATE'];
const SIZED_KINDS = ['STRING', 'DATE', 'LIST', 'MAP', 'STRING_SET', 'NUMBER_SET'];
/** DynamoDB's limit on the values of one IN. */
const MAX_IN_VALUES = 100;

/** One attribute of the condition, as each entity that declares it declares it. */
interface Declared {
  readonly name: string;
  readonly path: string;
  readonly entities: readonly EntityModel[];
  /** Per declaring entity, its attribute model (same order as `entities`). */
  readonly attrs: readonly AttributeModel[];
}

/**
 * Compiles a condition to a condition expression, its placeholders added to `refs`. An attribute
 * is resolved in any of `entities` (a filter over several entities); `place` names the condition
 * in error messages (`condition`, `filter`).
 */
export function compileCondition(entities: readonly EntityModel[], condition: unknown, refs: ExpressionRefs, place = 'condition'): string {
  return compileNode(entities, condition, refs, place);
}

function compileNode(entities: readonly EntityModel[], node: unknown, refs: ExpressionRefs, path: string): string {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) throw invalid(entities, path, `must be a condition object, got ${describe(node)}`);
  const record = node as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => record[k] !== undefined);
  for (const logical of ['and', 'or'] as const) {
    if (!keys.includes(logical)) continue;
    onlyKey(entities, path, keys, logical);
    const list = record[logical];
    if (!Array.isArray(list) || list.length === 0) throw invalid(entities, `${path}.${logical}`, `must be a non-empty array of conditions, got ${describe(list)}`);
    const parts = list.map((child, i) => compileNode(entities, child, refs, `${path}.${logical}[${i}]`));
    return parts.length === 1 ? parts[0] : parts.map((p) => `(${p})`).join(logical === 'and' ? ' AND ' : ' OR ');
  }
  if (keys.includes('not')) {
    onlyKey(entities, path, keys, 'not');
    return `NOT (${compileNode(entities, record.not, refs, `${path}.not`)})`;
  }
  if (keys.includes('attr')) return compileAttribute(entities, record, keys, refs, path);
  if (keys.includes('size')) return compileSize(entities, record, keys, refs, path);
  throw invalid(entities, path, `must have one of attr, size, and, or, not; got ${keys.length ? keys.join(', ') : 'no key'}`);
}

function compileAttribute(
  entities: readonly EntityModel[], node: Record<string, unknown>, keys: string[], refs: ExpressionRefs, path: string,
): string {
  const attr = declared(entities, node.attr, `${path}.attr`);
  const op = operatorOf(entities, path, keys, 'attr', ATTRIBUTE_OPERATORS);
  const operand = node[op];
  const at = `${path}.${op}`;
  const name = refs.name(attr.name);
  if (op in COMPARISONS) {
    const kinds = op === 'eq' || op === 'ne' ? undefined : ORDERED_KINDS;
    if (kinds) ofKinds(attr, op, kinds);
    return `${name} ${COMPARISONS[op]} ${refs.value(valueOf(attr, operand, at, kinds))}`;
  }
  switch (op) {
    case 'between': {
      ofKinds(attr, op, ORDERED_KINDS);
      const [low, high] = bounds(entities, operand, at, (v, i) => valueOf(attr, v, `${at}[${i}]`, ORDERED_KINDS));
      return `${name} BETWEEN ${refs.value(low)} AND ${refs.value(high)}`;
    }
    case 'in': {
      if (!Array.isArray(operand) || operand.length === 0 || operand.length > MAX_IN_VALUES) {
        throw invalid(entities, at, `must be an array of 1 to ${MAX_IN_VALUES} values (DynamoDB's limit for IN), got ${Array.isArray(operand) ? `${operand.length} values` : describe(operand)}`);
      }
      return `${name} IN (${operand.map((v, i) => refs.value(valueOf(attr, v, `${at}[${i}]`))).join(', ')})`;
    }
    case 'exists':
      if (typeof operand !== 'boolean') throw invalid(entities, at, `must be true or false, got ${describe(operand)}`);
      return `${operand ? 'attribute_exists' : 'attribute_not_exists'}(${name})`;
    case 'beginsWith': {
      ofKinds(attr, op, ['STRING', 'DATE']);
      if (typeof operand !== 'string') throw invalid(entities, at, `must be a string prefix, got ${describe(operand)}`, attr.name);
      return `begins_with(${name}, ${refs.value({ S: operand })})`;
    }
    default: { // contains
      const kind = ofKinds(attr, op, ['STRING', 'STRING_SET', 'NUMBER_SET', 'LIST']);
      let av: AttributeValue | undefined;
      if (kind === 'STRING' || kind === 'STRING_SET') av = typeof operand === 'string' ? { S: operand } : undefined;
      else if (kind === 'NUMBER_SET') av = storableNumber(operand) ? { N: String(operand) } : undefined;
      else av = toAttributeValue(operand);
      if (!av) throw invalid(entities, at, `must be ${CONTAINS_RULES[kind]}, got ${describe(operand)}`, attr.name);
      return `contains(${name}, ${refs.value(av)})`;
    }
  }
}

const CONTAINS_RULES: Readonly<Record<string, string>> = {
  STRING: 'a string (a substring)',
  STRING_SET: 'a string (a member)',
  NUMBER_SET: 'a storable number (a member)',
  LIST: 'a storable value (an element)',
};

function compileSize(entities: readonly EntityModel[], node: Record<string, unknown>, keys: string[], refs: ExpressionRefs, path: string): string {
  const attr = declared(entities, node.size, `${path}.size`);
  ofKinds(attr, 'size', SIZED_KINDS);
  const op = operatorOf(entities, path, keys, 'size', SIZE_OPERATORS);
  const at = `${path}.${op}`;
  const number = (v: unknown, where: string): AttributeValue => {
    if (!storableNumber(v)) throw invalid(entities, where, `must be a number (a size in bytes or elements), got ${describe(v)}`, attr.name);
    return { N: String(v) };
  };
  const size = `size(${refs.name(attr.name)})`;
  if (op === 'between') {
    const [low, high] = bounds(entities, node.between, at, (v, i) => number(v, `${at}[${i}]`));
    return `${size} BETWEEN ${refs.value(low)} AND ${refs.value(high)}`;
  }
  return `${size} ${COMPARISONS[op]} ${refs.value(number(node[op], at))}`;
}

/** The attribute a node names, from every entity that declares it. */
function declared(entities: readonly EntityModel[], name: unknown, path: string): Declared {
  if (typeof name !== 'string') throw invalid(entities, path, `must be an attribute name, got ${describe(name)}`);
  const owners = entities.filter((e) => Object.hasOwn(e.attributes, name));
  if (owners.length === 0) {
    const known = [...new Set(entities.flatMap((e) => Object.keys(e.attributes)))];
    throw new SingleTableError('UNKNOWN_ATTRIBUTE', `${path}: is not declared; ${didYouMean(name, known)}declared attributes: ${known.join(', ')}`, { entity: entityNames(entities), attribute: name });
  }
  return { name, path, entities: owners, attrs: owners.map((e) => e.attributes[name]) };
}

/** The one operator of a node beside its `attr` or `size`. */
function operatorOf(entities: readonly EntityModel[], path: string, keys: string[], subject: string, allowed: readonly string[]): string {
  const ops = keys.filter((k) => k !== subject);
  const unknown = ops.filter((k) => !allowed.includes(k));
  if (unknown.length || ops.length !== 1) {
    const what = unknown.length ? `has ${unknown.map((k) => JSON.stringify(k)).join(', ')}, not an operator` : `has ${ops.length ? ops.join(', ') : 'no operator'}`;
    throw invalid(entities, path, `${what}: a ${subject} condition takes exactly one of ${allowed.join(', ')}`);
  }
  return ops[0];
}

function onlyKey(entities: readonly EntityModel[], path: string, keys: string[], key: string): void {
  if (keys.length !== 1) throw invalid(entities, path, `has ${keys.join(', ')}: a ${key} condition holds only ${key} (nest the others in it)`);
}

/** The kind an operator applies to, of the first declaring entity whose attribute has one of `kinds`. */
function ofKinds(attr: Declared, op: string, kinds: readonly string[]): string {
  const fit = attr.attrs.find((a) => kinds.includes(a.type));
  if (!fit) {
    throw new SingleTableError('INVALID_CONDITION', `${attr.path}: ${op} applies to ${kinds.join(', ')} attributes, and ${attr.name} is ${attr.attrs[0].type}`,
      { entity: attr.entities[0].name, attribute: attr.name });
  }
  return fit.type;
}

/** A value of the attribute's kind (as stored: dates normalized), from the first declaring entity it fits. */
function valueOf(attr: Declared, value: unknown, path: string, kinds?: readonly string[]): AttributeValue {
  for (let i = 0; i < attr.attrs.length; i++) {
    if (kinds && !kinds.includes(attr.attrs[i].type)) continue;
    try {
      return attributeValue(attr.entities[i], attr.attrs[i], value);
    } catch { /* another entity may declare it with a kind the value fits */ }
  }
  const first = attr.attrs.find((a) => !kinds || kinds.includes(a.type))!;
  throw new SingleTableError('INVALID_VALUE', `${path}: must be ${VALUE_KINDS[first.type].rule}, got ${describe(value)}`, { entity: attr.entities[0].name, attribute: attr.name });
}

/** The two bounds of a between, low not above high (DynamoDB rejects that request). */
function bounds(
  entities: readonly EntityModel[], operand: unknown, path: string, convert: (v: unknown, i: number) => AttributeValue,
): [AttributeValue, AttributeValue] {
  if (!Array.isArray(operand) || operand.length !== 2) {
    throw invalid(entities, path, `must be [low, high], got ${Array.isArray(operand) ? `${operand.length} values` : describe(operand)}`);
  }
  const low = convert(operand[0], 0);
  const high = convert(operand[1], 1);
  if (compareValues(low, high) > 0) throw invalid(entities, path, `low bound ${describe(operand[0])} is above high bound ${describe(operand[1])}`);
  return [low, high];
}

/** DynamoDB's order: numbers by value, strings by their UTF-8 bytes (code point order). */
function compareValues(a: AttributeValue, b: AttributeValue): number {
  if (a.N !== undefined && b.N !== undefined) return Number(a.N) - Number(b.N);
  const x = [...(a.S ?? '')].map((c) => c.codePointAt(0)!);
  const y = [...(b.S ?? '')].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

function entityNames(entities: readonly EntityModel[]): string {
  return entities.map((e) => e.name).join(' | ');
}

function invalid(entities: readonly EntityModel[], path: string, message: string, attribute?: string): SingleTableError {
  return new SingleTableError('INVALID_CONDITION', `${path}: ${message}`, { entity: entityNames(entities), attribute });
}
