// The README quick start's Lambda on the benchmark's model: the runtime's operations over the
// table `openTable` opens with the model the stack deployed (no generated code), writing an order
// and reading the orders of a status, as the bundle-size and cold-require benchmarks measure it.
import { openTable, putItem, query } from '../../lib/runtime';
import type { manifest } from '../model/manifest';
import type { Order } from '../model/order';

const table = openTable<typeof manifest>();

export async function handler(event: { order: Order }) {
  await putItem(table, 'Order', event.order);
  return (await query(table, 'ordersByStatus', { status: event.order.status })).items;
}
