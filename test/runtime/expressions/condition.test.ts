// The condition compiler without an engine: expressions, placeholders, and every kind of bad
// condition rejected with its place before anything is sent.
import { conditionManifest } from './fixture';
import { resolveModel } from '../../../lib/manifest/resolve';
import { ItemOf, SingleTableError } from '../../../lib/runtime';
import { compileCondition, Condition } from '../../../lib/runtime/expressions/condition';
import { ExpressionRefs } from '../../../lib/runtime/expressions/refs';

const model = resolveModel(conditionManifest);
const doc = [model.entities.Doc];

function compile(condition: unknown, entities = doc) {
  const refs = new ExpressionRefs();
  const expression = compileCondition(entities, condition, refs);
  return { expression, names: refs.names, values: refs.values };
}

function failure(condition: unknown, entities = doc): SingleTableError {
  try {
    compile(condition, entities);
  } catch (error) {
    return error as SingleTableError;
  }
  throw new Error('compiled');
}

test('comparisons, between, in, exists, begins_with, contains and size compile to placeholders', () => {
  expect(compile({ attr: 'status', eq: 'OPEN' })).toEqual({ expression: '#n0 = :v0', names: { '#n0': 'status' }, values: { ':v0': { S: 'OPEN' } } });
  expect(compile({ attr: 'count', ne: 1 }).expression).toBe('#n0 <> :v0');
  expect(compile({ attr: 'count', between: [1, 2] }).expression).toBe('#n0 BETWEEN :v0 AND :v1');
  expect(compile({ attr: 'status', in: ['A', 'B'] }).expression).toBe('#n0 IN (:v0, :v1)');
  expect(compile({ attr: 'flag', exists: false }).expression).toBe('attribute_not_exists(#n0)');
  expect(compile({ attr: 'name', beginsWith: 'A' }).expression).toBe('begins_with(#n0, :v0)');
  expect(compile({ attr: 'size', contains: 'x' })).toMatchObject({ expression: 'contains(#n0, :v0)', values: { ':v0': { S: 'x' } } });
  expect(compile({ attr: 'nums', contains: 3 }).values).toEqual({ ':v0': { N: '3' } });
  expect(compile({ size: 'items', gt: 3 })).toMatchObject({ expression: 'size(#n0) > :v0', values: { ':v0': { N: '3' } } });
  expect(compile({ attr: 'name', between: ['\uffff', '\u{10000}'] }).expression).toBe('#n0 BETWEEN :v0 AND :v1');
  expect(compile({ size: 'name', between: [1, 4] }).expression).toBe('size(#n0) BETWEEN :v0 AND :v1');
});

test('and, or and not nest in parentheses; a name used twice has one placeholder', () => {
  const out = compile({ or: [{ and: [{ attr: 'count', gte: 1 }, { attr: 'count', lt: 5 }] }, { not: { attr: 'status', exists: true } }] });
  expect(out.expression).toBe('((#n0 >= :v0) AND (#n0 < :v1)) OR (NOT (attribute_exists(#n1)))');
  expect(out.names).toEqual({ '#n0': 'count', '#n1': 'status' });
  expect(compile({ and: [{ attr: 'count', eq: 1 }] }).expression).toBe('#n0 = :v0');
});

test('dates are compared as they are stored: normalized ISO-8601 UTC', () => {
  expect(compile({ attr: 'at', lt: new Date(Date.UTC(2024, 0, 2)) }).values).toEqual({ ':v0': { S: '2024-01-02T00:00:00.000Z' } });
  expect(compile({ attr: 'at', gte: '2024-01-02T01:00:00+01:00' }).values).toEqual({ ':v0': { S: '2024-01-02T00:00:00.000Z' } });
  // A prefix is not a date: it is kept as written.
  expect(compile({ attr: 'at', beginsWith: '2024-01' }).values).toEqual({ ':v0': { S: '2024-01' } });
});

test('an attribute is found in any of several entities, its value checked against the kind one of them declares', () => {
  const both = [model.entities.Doc, model.entities.Note];
  expect(compile({ attr: 'body', eq: 'x' }, both).names).toEqual({ '#n0': 'body' });
  expect(compile({ attr: 'count', eq: 3 }, both).values).toEqual({ ':v0': { N: '3' } });
  expect(compile({ attr: 'count', eq: 'three' }, both).values).toEqual({ ':v0': { S: 'three' } });
  expect(failure({ attr: 'body', eq: 1 }, both).message).toBe('[INVALID_VALUE] entity Note, attribute body: condition.eq: must be a string, got number 1');
});

test('refs extending a request keep its placeholders and take none of them', () => {
  const input = { ExpressionAttributeNames: { '#n0': 'PK', '#a0': 'count' }, ExpressionAttributeValues: { ':v0': { S: 'x' } } };
  const refs = ExpressionRefs.extending(input);
  const expression = compileCondition(doc, { and: [{ attr: 'count', eq: 2 }, { attr: 'status', eq: 'A' }] }, refs);
  expect(expression).toBe('(#a0 = :v1) AND (#n1 = :v2)');
  refs.applyTo(input);
  expect(input).toEqual({
    ExpressionAttributeNames: { '#n0': 'PK', '#a0': 'count', '#n1': 'status' },
    ExpressionAttributeValues: { ':v0': { S: 'x' }, ':v1': { N: '2' }, ':v2': { S: 'A' } },
  });
  const clashing = new ExpressionRefs();
  clashing.name('status');
  expect(() => clashing.applyTo({ ExpressionAttributeNames: { '#n0': 'PK' } })).toThrow(/#n0 is taken/);
});

test('applyTo leaves out empty maps', () => {
  const refs = new ExpressionRefs();
  compileCondition(doc, { attr: 'flag', exists: true }, refs);
  expect(refs.applyTo({})).toEqual({ ExpressionAttributeNames: { '#n0': 'flag' } });
});

test.each([
  [{ attr: 'nope', eq: 1 }, 'UNKNOWN_ATTRIBUTE', 'entity Doc, attribute nope: condition.attr: is not declared; declared attributes: id, status'],
  [{ attr: 'staus', eq: 1 }, 'UNKNOWN_ATTRIBUTE', "entity Doc, attribute staus: condition.attr: is not declared; did you mean 'status'? declared attributes: id, status"],
  [{ and: [{ attr: 'count', eq: 1 }, { attr: 'count', eq: '1' }] }, 'INVALID_VALUE', 'attribute count: condition.and[1].eq: must be a finite number'],
  [{ and: [] }, 'INVALID_CONDITION', 'condition.and: must be a non-empty array of conditions'],
  [{ or: {} }, 'INVALID_CONDITION', 'condition.or: must be a non-empty array'],
  [{ attr: 'count', equals: 1 }, 'INVALID_CONDITION', 'condition: has "equals", not an operator: a attr condition takes exactly one of eq, ne'],
  [{ attr: 'count', eq: 1, ne: 2 }, 'INVALID_CONDITION', 'condition: has eq, ne: a attr condition takes exactly one of'],
  [{ attr: 'count' }, 'INVALID_CONDITION', 'condition: has no operator'],
  [{ attr: 'flag', lt: true }, 'INVALID_CONDITION', 'attribute flag: condition.attr: lt applies to STRING, NUMBER, DATE attributes, and flag is BOOLEAN'],
  [{ attr: 'count', beginsWith: '1' }, 'INVALID_CONDITION', 'beginsWith applies to STRING, DATE attributes, and count is NUMBER'],
  [{ attr: 'count', contains: 1 }, 'INVALID_CONDITION', 'contains applies to STRING, STRING_SET, NUMBER_SET, LIST attributes, and count is NUMBER'],
  [{ attr: 'size', contains: 1 }, 'INVALID_CONDITION', 'condition.contains: must be a string (a member), got number 1'],
  [{ size: 'count', gt: 1 }, 'INVALID_CONDITION', 'size applies to STRING, DATE, LIST, MAP, STRING_SET, NUMBER_SET attributes, and count is NUMBER'],
  [{ size: 'items', gt: '1' }, 'INVALID_CONDITION', 'condition.gt: must be a number'],
  [{ size: 'items', exists: true }, 'INVALID_CONDITION', 'has "exists", not an operator: a size condition takes exactly one of eq, ne, lt, lte, gt, gte, between'],
  [{ attr: 'count', between: [5, 1] }, 'INVALID_CONDITION', 'condition.between: low bound number 5 is above high bound number 1'],
  // UTF-8 order: U+10000 sorts above U+FFFF, though its UTF-16 code units sort below.
  [{ attr: 'name', between: ['\u{10000}', '\uffff'] }, 'INVALID_CONDITION', 'low bound'],
  [{ attr: 'count', between: [1] }, 'INVALID_CONDITION', 'condition.between: must be [low, high], got 1 values'],
  [{ attr: 'count', in: [] }, 'INVALID_CONDITION', 'condition.in: must be an array of 1 to 100 values'],
  [{ attr: 'count', in: Array.from({ length: 101 }, (_, i) => i) }, 'INVALID_CONDITION', 'got 101 values'],
  [{ attr: 'at', eq: 'yesterday' }, 'INVALID_VALUE', 'condition.eq: must be a Date or an ISO-8601 date string'],
  [{ attr: 'flag', exists: 'yes' }, 'INVALID_CONDITION', 'condition.exists: must be true or false'],
  [{ not: { attr: 'status', in: ['A', 1] } }, 'INVALID_VALUE', 'condition.not.in[1]: must be a string'],
  [{ and: [{ attr: 'count', eq: 1 }], or: [] }, 'INVALID_CONDITION', 'condition: has and, or: a and condition holds only and'],
  [{ hello: 1 }, 'INVALID_CONDITION', 'condition: must have one of attr, size, and, or, not; got hello'],
  ['status = 1', 'INVALID_CONDITION', 'condition: must be a condition object, got "status = 1"'],
  [{ attr: 5, eq: 1 }, 'INVALID_CONDITION', 'condition.attr: must be an attribute name'],
  [{ attr: 'constructor', eq: 1 }, 'UNKNOWN_ATTRIBUTE', 'attribute constructor'],
])('%j fails with %s', (condition, code, message) => {
  const error = failure(condition);
  expect(error).toBeInstanceOf(SingleTableError);
  expect(error.code).toBe(code);
  expect(error.message).toContain(message);
});

test('the Condition type follows the item: attribute names, value types, operators per kind', () => {
  type Doc = ItemOf<typeof conditionManifest, 'Doc'>;
  const ok: Condition<Doc>[] = [
    { attr: 'count', between: [1, 2] },
    { attr: 'at', lt: new Date() },
    { attr: 'at', beginsWith: '2024' },
    { attr: 'size', contains: 'x' },
    { attr: 'nums', contains: 1 },
    { size: 'items', gte: 1 },
    { not: { or: [{ attr: 'status', in: ['A'] }, { attr: 'flag', eq: true }] } },
  ];
  const bad: Condition<Doc>[] = [
    // @ts-expect-error an undeclared attribute
    { attr: 'nope', eq: 1 },
    // @ts-expect-error a string for a NUMBER attribute
    { attr: 'count', eq: '1' },
    // @ts-expect-error booleans are not ordered
    { attr: 'flag', lt: true },
    // @ts-expect-error a number set holds numbers
    { attr: 'nums', contains: 'x' },
    // @ts-expect-error a number has no size
    { size: 'count', gt: 1 },
  ];
  expect(ok.map((c) => compile(c).expression)).toHaveLength(ok.length);
  expect(bad.filter((c) => { try { compile(c); return true; } catch { return false; } })).toEqual([]);
});
