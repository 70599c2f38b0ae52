// Minimal Lambda for the bundle-size and cold-require benchmarks: writes an order and reads the
// orders of a status (TABLE_NAME from the environment), as users do: the compiled model file
// (`single-table generate`), the manifest imported for its type only, and the two operations.
import { openTable, putItem, query } from '../../lib/runtime';
import type { manifest } from '../model/manifest';
import model from '../model/manifest.model.json';
import type { Order } from '../model/order';

const table = openTable<typeof manifest>(model);

export async function handler(event: { order: Order }) {
  await putItem(table, 'Order', event.order);
  return (await query(table, 'ordersByStatus', { status: event.order.status })).items;
}
