// A shop whose design changes under a deployed table, for the backfill tests: customers, orders and
// products; version A as first deployed, B with a new GSI (orders by amount per customer), a
// changed template (products by category then price then id) and GSI2 resharded from 3 to 5, C
// with GSI2 back at 3 shards (5 kept in the history), D with the history dropped, as after a
// completed backfill, and E with orders by amount per customer moved from the composed GSI3 to
// BySpender, keyed on the orders' own customerId and amount (multi-attribute keys).
import { AttributeKind, ProjectionKind, SingleTableManifest, SortKeyCondition } from '../../lib/manifest/structs';

export type Version = 'A' | 'B' | 'C' | 'D' | 'E';

export function shopManifest(version: Version): SingleTableManifest {
  const sharding = {
    A: { shardCount: 3 },
    B: { shardCount: 5, previousShardCounts: [3] },
    C: { shardCount: 3, previousShardCounts: [5] },
    D: { shardCount: 3 },
    E: { shardCount: 3 },
  }[version];
  const spender = version === 'E' ? 'BySpender' : 'GSI3';
  return {
    entities: {
      Customer: {
        attributes: {
          customerId: { type: AttributeKind.STRING, required: true },
          email: { type: AttributeKind.STRING, required: true },
          name: { type: AttributeKind.STRING, required: true },
        },
        pk: 'CUSTOMER#{customerId}',
        sk: 'PROFILE#{customerId}',
        indexes: { GSI1: { pk: 'EMAIL#{email}', sk: 'CUSTOMER#{customerId}' } },
      },
      Order: {
        attributes: {
          customerId: { type: AttributeKind.STRING, required: true },
          orderId: { type: AttributeKind.STRING, required: true },
          status: { type: AttributeKind.STRING, required: true },
          createdAt: { type: AttributeKind.DATE, required: true },
          amount: { type: AttributeKind.NUMBER, required: true },
          note: { type: AttributeKind.STRING },
        },
        pk: 'CUSTOMER#{customerId}',
        sk: 'ORDER#{orderId}',
        indexes: {
          GSI1: { pk: 'ORDER#{orderId}', sk: 'ORDER#{orderId}' },
          GSI2: { pk: 'STATUS#{status}', sk: '{createdAt}' },
          ...(version === 'A' || version === 'E' ? {} : { GSI3: { pk: 'SPENDER#{customerId}', sk: 'AMOUNT#{amount}' } }),
        },
      },
      Product: {
        attributes: {
          productId: { type: AttributeKind.STRING, required: true },
          category: { type: AttributeKind.STRING, required: true },
          price: { type: AttributeKind.NUMBER, required: true },
        },
        pk: 'PRODUCT#{productId}',
        sk: 'PRODUCT#{productId}',
        indexes: { GSI1: { pk: 'CATEGORY#{category}', sk: version === 'A' ? 'PRICE#{price}' : 'PRICE#{price}#{productId}' } },
      },
    },
    globalIndexes: {
      GSI1: { projection: ProjectionKind.ALL },
      GSI2: { projection: ProjectionKind.INCLUDE, include: ['orderId', 'customerId', 'createdAt'], sharding },
      ...(version === 'A' || version === 'E' ? {} : { GSI3: { projection: ProjectionKind.KEYS_ONLY } }),
      ...(version === 'E' ? { BySpender: { projection: ProjectionKind.KEYS_ONLY, partitionAttributes: ['customerId'], sortAttributes: ['amount'] } } : {}),
    },
    accessPatterns: {
      ordersForCustomer: { entities: ['Order'], sortKeyCondition: SortKeyCondition.BEGINS_WITH },
      customerByEmail: { entities: ['Customer'], index: 'GSI1' },
      orderById: { entities: ['Order'], index: 'GSI1', sortKeyCondition: SortKeyCondition.EQUALS },
      ordersByStatus: { entities: ['Order'], index: 'GSI2', attributes: ['orderId', 'customerId', 'createdAt'] },
      productsByCategory: { entities: ['Product'], index: 'GSI1' },
      ...(version === 'A' ? {} : { ordersByAmount: { entities: ['Order'], index: spender } }),
    },
  };
}

export type Row = { entity: 'Customer' | 'Order' | 'Product'; item: Record<string, unknown> };

export const STATUSES = ['OPEN', 'PAID', 'SHIPPED', 'RETURNED'];
export const CATEGORIES = ['books', 'games', 'garden', 'tools', 'toys'];

/** A deterministic shop: `customers` customers with `ordersEach` orders each, and `products` products. */
export function shopRows(customers: number, ordersEach: number, products: number): Row[] {
  const rows: Row[] = [];
  const id = (prefix: string, i: number) => `${prefix}${String(i).padStart(4, '0')}`;
  for (let c = 0; c < customers; c++) {
    rows.push({ entity: 'Customer', item: { customerId: id('c', c), email: `${id('c', c)}@example.com`, name: `Customer ${c}` } });
    for (let o = 0; o < ordersEach; o++) {
      const n = c * ordersEach + o;
      rows.push({
        entity: 'Order',
        item: {
          customerId: id('c', c),
          orderId: id('o', n),
          status: STATUSES[n % STATUSES.length],
          createdAt: new Date(Date.UTC(2025, 0, 1) + n * 3_600_000).toISOString(),
          amount: ((n * 37) % 500) + (n % 3) / 4,
          ...(n % 5 === 0 ? { note: `gift ${n}` } : {}),
        },
      });
    }
  }
  for (let p = 0; p < products; p++) {
    rows.push({ entity: 'Product', item: { productId: id('p', p), category: CATEGORIES[p % CATEGORIES.length], price: ((p * 13) % 90) + 0.99 } });
  }
  return rows;
}
