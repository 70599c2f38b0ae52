// The key condition of a pattern on a GSI keyed on the items' own attributes (multi-attribute
// keys): nothing is composed, the query compares the attributes themselves, with DynamoDB's rules
// checked first: every partition attribute by equality; sort attributes left to right, each by
// equality but the last one given, which takes the pattern's condition (BEGINS_WITH: a prefix of
// a STRING or DATE; DynamoDB's begins_with takes no number).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { compareUtf8 } from './fanout-order';
import type { AttributeComparison, KeyCondition } from './key-condition';
import { checkNames } from './key-condition';
import { DATE_RULE, MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, mustBe } from '../../keys/encoding';
import type { IndexModel, KeyAttributeModel, PatternModel } from '../../model/model';
import { checkSize } from '../attributes/item-keys';
import { VALUE_KINDS, valuesText } from '../attributes/values';
import { SingleTableError } from '../table/errors';

type Input = Readonly<Record<string, unknown>>;

/** The comparison each sort-key condition puts on the last sort attribute given. */
export const ATTRIBUTE_OPERATORS: Readonly<Record<string, string>> = {
  EQUALS: '=', BEGINS_WITH: 'begins_with', LESS_THAN: '<', LESS_THAN_OR_EQUAL: '<=', GREATER_THAN: '>', GREATER_THAN_OR_EQUAL: '>=',
};

/** The key condition of a pattern on a multi-attribute GSI; throws before any request on input DynamoDB would refuse. */
export function attributeKeyCondition(pattern: Pick<PatternModel, 'name' | 'sortKeyCondition'>, index: IndexModel, input: Input): KeyCondition {
  const partition = index.partitionAttributes!;
  const sort = index.sortAttributes ?? [];
  const condition = pattern.sortKeyCondition;
  const names = (attrs: readonly KeyAttributeModel[]) => `[${attrs.map((a) => a.name).join(', ')}]`;
  const named = {
    name: pattern.name, sortKeyCondition: condition, pk: { source: names(partition) }, sk: sort.length ? { source: names(sort) } : undefined,
  };
  checkNames(named, input, (name) =>
    partition.some((a) => a.name === name) || (name === 'between' ? condition === 'BETWEEN' : condition !== 'NONE' && condition !== 'BETWEEN' && sort.some((a) => a.name === name)));
  const comparisons: AttributeComparison[] = partition.map((attr) => {
    if (input[attr.name] === undefined) {
      throw new SingleTableError('MISSING_ATTRIBUTE', `is needed: a query on ${index.name} compares every partition attribute of ${index.name} (${partition.map((a) => a.name).join(', ')}) by equality`,
        { pattern: pattern.name, attribute: attr.name });
    }
    return { attribute: attr.name, operator: '=', values: [keyValue(pattern, attr, input[attr.name], MAX_PARTITION_KEY_BYTES)] };
  });
  if (condition === 'NONE' || sort.length === 0) return { pk: '', attributes: comparisons };
  if (condition === 'BETWEEN') return { pk: '', attributes: [...comparisons, ...between(pattern, index, input.between)] };
  const given = leading(pattern, sort, input);
  given.forEach((attr, i) => {
    const operator = i === given.length - 1 ? ATTRIBUTE_OPERATORS[condition] : '=';
    const value = operator === 'begins_with' ? prefixValue(pattern, sort, attr, input[attr.name]) : keyValue(pattern, attr, input[attr.name], MAX_SORT_KEY_BYTES);
    comparisons.push({ attribute: attr.name, operator, values: [value] });
  });
  return { pk: '', attributes: comparisons };
}

/**
 * The sort attributes a condition's values give, left to right; throws when one is given without
 * an attribute before it (DynamoDB refuses a condition on a later attribute alone).
 */
function leading(pattern: Pick<PatternModel, 'name'>, sort: readonly KeyAttributeModel[], values: Input): KeyAttributeModel[] {
  const given = sort.filter((a) => values[a.name] !== undefined);
  const gap = sort.findIndex((a) => values[a.name] === undefined);
  const after = gap < 0 ? undefined : sort.slice(gap + 1).find((a) => values[a.name] !== undefined);
  if (after) {
    const skipped = sort[gap].name;
    throw new SingleTableError('INVALID_QUERY_INPUT',
      `is given without ${skipped} before it; DynamoDB compares sort attributes left to right (${sort.map((a) => a.name).join(', ')}): give ${skipped} too, or leave ${after.name} out`,
      { pattern: pattern.name, attribute: after.name });
  }
  return given;
}

/** BETWEEN: both bounds name the same leading sort attributes, equal but for the last, which is bounded. */
function between(pattern: Pick<PatternModel, 'name'>, index: IndexModel, bounds: unknown): AttributeComparison[] {
  const invalid = (message: string, attribute?: string) => new SingleTableError('INVALID_QUERY_INPUT', message, { pattern: pattern.name, attribute });
  if (!Array.isArray(bounds) || bounds.length !== 2) throw invalid('BETWEEN needs `between: [low, high]`, each naming the same leading sort attributes');
  for (const bound of bounds) if (typeof bound !== 'object' || bound === null) throw invalid('a BETWEEN bound ' + mustBe('an object', bound));
  const sort = index.sortAttributes!;
  const [low, high] = bounds as [Input, Input];
  for (const bound of [low, high]) {
    for (const name in bound) if (!sort.some((a) => a.name === name)) throw invalid(`'${name}' is not a sort attribute of ${index.name} (${sort.map((a) => a.name).join(', ')})`, name);
  }
  const [lowAttrs, highAttrs] = [leading(pattern, sort, low), leading(pattern, sort, high)];
  if (lowAttrs.length !== highAttrs.length) {
    throw invalid(`the low bound ${valuesText(low, lowAttrs.map((a) => a.name))} and the high bound ${valuesText(high, highAttrs.map((a) => a.name))} differ in the sort attributes they name; `
      + 'both bounds name the same sort attributes, the last one bounded');
  }
  if (lowAttrs.length === 0) return [];
  const out: AttributeComparison[] = [];
  lowAttrs.forEach((attr, i) => {
    const lo = keyValue(pattern, attr, low[attr.name], MAX_SORT_KEY_BYTES);
    const hi = keyValue(pattern, attr, high[attr.name], MAX_SORT_KEY_BYTES);
    const order = compareValues(lo, hi);
    if (i < lowAttrs.length - 1) {
      if (order !== 0) {
        throw invalid(`${attr.name} is ${valueText(low[attr.name])} in the low bound and ${valueText(high[attr.name])} in the high bound; `
          + 'BETWEEN bounds only the last sort attribute given and compares the ones before it by equality: give them the same value in both bounds', attr.name);
      }
      out.push({ attribute: attr.name, operator: '=', values: [lo] });
    } else {
      // DynamoDB answers an inverted BETWEEN with a ValidationException: say so first, with the values as given.
      if (order > 0) throw invalid(`the low bound ${valueText(low[attr.name])} is above the high bound ${valueText(high[attr.name])} in ${attr.name}; swap the bounds`, attr.name);
      out.push({ attribute: attr.name, operator: 'BETWEEN', values: [lo, hi] });
    }
  });
  return out;
}

/** Every ISO-8601 UTC date `normalizeDate` writes has this shape: `9` a digit, anything else itself. */
const DATE_SHAPE = '9999-99-99T99:99:99.999Z';

/**
 * The prefix BEGINS_WITH compares the last sort attribute given with: any non-empty string of a
 * STRING; of a DATE, a leading part of its stored form (`'2026-01'`: that month) or a whole date.
 * A NUMBER is refused: DynamoDB's begins_with takes strings only.
 */
function prefixValue(pattern: Pick<PatternModel, 'name'>, sort: readonly KeyAttributeModel[], attr: KeyAttributeModel, value: unknown): AttributeValue {
  if (attr.kind === 'NUMBER') {
    const next = sort[sort.indexOf(attr) + 1];
    throw new SingleTableError('INVALID_QUERY_INPUT',
      'is a NUMBER, and BEGINS_WITH compares a prefix of the last sort attribute given, which DynamoDB\'s begins_with takes of strings only; '
      + (next && next.kind !== 'NUMBER' ? `give ${next.name} too (its prefix is compared), or ` : '') + 'use an EQUALS pattern to compare it by value',
      { pattern: pattern.name, attribute: attr.name });
  }
  if (attr.kind === 'DATE' && typeof value === 'string' && value !== '' && value.length < DATE_SHAPE.length
    && [...value].every((c, i) => (DATE_SHAPE[i] === '9' ? c >= '0' && c <= '9' : c === DATE_SHAPE[i]))) {
    return { S: value };
  }
  if (attr.kind === 'DATE' && !VALUE_KINDS.DATE.value(value)) {
    throw new SingleTableError('INVALID_VALUE', mustBe(`${DATE_RULE}, or a leading part of its stored form such as '2026-01'`, value), { pattern: pattern.name, attribute: attr.name });
  }
  return keyValue(pattern, attr, value, MAX_SORT_KEY_BYTES);
}

function valueText(value: unknown): string {
  return valuesText({ v: value }, ['v']).slice(4, -1);
}

/** Numbers by value, strings by UTF-8 bytes: as DynamoDB orders a key attribute. */
function compareValues(a: AttributeValue, b: AttributeValue): number {
  if (a.N !== undefined && b.N !== undefined) return Math.sign(Number(a.N) - Number(b.N));
  return compareUtf8(a.S!, b.S!);
}

/** A key attribute's value in a query: of its kind, not empty, within the key size limit. */
function keyValue(pattern: Pick<PatternModel, 'name'>, attr: KeyAttributeModel, value: unknown, limit: number): AttributeValue {
  const kind = VALUE_KINDS[attr.kind];
  const av = kind.value(value);
  if (!av) throw new SingleTableError('INVALID_VALUE', mustBe(kind.rule, value), { pattern: pattern.name, attribute: attr.name });
  if (av.S === '') {
    throw new SingleTableError('INVALID_VALUE', 'is an empty string, which no item holds in a key attribute (DynamoDB refuses it there); give a value', { pattern: pattern.name, attribute: attr.name });
  }
  if (av.S !== undefined) checkSize(pattern, attr.name, av.S, limit, 0);
  return av;
}
