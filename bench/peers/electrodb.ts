// ElectroDB 3: the Order entity with key templates and `casing: 'none'` (ElectroDB lowercases keys
// by default, which would store other keys than the other libraries). `.params()` builds the
// DocumentClient input without sending; the DocumentClient (lib-dynamodb) marshalls it to
// AttributeValues before it goes out, so that step is part of building the input here too.
import type { PutItemCommandInput, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { Entity } from 'electrodb';
import { Order, TABLE_NAME } from '../model/order';

export const OrderEntity = new Entity({
  model: { entity: 'Order', version: '1', service: 'bench' },
  attributes: {
    username: { type: 'string', required: true },
    orderId: { type: 'string', required: true },
    status: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
    amount: { type: 'number', required: true },
  },
  indexes: {
    byCustomer: {
      pk: { field: 'PK', composite: ['username'], template: 'CUSTOMER#${username}', casing: 'none' },
      sk: { field: 'SK', composite: ['orderId'], template: 'ORDER#${orderId}', casing: 'none' },
    },
    byId: {
      index: 'GSI1',
      pk: { field: 'GSI1PK', composite: ['orderId'], template: 'ORDER#${orderId}', casing: 'none' },
      sk: { field: 'GSI1SK', composite: ['orderId'], template: 'ORDER#${orderId}', casing: 'none' },
    },
    byStatus: {
      index: 'GSI2',
      pk: { field: 'GSI2PK', composite: ['status'], template: 'ORDER#${status}', casing: 'none' },
      sk: { field: 'GSI2SK', composite: ['createdAt'], template: '${createdAt}', casing: 'none' },
    },
  },
}, { table: TABLE_NAME });

export function buildPut(order: Order): PutItemCommandInput {
  const params = OrderEntity.put(order).params();
  return { ...params, Item: marshall(params.Item) } as PutItemCommandInput;
}

export function buildQuery(status: string): QueryCommandInput {
  const params = OrderEntity.query.byStatus({ status }).params();
  return { ...params, ExpressionAttributeValues: marshall(params.ExpressionAttributeValues) } as QueryCommandInput;
}
