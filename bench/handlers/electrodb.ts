// Minimal Lambda for the bundle-size and cold-require benchmarks: writes an order and reads the
// orders of a status with ElectroDB over the DocumentClient.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Order } from '../model/order';
import { OrderEntity } from '../peers/electrodb';

OrderEntity.setClient(DynamoDBDocumentClient.from(new DynamoDBClient({})));

export async function handler(event: { order: Order }) {
  await OrderEntity.put(event.order).go();
  return (await OrderEntity.query.byStatus({ status: event.order.status }).go()).data;
}
