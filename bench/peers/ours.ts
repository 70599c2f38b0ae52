// cdk-single-table: the pure builders the runtime client runs before it sends (lib/runtime/items.ts
// and query.ts), on the model `createClient` compiles once at cold start. This is exactly the work
// of `client.put` / `client.query` up to `dynamodb.send`, validation included.
import type { PutItemCommandInput, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { compileManifest } from '../../lib/manifest/compile';
import { buildPut as buildPutInput } from '../../lib/runtime/items';
import { buildQueryInput, planQuery } from '../../lib/runtime/query';
import { manifest } from '../model/manifest';
import { Order, TABLE_NAME } from '../model/order';

const model = compileManifest(manifest).model;

export function buildPut(order: Order): PutItemCommandInput {
  return buildPutInput(model, TABLE_NAME, 'Order', order as unknown as Record<string, unknown>);
}

export function buildQuery(status: string): QueryCommandInput {
  const plan = planQuery(model, 'ordersByStatus', { status });
  return buildQueryInput(model, TABLE_NAME, plan, plan.condition.pk);
}
