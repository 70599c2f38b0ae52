// Minimal Lambda for the bundle-size and cold-require benchmarks: writes an order and reads the
// orders of a status with dynamodb-toolbox over the DocumentClient.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PutItemCommand } from 'dynamodb-toolbox/entity/actions/put';
import { QueryCommand } from 'dynamodb-toolbox/table/actions/query';
import type { Order } from '../model/order';
import { OrderEntity, table } from '../peers/toolbox';

table.documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function handler(event: { order: Order }) {
  await OrderEntity.build(PutItemCommand).item(event.order).send();
  const query = table.build(QueryCommand).entities(OrderEntity).query({ index: 'GSI2', partition: `ORDER#${event.order.status}` });
  return (await query.send()).Items;
}
