// cdk-single-table's generic operations: the pure builders `putItem` and `query` run before they
// send (lib/runtime/items/requests.ts and query/plan.ts), on the compiled model file as `openTable` loads it at
// cold start. This is exactly their work up to `dynamodb.send`, validation included.
import type { PutItemCommandInput, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { buildPut as buildPutInput } from '../../lib/runtime/items/requests';
import { buildQueryInput, planQuery } from '../../lib/runtime/query/plan';
import { loadModel } from '../../lib/runtime/table/load-model';
import document from '../model/manifest.model.json';
import { Order, TABLE_NAME } from '../model/order';

const model = loadModel(document);

export function buildPut(order: Order): PutItemCommandInput {
  return buildPutInput(model, TABLE_NAME, 'Order', order as unknown as Record<string, unknown>);
}

export function buildQuery(status: string): QueryCommandInput {
  const plan = planQuery(model, 'ordersByStatus', { status });
  return buildQueryInput(model, TABLE_NAME, plan, plan.condition.pk);
}
