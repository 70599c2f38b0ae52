// The builders a generated access module runs before it sends: a one-partition pattern's key
// condition (partitionCondition) against the runtime's full one (keyConditionFor), and the item a
// put stores, over arbitrary inputs.
import fc from 'fast-check';
import { OrderPut, openTable } from '../../bench/model/manifest.access';
import { sampleOrders } from '../../bench/model/order';
import { ALLOWED_DELIMITERS, booleanSegment, dateSegment, escapeCharFor, numberSegment, stringSegment } from '../../lib/keys/encoding';
import { partsTemplate, SegmentEncode, TemplateParts } from '../../lib/keys/template';
import type { SortKeyCondition } from '../../lib/model/manifest';
import { itemPutRequest, partitionCondition } from '../../lib/runtime/access';
import { keyConditionFor, keysOf } from '../../lib/runtime/query/key-condition';
import { propertyRuns } from '../support/property-runs';

const ENCODERS: SegmentEncode[] = [stringSegment, numberSegment, dateSegment, booleanSegment];

/** Strings rich in what keys escape or refuse: characters up to '$', surrogates (paired or lone), and ''. */
const keyText = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0x26 }),
    fc.integer({ min: 0xd800, max: 0xdfff }),
    fc.integer({ min: 0x27, max: 0xffff }),
  ).map((c) => String.fromCharCode(c)),
  maxLength: 6,
});

/** Any value an input may hold: key text, numbers, booleans, dates, null, objects. */
const anyValue = fc.oneof(
  keyText,
  fc.constant(''),
  fc.double(),
  fc.boolean(),
  fc.date({ noInvalidDate: false }),
  fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(null, undefined, {}, [], 1n),
);

/** A template as a generated module's parts: 1 to 3 attributes a0, a1, ... between literals. */
const parts = fc.tuple(
  fc.constantFrom(...ALLOWED_DELIMITERS),
  fc.array(fc.tuple(fc.stringMatching(/^[A-Z]{0,3}$/), fc.constantFrom(...ENCODERS)), { minLength: 1, maxLength: 3 }),
  fc.stringMatching(/^[A-Z]{0,3}$/),
).map(([delimiter, attributes, tail]) => {
  const out: (string | SegmentEncode)[] = [''];
  attributes.forEach(([literal, encode], i) => {
    out[out.length - 1] += literal ? literal + delimiter : '';
    out.push(`a${i}`, encode, '');
  });
  if (tail) out[out.length - 1] += delimiter + tail;
  return { delimiter, parts: out as TemplateParts };
});

/** The outcome of a build: its result, or its error's code, message and context. */
function outcome(build: () => unknown): unknown {
  try {
    return { result: build() };
  } catch (e) {
    const err = e as { code?: string; message: string; context?: unknown };
    return { code: err.code, message: err.message, context: err.context };
  }
}

/** partitionCondition gives what the runtime's full key condition gives: the same key, or the same error. */
function agrees({ delimiter, parts: p }: { delimiter: string; parts: TemplateParts }, values: unknown, withSortKey: boolean): void {
  const model = { delimiter, escapeChar: escapeCharFor(delimiter) };
  const sortKey = withSortKey ? '{b}' : undefined;
  const pattern = {
    name: 'p',
    sortKeyCondition: 'NONE' as SortKeyCondition,
    pk: partsTemplate(p),
    sk: sortKey === undefined ? undefined : { source: sortKey, attributes: ['b'] },
  };
  const generic = outcome(() => keyConditionFor(model, pattern, values as never, keysOf(p, undefined, delimiter)));
  expect(outcome(() => partitionCondition(p, sortKey)(model as never, values as never, 'p'))).toEqual(generic);
}

test("a one-partition pattern's key condition is the runtime's: the same key, or the same error, for any input", () => {
  // Names: the template's attributes, its literal parts, and others (an object's own names included).
  const input = fc.oneof(
    fc.dictionary(fc.oneof(fc.constantFrom('a0', 'a1', 'a2', 'a3', '', 'A#', 'constructor', '__proto__'), fc.string({ maxLength: 3 })), anyValue, { maxKeys: 4 }),
    anyValue,
  );
  fc.assert(fc.property(parts, input, fc.boolean(), agrees), { numRuns: propertyRuns(200) });
});

test('a template of one attribute, composed without the general path when a string one gets plain text, agrees with the runtime too', () => {
  // The input a query of `ORDER#{status}` usually gets, and the near misses: text to escape, a lone
  // surrogate, '', another kind of value, a second name, an inherited name, a string in place of the
  // object; and plain text for an attribute of another kind (a date, a number).
  const oneAttribute = parts.filter(({ parts: p }) => p.length === 4);
  const plainText = fc.oneof(fc.stringMatching(/^[%-~]{1,8}$/), fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)));
  const value = fc.oneof(plainText, plainText, keyText, anyValue);
  const input = fc.oneof(
    value.map((a0) => ({ a0 })),
    fc.tuple(value, fc.constantFrom('a1', 'b', '', 'constructor'), value).map(([a0, name, other]) => ({ a0, [name]: other })),
    value.map((a0) => Object.create({ a0 })),
    value.map((a0) => Object.assign(Object.create({ extra: 1 }), { a0 })),
    fc.constantFrom('a0', null, undefined, 7, ['x']),
  );
  fc.assert(fc.property(oneAttribute, input, fc.boolean(), agrees), { numRuns: propertyRuns(200) });
  // A string is not an object, even where its indexes are the template's attribute names.
  agrees({ delimiter: '#', parts: ['X#', '0', stringSegment, ''] }, 'x', false);
  // Names are checked before the value is read: a getter that throws is never reached past a name the key does not use.
  const unread = { get a0(): string { throw new Error('read'); }, extra: 1 };
  agrees({ delimiter: '#', parts: ['X#', 'a0', stringSegment, ''] }, unread, false);
  expect(() => partitionCondition(['X#', 'a0', stringSegment, ''])({ delimiter: '#', escapeChar: '$' } as never, unread, 'p')).toThrow(/INVALID_QUERY_INPUT.*'extra'/);
});

test('the item a put stores is a plain object: no prototype but Object.prototype, and the attributes and keys as written', () => {
  const table = openTable({ tableName: 'orders', client: {} as never });
  for (const order of sampleOrders(20)) {
    const { Item } = itemPutRequest(table, OrderPut, order);
    expect(Object.getPrototypeOf(Item)).toBe(Object.prototype);
    expect(Item!.constructor).toBe(Object);
    expect(Item).toStrictEqual({
      username: { S: order.username },
      orderId: { S: order.orderId },
      status: { S: order.status },
      createdAt: { S: order.createdAt },
      amount: { N: String(order.amount) },
      PK: { S: `CUSTOMER#${order.username}` },
      SK: { S: `ORDER#${order.orderId}` },
      GSI1PK: { S: `ORDER#${order.orderId}` },
      GSI1SK: { S: `ORDER#${order.orderId}` },
      GSI2PK: { S: `ORDER#${order.status}` },
      GSI2SK: { S: order.createdAt },
      Type: { S: 'Order' },
    });
    expect(Object.keys(Item!)).toEqual(['username', 'orderId', 'status', 'createdAt', 'amount', 'PK', 'SK', 'Type', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK']);
  }
});
