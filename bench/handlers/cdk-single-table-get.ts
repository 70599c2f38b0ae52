// Minimal Lambda that only reads an order by its table key: what a handler carries when it calls
// one operation (the bundle-size benchmark's get-only figure).
import { getItem, openTable } from '../../lib/runtime';
import type { manifest } from '../model/manifest';
import model from '../model/manifest.model.json';

const table = openTable<typeof manifest>(model);

export async function handler(event: { username: string; orderId: string }) {
  return getItem(table, 'Order', { username: event.username, orderId: event.orderId });
}
