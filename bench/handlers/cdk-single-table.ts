// Minimal Lambda for the bundle-size and cold-require benchmarks: writes an order and reads the
// orders of a status through the runtime client (TABLE_NAME from the environment), as users do.
import { createClient } from '../../lib/runtime';
import { manifest } from '../model/manifest';
import type { Order } from '../model/order';

const db = createClient(manifest);

export async function handler(event: { order: Order }) {
  await db.put('Order', event.order);
  return (await db.query('ordersByStatus', { status: event.order.status })).items;
}
