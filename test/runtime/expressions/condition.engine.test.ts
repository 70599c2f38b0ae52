// Random valid conditions on DynamoDB Local: the expression text holds only placeholders and
// syntax (never an attribute name or a value, however they are spelled), DynamoDB accepts every
// compiled condition, and it decides each one on a random item exactly as the condition means.
import { ConditionalCheckFailedException, PutItemCommand } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { conditionManifest } from './fixture';
import { resolveModel } from '../../../lib/manifest/resolve';
import { compileCondition } from '../../../lib/runtime/expressions/condition';
import { ExpressionRefs } from '../../../lib/runtime/expressions/refs';
import { buildPut } from '../../../lib/runtime/items/requests';
import { Engine, startEngine, synthesizedTemplate } from '../../support/engine';
import { propertyRuns } from '../../support/property-runs';

const model = resolveModel(conditionManifest);
const entity = model.entities.Doc;

let engine: Engine;
let tableName: string;
beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(conditionManifest));
  tableName = await engine.createTable();
});
afterAll(() => engine.stop());

// Small domains, so conditions hold about as often as not; strings that look like expression syntax.
const text = fc.oneof(fc.constantFrom('', 'A', 'AB', 'B', ') OR (', ':v0', '#n0', 'size(x)', 'ü', '\u{10000}', '\uffff'), fc.string({ maxLength: 3 }));
const DATES = ['2024-01-01T00:00:00.000Z', '2024-01-02T00:00:00.000Z', '2024-02-01T00:00:00.000Z'];
const VALUES: Record<string, fc.Arbitrary<unknown>> = {
  'status': text,
  'name': text,
  'a) OR (b': text,
  'count': fc.integer({ min: -3, max: 3 }),
  'at': fc.constantFrom(...DATES),
  'flag': fc.boolean(),
  'size': fc.uniqueArray(fc.constantFrom('A', 'B', ') OR ('), { minLength: 1, maxLength: 3 }).map((v) => new Set(v)),
  'nums': fc.uniqueArray(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 3 }).map((v) => new Set(v)),
  'items': fc.array(fc.oneof(fc.constantFrom('A', 'B'), fc.integer({ min: 0, max: 2 })), { maxLength: 3 }),
  'meta': fc.dictionary(fc.constantFrom('k', 'l'), fc.integer({ min: 0, max: 2 }), { maxKeys: 2 }),
};
const ORDERED = ['status', 'name', 'a) OR (b', 'count', 'at'];
const STRINGS = ['status', 'name', 'a) OR (b'];
const SIZED = ['status', 'name', 'at', 'size', 'nums', 'items', 'meta'];
const ELEMENTS: Record<string, fc.Arbitrary<unknown>> = {
  'status': text,
  'name': text,
  'a) OR (b': text,
  'size': fc.constantFrom('A', 'B', 'C'),
  'nums': fc.integer({ min: 0, max: 4 }),
  'items': fc.oneof(fc.constantFrom('A', 'C'), fc.integer({ min: 0, max: 2 })),
};
const ordered = (attr: string) => fc.tuple(VALUES[attr], VALUES[attr]).map(([a, b]) => (compare(a, b) <= 0 ? [a, b] : [b, a]));

type Node = Record<string, unknown>;
const leaf: fc.Arbitrary<Node> = fc.oneof(
  fc.constantFrom(...Object.keys(VALUES)).chain((attr) => fc.oneof(
    VALUES[attr].map((v) => ({ attr, eq: v })),
    VALUES[attr].map((v) => ({ attr, ne: v })),
    fc.array(VALUES[attr], { minLength: 1, maxLength: 3 }).map((v) => ({ attr, in: v })),
    fc.boolean().map((v) => ({ attr, exists: v })),
  )),
  fc.constantFrom(...ORDERED).chain((attr) => fc.oneof(
    fc.tuple(fc.constantFrom('lt', 'lte', 'gt', 'gte'), VALUES[attr]).map(([op, v]) => ({ attr, [op]: v })),
    ordered(attr).map((v) => ({ attr, between: v })),
  )),
  fc.constantFrom(...STRINGS, 'at').chain((attr) => fc.constantFrom('A', ')', '2024-01', '\u{10000}').map((v) => ({ attr, beginsWith: v }))),
  fc.constantFrom(...Object.keys(ELEMENTS)).chain((attr) => ELEMENTS[attr].map((v) => ({ attr, contains: v }))),
  fc.constantFrom(...SIZED).chain((size) => fc.oneof(
    fc.tuple(fc.constantFrom('eq', 'ne', 'lt', 'lte', 'gt', 'gte'), fc.integer({ min: 0, max: 3 })).map(([op, v]) => ({ size, [op]: v })),
    fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })).map(([a, b]) => ({ size, between: [Math.min(a, b), Math.max(a, b)] })),
  )),
);
const condition: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((and) => ({ and })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((or) => ({ or })),
    tie('node').map((not) => ({ not })),
  ),
})).node;

const item = fc.record(
  Object.fromEntries(Object.entries(VALUES).map(([k, v]) => [k, v])),
  { requiredKeys: [] },
).map((values) => ({ ...values, id: 'doc' }));

/** Tokens a compiled expression may hold: placeholders, operators, functions, parentheses. */
const TOKENS = /^(?:\s+|#n\d+|:v\d+|[(),]|=|<>|<=|>=|<|>|AND|OR|NOT|BETWEEN|IN|attribute_exists|attribute_not_exists|begins_with|contains|size)*$/;

test('compiled conditions hold only placeholders, are accepted by DynamoDB, and decide as they mean', async () => {
  await fc.assert(fc.asyncProperty(item, condition, async (stored, cond) => {
    const refs = new ExpressionRefs();
    const expression = compileCondition([entity], cond, refs);
    expect(expression).toMatch(TOKENS);
    // Every placeholder used is defined, every one defined is used.
    expect(new Set(expression.match(/#n\d+/g))).toEqual(new Set(Object.keys(refs.names)));
    expect(new Set(expression.match(/:v\d+/g))).toEqual(new Set(Object.keys(refs.values)));

    await engine.client.send(new PutItemCommand(buildPut(model, tableName, 'Doc', stored)));
    const write = refs.applyTo({ ...buildPut(model, tableName, 'Doc', stored), ConditionExpression: expression });
    const held = await engine.client.send(new PutItemCommand(write)).then(() => true, (error) => {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    });
    expect(held).toBe(holds(cond, stored));
  }), { numRuns: propertyRuns(30) });
});

// The meaning of a condition, evaluated in JavaScript on the item as it is stored.
function holds(node: Node, stored: Record<string, unknown>): boolean {
  if (node.and) return (node.and as Node[]).every((n) => holds(n, stored));
  if (node.or) return (node.or as Node[]).some((n) => holds(n, stored));
  if (node.not) return !holds(node.not as Node, stored);
  if (node.size !== undefined) {
    const value = stored[node.size as string];
    // A missing attribute has no size: every comparison of it is false, but <> (not equal) is true.
    return value === undefined ? 'ne' in node : compares(node, sizeOf(value));
  }
  const value = stored[node.attr as string];
  if ('exists' in node) return (value !== undefined) === node.exists;
  if (value === undefined) return 'ne' in node; // every other operator is false on a missing attribute
  if ('in' in node) return (node.in as unknown[]).some((v) => same(v, value));
  if ('beginsWith' in node) return (value as string).startsWith(node.beginsWith as string);
  if ('contains' in node) {
    if (typeof value === 'string') return value.includes(node.contains as string);
    if (value instanceof Set) return value.has(node.contains);
    return (value as unknown[]).some((v) => same(v, node.contains));
  }
  return compares(node, value);
}

function compares(node: Node, value: unknown): boolean {
  if ('eq' in node) return same(value, node.eq);
  if ('ne' in node) return !same(value, node.ne);
  if ('between' in node) {
    const [low, high] = node.between as unknown[];
    return compare(low, value) <= 0 && compare(value, high) <= 0;
  }
  const op = ['lt', 'lte', 'gt', 'gte'].find((o) => o in node)!;
  const c = compare(value, node[op]);
  return { lt: c < 0, lte: c <= 0, gt: c > 0, gte: c >= 0 }[op]!;
}

/** DynamoDB Local's size: UTF-16 code units of a string, elements of a set or list, entries of a map. */
function sizeOf(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value instanceof Set) return value.size;
  if (Array.isArray(value)) return value.length;
  return Object.keys(value as object).length;
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Set && b instanceof Set) return a.size === b.size && [...a].every((v) => b.has(v));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => same(v, b[i]));
  if (typeof a === 'object' && a && typeof b === 'object' && b) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => same((a as Node)[k], (b as Node)[k]));
  }
  return a === b;
}

/** Numbers by value, strings by UTF-8 bytes. */
function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number') return a - (b as number);
  return Buffer.compare(Buffer.from(a as string), Buffer.from(b as string));
}
