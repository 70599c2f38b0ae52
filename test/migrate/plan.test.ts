// The planner, pure: what changed between two models, and per item the SET / REMOVE that makes an
// item written under the old model exactly what the runtime writes under the new one.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import * as fc from 'fast-check';
import { resolveModel } from '../../lib/manifest/resolve';
import { fixWriteUnits } from '../../lib/migrate/fix-cost';
import { BackfillPlanError, itemFix, planBackfill } from '../../lib/migrate/plan';
import { itemToWrite } from '../../lib/runtime/items/requests';
import { attributeKeyedManifest } from '../fixtures/attribute-keyed';
import { CATEGORIES, shopManifest, STATUSES } from '../fixtures/shop';
import { ManifestDraft } from '../fixtures/valid-manifest';
import { propertyRuns } from '../support/property-runs';

const [A, B, C, D, E] = (['A', 'B', 'C', 'D', 'E'] as const).map((v) => resolveModel(shopManifest(v)));

type Item = Record<string, AttributeValue>;

/** The item after an UpdateItem with the fix's SET and REMOVE. */
function applied(item: Item, fix: ReturnType<typeof itemFix>): Item {
  if (fix.kind !== 'STALE') return item;
  const out: Item = { ...item, ...fix.set };
  for (const attr of fix.remove) delete out[attr];
  return out;
}

const order = fc.record({
  customerId: fc.stringMatching(/^[a-z0-9#$]{1,8}$/),
  orderId: fc.stringMatching(/^[a-z0-9#$]{1,8}$/),
  status: fc.constantFrom(...STATUSES),
  createdAt: fc.date({ min: new Date('2000-01-01'), max: new Date('2090-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  amount: fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).filter((n) => n === 0 || Math.abs(n) >= 1e-100),
  note: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
});
const product = fc.record({ productId: fc.stringMatching(/^[a-z0-9#$]{1,8}$/), category: fc.constantFrom(...CATEGORIES), price: fc.integer({ min: 0, max: 100_000 }).map((n) => n / 100) });
const customer = fc.record({ customerId: fc.stringMatching(/^[a-z0-9#$]{1,8}$/), email: fc.emailAddress(), name: fc.string({ maxLength: 12 }) });
const row = fc.oneof(
  order.map((item) => ({ entity: 'Order', item })),
  product.map((item) => ({ entity: 'Product', item })),
  customer.map((item) => ({ entity: 'Customer', item })),
);

test.each([
  ['A', 'B', A, B],
  ['B', 'C', B, C],
  ['B', 'A', B, A],
  ['D', 'E', D, E],
  ['E', 'D', E, D],
] as const)('an item written under %s, fixed for %s, is exactly what the runtime writes under the new model; a second fix finds it current', (_a, _b, from, to) => {
  fc.assert(fc.property(row, ({ entity, item }) => {
    const clean = Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined));
    const stored = itemToWrite(from, from.entities[entity], clean);
    const plan = planBackfill(to, from);
    const fixed = applied(stored, itemFix(plan, stored));
    expect(fixed).toEqual(itemToWrite(to, to.entities[entity], clean));
    expect(itemFix(plan, fixed).kind).toBe('CURRENT');
    // No attribute the entity declares is written or removed.
    const fix = itemFix(plan, stored);
    if (fix.kind === 'STALE') {
      for (const attr of [...Object.keys(fix.set), ...fix.remove]) expect(to.entities[entity].attributes[attr]).toBeUndefined();
    }
  }), { numRuns: propertyRuns(30) });
});

test('moving orders by amount from a composed GSI to one keyed on their own attributes removes the composed keys and writes nothing', () => {
  const plan = planBackfill(E, D);
  expect(plan.entities.find((e) => e.entity === 'Order')!.changes).toEqual([
    { index: 'GSI3', change: 'REMOVED', detail: 'SPENDER#{customerId} / AMOUNT#{amount}: attributes removed' },
    { index: 'BySpender', change: 'ADDED', detail: 'keyed on [customerId] / [amount]: DynamoDB indexes the stored values, nothing is written; an item whose value has another type or size is listed as failed' },
  ]);
  const stored = itemToWrite(D, D.entities.Order, { customerId: 'c1', orderId: 'o1', status: 'OPEN', createdAt: '2024-01-01T00:00:00.000Z', amount: 12.5 });
  const fix = itemFix(plan, stored);
  expect(fix).toMatchObject({ kind: 'STALE', set: {}, remove: ['GSI3PK', 'GSI3SK'] });
  // The attributes BySpender keys on are the order's own, stored as they are.
  expect(stored.customerId).toEqual({ S: 'c1' });
  expect(stored.amount).toEqual({ N: '12.5' });
});

test('a fix costs a multi-attribute index only when the item holds every key attribute of it', () => {
  const before = attributeKeyedManifest();
  const after = attributeKeyedManifest() as ManifestDraft;
  delete after.entities.Invoice.indexes;
  delete after.globalIndexes!.GSI1;
  delete after.accessPatterns!.invoiceById;
  // note is optional: an invoice without one is not in ByNote, though it holds tenantId and amount.
  after.globalIndexes!.ByNote = { partitionAttributes: ['tenantId', 'note'], sortAttributes: ['amount'] };
  const [was, now] = [resolveModel(before), resolveModel(after)];
  const stored = itemToWrite(was, was.entities.Invoice, { tenantId: 't', invoiceId: 'i', status: 'OPEN', amount: 3, issuedAt: '2026-01-01T00:00:00.000Z' });
  const fix = itemFix(planBackfill(now, was), stored);
  expect(fix).toMatchObject({ kind: 'STALE', remove: ['GSI1PK', 'GSI1SK'] });
  // The table write, and ByStatus (ALL) rewriting its entry; not ByRegion or ByNote, which the item is not in.
  expect(fixWriteUnits(now, stored, fix as Extract<typeof fix, { kind: 'STALE' }>)).toBe(2);
});

test('the plan names each slot change; without the previous model, the shard history', () => {
  const changes = Object.fromEntries(planBackfill(B, A).entities.map((e) => [e.entity, e.changes.map((c) => `${c.index} ${c.change}`)]));
  expect(changes).toEqual({ Customer: [], Order: ['GSI2 SHARDS', 'GSI3 ADDED'], Product: ['GSI1 TEMPLATE'] });
  expect(planBackfill(B).entities.find((e) => e.entity === 'Order')!.changes).toEqual([
    { index: 'GSI2', change: 'SHARDS', detail: '3 shard(s) -> 5 shard(s), RANDOM' },
  ]);
  // Retiring GSI3 removes its attributes: they are managed because the previous model had them.
  expect(planBackfill(A, B).managed).toEqual(expect.arrayContaining(['GSI3PK', 'GSI3SK']));
  expect(planBackfill(A).managed).not.toContain('GSI3PK');
});

test('a changed table key template is refused before any item is read, naming the entity and both templates', () => {
  const moved = shopManifest('B');
  const entities = { ...moved.entities, Product: { ...moved.entities.Product, sk: 'ITEM#{productId}' } };
  expect(() => planBackfill(resolveModel({ ...moved, entities }), B)).toThrow(BackfillPlanError);
  expect(() => planBackfill(resolveModel({ ...moved, entities }), B)).toThrow(/entity Product: its table key changed from PRODUCT#\{productId\} \/ PRODUCT#\{productId\} to PRODUCT#\{productId\} \/ ITEM#\{productId\}/);
});

test('an item without a type attribute is identified by its table key; an unknown type is skipped; a bad stored value fails naming it', () => {
  const plan = planBackfill(B, A);
  const raw: Item = { PK: { S: 'PRODUCT#p1' }, SK: { S: 'PRODUCT#p1' }, productId: { S: 'p1' }, category: { S: 'toys' }, price: { N: '5' } };
  const fix = itemFix(plan, raw);
  expect(fix).toMatchObject({ kind: 'STALE', entity: 'Product', set: { Type: { S: 'Product' }, GSI1PK: { S: 'CATEGORY#toys' } } });
  expect(itemFix(plan, { ...raw, Type: { S: 'Invoice' } })).toEqual({ kind: 'SKIPPED', reason: 'type "Invoice" is no entity of the manifest' });
  const bad = itemFix(plan, { ...itemToWrite(A, A.entities.Product, { productId: 'p2', category: 'toys', price: 1 }), price: { S: 'cheap' } });
  expect(bad).toMatchObject({ kind: 'FAILED', entity: 'Product' });
  expect((bad as { reason: string }).reason).toMatch(/price/);
});
