// NUMBER values through the engine and back. DynamoDB keeps no JavaScript type and normalizes
// the digits (`1e+23` is stored as `100000000000000000000000`), so the reader must tell a number
// from a bigint by the digits alone: a value written as a number reads back as that number, and a
// bigint whose digits no number prints as stays a bigint.
import * as fc from 'fast-check';
import { manifest } from '../../examples/manifest';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine } from '../support/engine';
import { propertyRuns } from '../support/property-runs';

let engine: Engine;
let db: ReturnType<typeof createClient<typeof manifest>>;

beforeAll(async () => {
  engine = await startEngine();
  db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName: await engine.createTable() });
});
afterAll(() => engine.stop());

const order = (orderId: string, amount: number, lines: unknown[]) =>
  ({ username: 'numbers', orderId, status: 'OPEN', createdAt: '2024-01-01T00:00:00.000Z', amount, lines });

/** Writes each value as an order's amount (a top-level NUMBER) and in its lines (a nested one); reads them back. */
async function roundTrip(values: (number | bigint)[]): Promise<{ amount: unknown; nested: unknown }[]> {
  const orders = values.map((v, i) => order(`o${i}`, typeof v === 'number' ? v : 1, [v]));
  await db.batchWrite(orders.map((item) => ({ type: 'put' as const, entity: 'Order' as const, item })));
  const got = await db.batchGet(orders.map((o) => ({ entity: 'Order' as const, key: { username: o.username, orderId: o.orderId } })));
  return got.map((g) => ({ amount: (g!.item as { amount: unknown }).amount, nested: (g!.item as { lines: unknown[] }).lines[0] }));
}

/** Doubles DynamoDB can store (magnitude 1e-130 to below 1e126), every exponent equally likely. */
const storableDouble = fc.oneof(
  fc.tuple(fc.double({ min: 1e-130, max: 9.99999999999999e125, noNaN: true }), fc.boolean()).map(([m, negative]) => (negative ? -m : m)),
  fc.integer().map((i) => i * 2 ** 30), // integers past 2^53, exact as doubles
  fc.constantFrom(0, 1e21, 1e23, -1.0000000000000001e21, 2 ** 53, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER),
  fc.constantFrom(0.1, 1e-7, 5e-130, 1e-130, 1e125, 123456789.98765433),
);

test('every storable double written as a number reads back as the same number, at the top level and nested', async () => {
  await fc.assert(fc.asyncProperty(fc.array(storableDouble, { minLength: 1, maxLength: 25 }), async (values) => {
    const back = await roundTrip(values);
    back.forEach(({ amount, nested }, i) => {
      expect(amount).toBe(values[i]);
      expect(nested).toBe(values[i]);
    });
  }), { numRuns: propertyRuns(40) });
});

test('the values a property test and a user found: 1e23 and -1.0000000000000001e+21 come back as numbers', async () => {
  // They came back as 100000000000000000000000n and -1000000000000000100000n.
  const values = [1e23, -1.0000000000000001e21];
  expect(await roundTrip(values)).toEqual(values.map((v) => ({ amount: v, nested: v })));
});

/** The exact integer a finite integral number prints as (its shortest round-trip digits). */
function printedInteger(n: number): bigint {
  const [mantissa, exponent] = n.toExponential().split('e');
  const digits = mantissa.replace('.', '').replace('-', '');
  const zeros = Number(exponent) - (digits.length - 1);
  return (n < 0 ? -1n : 1n) * (zeros >= 0 ? BigInt(digits) * 10n ** BigInt(zeros) : BigInt(digits) / 10n ** BigInt(-zeros));
}

/** Integers DynamoDB can store (38 significant digits), past 2^53, of either sign. */
const storableBigInt = fc.tuple(fc.bigInt({ min: 2n ** 53n, max: 10n ** 38n - 1n }), fc.nat(87), fc.boolean())
  .map(([b, zeros, negative]) => (negative ? -1n : 1n) * b * 10n ** BigInt(zeros));

test('an integer written as a bigint keeps every digit: a bigint unless some number prints as exactly those digits', async () => {
  await fc.assert(fc.asyncProperty(fc.array(storableBigInt, { minLength: 1, maxLength: 25 }), async (values) => {
    const back = await roundTrip(values);
    back.forEach(({ nested }, i) => {
      if (typeof nested === 'bigint') {
        expect(nested).toBe(values[i]);
      } else {
        // DynamoDB stores 10n ** 23n and 1e23 alike; the number that prints as the digits wins.
        expect(typeof nested).toBe('number');
        expect(printedInteger(nested as number)).toBe(values[i]);
      }
      // No double prints with more than 17 significant digits.
      if (values[i].toString().replace(/^-/, '').replace(/0+$/, '').length > 17) expect(typeof nested).toBe('bigint');
    });
  }), { numRuns: propertyRuns(40) });
});

test('bigints past 2^53 stay bigints; digits a number prints as come back as that number', async () => {
  const values = [2n ** 64n, -(2n ** 53n) - 1n, 10n ** 37n + 1n, 10n ** 23n, 2n ** 53n];
  expect((await roundTrip(values)).map((r) => r.nested)).toEqual([2n ** 64n, -(2n ** 53n) - 1n, 10n ** 37n + 1n, 1e23, 2 ** 53]);
});
