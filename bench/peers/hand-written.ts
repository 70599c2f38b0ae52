// The reference: PutItem and Query inputs written out by hand with AttributeValues, as code
// without any library does it. The fastest any builder can be; every other peer is a ratio to it.
import type { PutItemCommandInput, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { Order, TABLE_NAME } from '../model/order';

export function buildPut(order: Order): PutItemCommandInput {
  return {
    TableName: TABLE_NAME,
    Item: {
      PK: { S: `CUSTOMER#${order.username}` },
      SK: { S: `ORDER#${order.orderId}` },
      GSI1PK: { S: `ORDER#${order.orderId}` },
      GSI1SK: { S: `ORDER#${order.orderId}` },
      GSI2PK: { S: `ORDER#${order.status}` },
      GSI2SK: { S: order.createdAt },
      // Single-table items carry their type, as every library here writes one.
      Type: { S: 'Order' },
      username: { S: order.username },
      orderId: { S: order.orderId },
      status: { S: order.status },
      createdAt: { S: order.createdAt },
      amount: { N: String(order.amount) },
    },
  };
}

export function buildQuery(status: string): QueryCommandInput {
  return {
    TableName: TABLE_NAME,
    IndexName: 'GSI2',
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': 'GSI2PK' },
    ExpressionAttributeValues: { ':pk': { S: `ORDER#${status}` } },
  };
}
