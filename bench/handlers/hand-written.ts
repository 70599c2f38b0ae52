// Minimal Lambda for the bundle-size and cold-require benchmarks: writes an order and reads the
// orders of a status, with the hand-written inputs sent by the bare SDK client.
import { DynamoDBClient, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import type { Order } from '../model/order';
import { buildPut, buildQuery } from '../peers/hand-written';

const client = new DynamoDBClient({});

export async function handler(event: { order: Order }) {
  await client.send(new PutItemCommand(buildPut(event.order)));
  return (await client.send(new QueryCommand(buildQuery(event.order.status)))).Items;
}
