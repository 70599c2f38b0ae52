// The classic e-commerce single-table example: its access-pattern table (pattern names, indexes and queries) and
// its entity chart must be expressible as written. The one departure: the chart's Order sort key
// `#ORDER#<orderId>` starts with the delimiter, which templates reject (an empty first segment);
// the example's own earlier tables write it `ORDER#<orderId>`, which is what is used here.
import { composeKey } from '../../lib/keys/template';
import { compileManifest } from '../../lib/manifest/compile';
import { AttributeKind, SortOrder } from '../../lib/model/manifest';
import { KeyTemplateModel } from '../../lib/model/model';

const { model, diagnostics } = compileManifest({
  entities: {
    Customer: {
      attributes: { username: { type: AttributeKind.STRING, required: true } },
      pk: 'CUSTOMER#{username}',
      sk: 'CUSTOMER#{username}',
    },
    Order: {
      attributes: {
        username: { type: AttributeKind.STRING, required: true },
        orderId: { type: AttributeKind.STRING, required: true },
        status: { type: AttributeKind.STRING, required: true },
        timestamp: { type: AttributeKind.DATE, required: true },
      },
      pk: 'CUSTOMER#{username}',
      sk: 'ORDER#{orderId}',
      indexes: {
        GSI1: { pk: 'ORDER#{orderId}', sk: 'ORDER#{orderId}' },
        GSI2: { pk: 'ORDER#{status}', sk: '{timestamp}' },
      },
    },
  },
  globalIndexes: { GSI1: {}, GSI2: {} },
  accessPatterns: {
    'Get Orders for Customer': { entities: ['Order'] },
    'Get Order by OrderId': { entities: ['Order'], index: 'GSI1' },
    'Get Recent Shipped Orders': { entities: ['Order'], index: 'GSI2', order: SortOrder.DESCENDING },
  },
});

const key = (template: KeyTemplateModel, values: Record<string, unknown>) => composeKey(template, values, model.delimiter, model.escapeChar);

test('compiles without findings', () => {
  expect(diagnostics).toEqual([]);
});

test.each([
  // pattern, index, partition key attribute, the example's query value, the attribute values it is composed from
  ['Get Orders for Customer', 'table', 'PK', 'CUSTOMER#alice', { username: 'alice' }],
  ['Get Order by OrderId', 'GSI1', 'GSI1PK', 'ORDER#550e8400', { orderId: '550e8400' }],
  ['Get Recent Shipped Orders', 'GSI2', 'GSI2PK', 'ORDER#SHIPPED', { status: 'SHIPPED' }],
])('%s queries %s where %s = %s', (name, index, keyAttribute, expected, values) => {
  const pattern = model.patterns[name];
  expect(pattern.index).toBe(index);
  expect(model.indexes[index].partitionKey).toBe(keyAttribute);
  expect(key(pattern.pk!, values)).toEqual({ key: expected });
});

test('recent shipped orders come newest first, sorted by the timestamp', () => {
  const pattern = model.patterns['Get Recent Shipped Orders'];
  expect(pattern.order).toBe(SortOrder.DESCENDING);
  expect(pattern.sk?.attributes).toEqual(['timestamp']);
  expect(model.indexes.GSI2.sortKey).toBe('GSI2SK');
});
