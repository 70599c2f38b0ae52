// An update that moves index keys but lacks some of their inputs is refused, before any request,
// with every attribute it must pass at once: passing one moves the keys of the indexes it is an
// input of, which may need others in turn.
import { AttributeKind, compileManifest, SingleTableManifest } from '../../lib';
import { buildUpdate } from '../../lib/runtime/items/update';
import { buildTransactWrite } from '../../lib/runtime/transact/plan';

const text = { type: AttributeKind.STRING };
const manifest: SingleTableManifest = {
  entities: {
    Order: {
      attributes: {
        orderId: { type: AttributeKind.STRING, required: true },
        status: text,
        tenantId: text,
        createdAt: { type: AttributeKind.DATE },
        region: text,
        note: text,
      },
      pk: 'ORDER#{orderId}',
      sk: 'ORDER',
      indexes: {
        GSI1: { pk: 'STATUS#{status}', sk: 'TENANT#{tenantId}' },
        GSI2: { pk: 'TENANT#{tenantId}', sk: 'DATE#{createdAt}' },
        GSI3: { pk: 'REGION#{region}', sk: 'DATE#{createdAt}' },
      },
    },
  },
  globalIndexes: { GSI1: {}, GSI2: {}, GSI3: {} },
};
const model = compileManifest(manifest).model;

test('a status flip names every attribute to pass, through the indexes each one moves, and the update that works', () => {
  const update = () => buildUpdate(model, 'T', 'Order', { orderId: 'o1', status: 'SHIPPED' });
  expect(update).toThrow('[PARTIAL_INDEX_UPDATE] entity Order, attribute tenantId: changes status but not tenantId, which the index keys it moves are also composed from (GSI1: tenantId); '
    + 'pass tenantId, createdAt, region too, with their current values: { orderId, status, tenantId, createdAt, region }; or let the update read them with { readMissing: true }');
  // The update it names is accepted.
  expect(() => buildUpdate(model, 'T', 'Order', { orderId: 'o1', status: 'SHIPPED', tenantId: 't', createdAt: '2024-01-01T00:00:00.000Z', region: 'eu' })).not.toThrow();
  // An attribute in no index key needs nothing more.
  expect(() => buildUpdate(model, 'T', 'Order', { orderId: 'o1', note: 'hi' })).not.toThrow();
});

test('in a transaction, the same list', () => {
  expect(() => buildTransactWrite(model, 'T', [{ type: 'update', entity: 'Order', changes: { orderId: 'o1', region: 'us' } }], [undefined], [false], { now: '2024-01-01T00:00:00.000Z' }))
    .toThrow('action 0 changes region but not createdAt, which the index keys it moves are also composed from (GSI3: createdAt); pass createdAt, tenantId, status too, with their current values: '
      + '{ orderId, region, createdAt, tenantId, status } (a transaction cannot read them first)');
});
