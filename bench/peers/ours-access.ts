// cdk-single-table through the generated access module the bench handler calls (putItem, query
// in bench/model/manifest.access.ts, which look up OrderPut and ordersByStatusPattern): the pure builders they run
// before they send (itemPutRequest, patternRequest) on the same parts of the model, validation included.
import type { PutItemCommandInput, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { itemPutRequest, patternRequest } from '../../lib/runtime/access';
import { OrderPut, ordersByStatusPattern, openTable } from '../model/manifest.access';
import { Order, TABLE_NAME } from '../model/order';

// A client is passed so none is constructed; nothing is sent.
const table = openTable({ tableName: TABLE_NAME, client: {} as never });

export function buildPut(order: Order): PutItemCommandInput {
  return itemPutRequest(table, OrderPut, order);
}

export function buildQuery(status: string): QueryCommandInput {
  return patternRequest(table, ordersByStatusPattern, { status }).request;
}
