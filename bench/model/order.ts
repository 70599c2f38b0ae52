// The one model every library in the benchmark implements: an Order in a table with PK/SK, GSI1
// and GSI2. Each peer file (bench/peers/*) builds the same PutItem and Query inputs from it.

/** The entity as application code holds it. */
export interface Order {
  readonly username: string;
  readonly orderId: string;
  readonly status: string;
  /** ISO-8601 UTC with milliseconds: the form our keys normalize dates to, so every library stores the same text. */
  readonly createdAt: string;
  readonly amount: number;
}

export const TABLE_NAME = 'bench-orders';
export const STATUSES = ['PLACED', 'SHIPPED', 'DELIVERED', 'CANCELLED'] as const;

/**
 * Distinct orders to cycle through, so no library is measured on one cached input. Values avoid
 * characters up to `$`, which our keys escape (docs/keys.md): every library then stores the same keys.
 */
export function sampleOrders(count: number): Order[] {
  return Array.from({ length: count }, (_, i) => ({
    username: `user${i % 97}`,
    orderId: `o-${String(i).padStart(6, '0')}`,
    status: STATUSES[i % STATUSES.length],
    createdAt: new Date(Date.UTC(2024, 0, 1) + i * 61_013).toISOString(),
    amount: Math.round(((i * 7919) % 100_000)) / 100,
  }));
}
