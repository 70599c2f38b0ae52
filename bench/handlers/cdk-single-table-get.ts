// Minimal Lambda that only reads an order by its table key: what a handler carries when it calls
// one operation (the bundle-size benchmark's get-only figure).
import type { manifest } from '../model/manifest';
import { getItem, openTable } from '../model/manifest.access';

const table = openTable<typeof manifest>();

export async function handler(event: { username: string; orderId: string }) {
  return getItem(table, 'Order', { username: event.username, orderId: event.orderId });
}
