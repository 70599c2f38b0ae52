// Minimal Lambda for the bundle-size and cold-require benchmarks: writes an order and reads the
// orders of a status with OneTable (its table is created with an SDK v3 client in the peer model).
import type { Order } from '../model/order';
import { OrderModel } from '../peers/onetable';

export async function handler(event: { order: Order }) {
  await OrderModel.create(event.order, { exists: null });
  return OrderModel.find({ status: event.order.status }, { index: 'GSI2' });
}
