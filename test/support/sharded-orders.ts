// The sharded model of the runtime's sharding tests on the embedded engine: orders by status, then customer and
// date, on a write-sharded GSI1 (STATUS#{status} / CUSTOMER#{customerId}#{createdAt}).
import { AttributeKind, ProjectionKind, ShardingDefinition, SingleTableManifest, SortKeyCondition } from '../../lib/manifest/structs';

export type ShardedOrder = { customerId: string; orderId: string; status: string; createdAt: string };

/** The manifest with GSI1 sharded so; pattern `byStatusAndCustomer` queries it with begins_with. */
export function shardedOrders(sharding: ShardingDefinition): SingleTableManifest {
  return {
    entities: {
      Order: {
        attributes: {
          customerId: { type: AttributeKind.STRING, required: true },
          orderId: { type: AttributeKind.STRING, required: true },
          status: { type: AttributeKind.STRING, required: true },
          createdAt: { type: AttributeKind.DATE, required: true },
        },
        pk: 'CUSTOMER#{customerId}',
        sk: 'ORDER#{orderId}',
        indexes: { GSI1: { pk: 'STATUS#{status}', sk: 'CUSTOMER#{customerId}#{createdAt}' } },
      },
    },
    globalIndexes: { GSI1: { projection: ProjectionKind.ALL, sharding } },
    accessPatterns: { byStatusAndCustomer: { entities: ['Order'], index: 'GSI1', sortKeyCondition: SortKeyCondition.BEGINS_WITH } },
  };
}
