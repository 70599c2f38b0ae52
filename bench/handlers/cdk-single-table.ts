// Minimal Lambda for the bundle-size and cold-require benchmarks: writes an order and reads the
// orders of a status (TABLE_NAME from the environment), as users do: the typed access functions
// `single-table generate --access` writes beside the manifest, each carrying only the part of the
// model it reads (the manifest imported for its type only).
import { openTable, putOrder, queryOrdersByStatus } from '../model/manifest.access';
import type { Order } from '../model/order';

const table = openTable();

export async function handler(event: { order: Order }) {
  await putOrder(table, event.order);
  return (await queryOrdersByStatus(table, { status: event.order.status })).items;
}
