// cdk-single-table through the generated access module the bench handler calls (putOrder,
// queryOrdersByStatus in bench/model/manifest.access.ts): the pure builders those functions run
// before they send (putRequest, patternRequest) on the same slices of the model, validation included.
import type { PutItemCommandInput, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { patternRequest, putRequest } from '../../lib/runtime';
import { OrderEntity, ordersByStatusPattern, openTable } from '../model/manifest.access';
import { Order, TABLE_NAME } from '../model/order';

// A client is passed so none is constructed; nothing is sent.
const table = openTable({ tableName: TABLE_NAME, client: {} as never });

export function buildPut(order: Order): PutItemCommandInput {
  return putRequest(table, OrderEntity, order as unknown as Record<string, unknown>);
}

export function buildQuery(status: string): QueryCommandInput {
  return patternRequest(table, ordersByStatusPattern, { status }).request;
}
