// dynamodb-toolbox 2: table keys from `computeKey`, GSI keys as linked attributes, no timestamps
// (no other model writes them). `.params()` of PutItemCommand / QueryCommand builds the
// DocumentClient input without sending; the DocumentClient (lib-dynamodb) marshalls it to
// AttributeValues before it goes out, so that step is part of building the input here too.
import type { PutItemCommandInput, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { Entity } from 'dynamodb-toolbox/entity';
import { PutItemCommand } from 'dynamodb-toolbox/entity/actions/put';
import { item } from 'dynamodb-toolbox/schema/item';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { Table } from 'dynamodb-toolbox/table';
import { QueryCommand } from 'dynamodb-toolbox/table/actions/query';
import { Order, TABLE_NAME } from '../model/order';

const index = (name: string) => ({
  type: 'global' as const,
  partitionKey: { name: `${name}PK`, type: 'string' as const },
  sortKey: { name: `${name}SK`, type: 'string' as const },
});

export const table = new Table({
  name: TABLE_NAME,
  partitionKey: { name: 'PK', type: 'string' },
  sortKey: { name: 'SK', type: 'string' },
  indexes: { GSI1: index('GSI1'), GSI2: index('GSI2') },
});

const schema = item({
  username: string().key(),
  orderId: string().key(),
  status: string(),
  createdAt: string(),
  amount: number(),
}).and((base) => ({
  GSI1PK: string().link<typeof base>(({ orderId }) => `ORDER#${orderId}`),
  GSI1SK: string().link<typeof base>(({ orderId }) => `ORDER#${orderId}`),
  GSI2PK: string().link<typeof base>(({ status }) => `ORDER#${status}`),
  GSI2SK: string().link<typeof base>(({ createdAt }) => createdAt),
}));

export const OrderEntity = new Entity({
  name: 'Order',
  table,
  schema,
  computeKey: ({ username, orderId }) => ({ PK: `CUSTOMER#${username}`, SK: `ORDER#${orderId}` }),
  timestamps: false,
});

export function buildPut(order: Order): PutItemCommandInput {
  const { ToolboxItem: _, ...params } = OrderEntity.build(PutItemCommand).item(order).params();
  return { ...params, Item: marshall(params.Item) } as PutItemCommandInput;
}

export function buildQuery(status: string): QueryCommandInput {
  const params = table.build(QueryCommand).entities(OrderEntity).query({ index: 'GSI2', partition: `ORDER#${status}` }).params();
  return { ...params, ExpressionAttributeValues: marshall(params.ExpressionAttributeValues) } as QueryCommandInput;
}
