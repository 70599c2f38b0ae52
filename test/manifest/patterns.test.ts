// Access pattern rules: a pattern names what exists, its index holds its entities, and the query
// it describes (sort-key condition, order, consistency, attributes) is one DynamoDB can run.
import { checkManifest } from '../../lib/manifest/compile';
import { AttributeKind, SortKeyCondition, SortOrder } from '../../lib/model/manifest';
import { SortKeyCoverage } from '../../lib/model/model';
import { edited, findings, ManifestDraft, theFinding } from '../fixtures/valid-manifest';

test('PATTERN_ENTITY_UNKNOWN: a pattern naming an undeclared entity', () => {
  const d = theFinding(edited((m) => { m.accessPatterns!.ordersForCustomer.entities = ['Ordr']; }), 'PATTERN_ENTITY_UNKNOWN');
  expect(d.location).toBe('pattern ordersForCustomer');
  expect(d.message).toContain("entity 'Ordr'");
  expect(d.fix).toBe("did you mean 'Order'? use one of: Customer, Order");
});

test('PATTERN_INDEX_UNKNOWN: a pattern naming an undeclared index', () => {
  const d = theFinding(edited((m) => { m.accessPatterns!.orderById.index = 'GSI7'; }), 'PATTERN_INDEX_UNKNOWN');
  expect(d.location).toBe('pattern orderById');
  expect(d.message).toContain("index 'GSI7'");
  expect(d.fix).toContain('table, GSI1, GSI2, LSI1');
  expect(theFinding(edited((m) => { m.accessPatterns!.orderById.index = 'gsi2'; }), 'PATTERN_INDEX_UNKNOWN').fix).toMatch(/^did you mean 'GSI2'\? use one of/);
  expect(theFinding(edited((m) => { m.accessPatterns!.orderById.index = 'ByEmail'; }), 'PATTERN_INDEX_UNKNOWN').fix).toMatch(/^use one of/);
});

test('PATTERN_INDEX_UNKNOWN: a pattern on an LSI slot while LSIs are off', () => {
  const d = theFinding(edited((m) => { m.localIndexes = { enabled: false }; delete m.entities.Order.indexes!.LSI1; }), 'PATTERN_INDEX_UNKNOWN');
  expect(d.location).toBe('pattern ordersByDate');
  expect(d.message).toContain("index 'LSI1'");
});

test('PATTERN_INDEX_NOT_POPULATED: a pattern on an index its entity does not populate', () => {
  const d = theFinding(edited((m) => { m.accessPatterns!.customerByStatus = { entities: ['Customer'], index: 'GSI2' }; }), 'PATTERN_INDEX_NOT_POPULATED');
  expect(d.location).toBe('pattern customerByStatus');
  expect(d.message).toContain('Customer does not populate GSI2');
  expect(d.fix).toContain('add GSI2 key templates to entity Customer');
});

test('PATTERN_NO_ENTITY: a pattern returning no entity', () => {
  const d = theFinding(edited((m) => { m.accessPatterns!.orderById.entities = []; }), 'PATTERN_NO_ENTITY');
  expect(d.location).toBe('pattern orderById');
});

test('PATTERN_CONDITION_WITHOUT_SORT_KEY: a sort-key condition on an index without a sort key', () => {
  const d = theFinding(edited((m) => {
    m.globalIndexes!.GSI2.hasSortKey = false;
    delete m.entities.Order.indexes!.GSI2.sk;
    m.accessPatterns!.ordersByStatus.sortKeyCondition = SortKeyCondition.BEGINS_WITH;
  }), 'PATTERN_CONDITION_WITHOUT_SORT_KEY');
  expect(d.location).toBe('pattern ordersByStatus');
  expect(d.message).toContain('BEGINS_WITH on GSI2, which has no sort key');
  expect(d.fix).toContain('SortKeyCondition.NONE');
});

test('PATTERN_CONDITION_INVALID: a sort-key condition that is not a SortKeyCondition', () => {
  const d = theFinding(edited((m) => { m.accessPatterns!.orderById.sortKeyCondition = 'STARTS_WITH' as never; }), 'PATTERN_CONDITION_INVALID');
  expect(d.message).toContain('"STARTS_WITH"');
});

test('PATTERN_ORDER_INVALID: an order that is not a SortOrder', () => {
  const d = theFinding(edited((m) => { m.accessPatterns!.orderById.order = 'NEWEST' as SortOrder; }), 'PATTERN_ORDER_INVALID');
  expect(d.message).toContain('"NEWEST"');
});

test('PATTERN_CONSISTENT_READ_ON_GSI: strong consistency required from a GSI', () => {
  const d = theFinding(edited((m) => { m.accessPatterns!.orderById.consistentRead = true; }), 'PATTERN_CONSISTENT_READ_ON_GSI');
  expect(d.location).toBe('pattern orderById');
  expect(d.message).toContain('GSI GSI1');
  expect(d.fix).toContain('read from the table or an LSI');
});

test('strong consistency is fine on the table and on an LSI', () => {
  expect(findings(edited((m) => { m.accessPatterns!.ordersForCustomer.consistentRead = true; }))).toEqual([]);
});

test('COLLECTION_PK_MISMATCH: a collection whose entities have different partition keys', () => {
  const d = theFinding(edited((m) => { m.accessPatterns!.emailAndOrder = { entities: ['Customer', 'Order'], index: 'GSI1' }; }), 'COLLECTION_PK_MISMATCH');
  expect(d.location).toBe('pattern emailAndOrder');
  expect(d.message).toContain('Customer (pk EMAIL#{email}) and Order (pk ORDER#{orderId})');
});

test('a collection sharing the table partition key is fine', () => {
  expect(findings(edited((m) => { m.accessPatterns!.customerWithOrders = { entities: ['Customer', 'Order'] }; }))).toEqual([]);
});

test('COLLECTION_SK_NO_SHARED_PREFIX: a sort-key condition over entities whose sort keys share no leading segment', () => {
  // Built from the first entity's key, the condition would silently leave the other entity out.
  const d = theFinding(edited((m) => {
    m.accessPatterns!.customerWithOrders = { entities: ['Customer', 'Order'], sortKeyCondition: SortKeyCondition.BEGINS_WITH };
  }), 'COLLECTION_SK_NO_SHARED_PREFIX');
  expect(d.location).toBe('pattern customerWithOrders');
  expect(d.message).toContain('Customer CUSTOMER#{username}, Order ORDER#{orderId}');
  expect(d.message).toContain('share no leading segment');
  expect(d.fix).toContain('SortKeyCondition.NONE');
});

/** The valid manifest with order lines `ORDER#{orderId}#LINE#{lineNo}` under each order. */
function withLines(m: ManifestDraft): void {
  m.entities.Line = {
    attributes: {
      username: { type: AttributeKind.STRING, required: true },
      orderId: { type: AttributeKind.STRING, required: true },
      lineNo: { type: AttributeKind.NUMBER, required: true },
    },
    pk: 'CUSTOMER#{username}',
    sk: 'ORDER#{orderId}#LINE#{lineNo}',
    maxItemsPerPartition: 10_000,
  };
}

test('a collection pattern queries by the sort-key prefix its entities share: a parent and its children', () => {
  const { model, diagnostics } = checkManifest(edited((m) => {
    withLines(m);
    m.accessPatterns!.orderWithLines = { entities: ['Line', 'Order'], sortKeyCondition: SortKeyCondition.EQUALS };
    m.accessPatterns!.ordersWithLines = { entities: ['Order', 'Line'], sortKeyCondition: SortKeyCondition.BETWEEN };
  }));
  expect(diagnostics).toEqual([]);
  for (const name of ['orderWithLines', 'ordersWithLines']) {
    const pattern = model!.patterns[name];
    expect(pattern.sk).toEqual({ source: 'ORDER#{orderId}', segments: [{ literal: 'ORDER' }, { attribute: 'orderId', kind: AttributeKind.STRING }], attributes: ['orderId'] });
    expect(pattern.skCoverage).toBe(SortKeyCoverage.KEY_AND_BELOW);
  }
  // One entity: its own sort key, standing for itself.
  expect(model!.patterns.ordersForCustomer.sk?.source).toBe('ORDER#{orderId}');
  expect(model!.patterns.ordersForCustomer.skCoverage).toBeUndefined();
});

test('a shared prefix of literals only is usable; a same-named attribute of another kind ends the shared prefix', () => {
  const { model, diagnostics } = checkManifest(edited((m) => {
    withLines(m);
    m.entities.Line.sk = 'ORDER#{lineNo}#LINE';
    m.accessPatterns!.orderThings = { entities: ['Order', 'Line'], sortKeyCondition: SortKeyCondition.BEGINS_WITH };
  }));
  expect(diagnostics).toEqual([]);
  expect(model!.patterns.orderThings.sk?.source).toBe('ORDER');
  expect(model!.patterns.orderThings.skCoverage).toBe(SortKeyCoverage.BELOW);
});

test('PATTERN_ATTRIBUTE_UNDECLARED: a pattern needing an attribute its entities lack', () => {
  const d = theFinding(edited((m) => { m.accessPatterns!.ordersByStatus.attributes = ['orderId', 'total']; }), 'PATTERN_ATTRIBUTE_UNDECLARED');
  expect(d.location).toBe('pattern ordersByStatus');
  expect(d.message).toContain("'total'");
});
