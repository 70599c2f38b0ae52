// The builders a generated access module runs before it sends: a one-partition pattern's key
// condition (partitionCondition) against the runtime's full one (keyConditionFor), and the item a
// put stores, over arbitrary inputs.
import fc from 'fast-check';
import { OrderEntity, openTable } from '../../bench/model/manifest.access';
import { sampleOrders } from '../../bench/model/order';
import { ALLOWED_DELIMITERS, booleanSegment, dateSegment, escapeCharFor, numberSegment, stringSegment } from '../../lib/keys/encoding';
import { partsTemplate, SegmentEncode, TemplateParts } from '../../lib/keys/template';
import type { SortKeyCondition } from '../../lib/manifest/structs';
import { partitionCondition, putRequest } from '../../lib/runtime';
import { keyConditionFor, keysOf } from '../../lib/runtime/key-condition';

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

test("a one-partition pattern's key condition is the runtime's: the same key, or the same error, for any input", () => {
  // Names: the template's attributes, its literal parts, and others (an object's own names included).
  const input = fc.oneof(
    fc.dictionary(fc.oneof(fc.constantFrom('a0', 'a1', 'a2', 'a3', '', 'A#', 'constructor', '__proto__'), fc.string({ maxLength: 3 })), anyValue, { maxKeys: 4 }),
    anyValue,
  );
  fc.assert(fc.property(parts, input, fc.boolean(), ({ delimiter, parts: p }, values, withSortKey) => {
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
  }), { numRuns: 2000 });
});

test('the item a put stores is a plain object: no prototype but Object.prototype, and the attributes and keys as written', () => {
  const table = openTable({ tableName: 'orders', client: {} as never });
  for (const order of sampleOrders(20)) {
    const { Item } = putRequest(table, OrderEntity, order as never);
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
    expect(Object.keys(Item!)).toEqual(['username', 'orderId', 'status', 'createdAt', 'amount', 'PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'Type']);
  }
});
