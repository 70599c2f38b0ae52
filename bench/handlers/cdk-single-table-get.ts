// Minimal Lambda that only reads an order by its table key: what a handler carries when it calls
// one operation (the bundle-size benchmark's get-only figure).
import { getOrder, openTable } from '../model/manifest.access';

const table = openTable();

export async function handler(event: { username: string; orderId: string }) {
  return getOrder(table, { username: event.username, orderId: event.orderId });
}
