// The README quick start's Lambda on the benchmark's model, writing an order and reading the
// orders of a status, as the bundle-size and cold-require benchmarks measure it. The two handlers
// differ by their import line only: cdk-single-table.ts imports the access module
// `single-table generate --access` writes (each function carrying its part of the model),
// cdk-single-table-generic.ts the runtime (the model the stack deployed).
import { openTable, putItem, query } from '../../lib/runtime';
import type { manifest } from '../model/manifest';
import type { Order } from '../model/order';

const table = openTable<typeof manifest>();

export async function handler(event: { order: Order }) {
  await putItem(table, 'Order', event.order);
  return (await query(table, 'ordersByStatus', { status: event.order.status })).items;
}
