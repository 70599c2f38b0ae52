// Measured capacity: every request the local run sends asks DynamoDB for its consumed capacity per
// index (ReturnConsumedCapacity INDEXES), and the answers are summed between two `take()` calls,
// so each put and each access pattern is shown with what the engine charged beside what the cost
// model expects.
import type { ConsumedCapacity, DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Units one step consumed: in all, on the table, and per index; undefined when the engine reported none. */
export interface MeasuredUnits {
  readonly total: number;
  readonly table: number;
  readonly indexes: { readonly [index: string]: number };
}

/** Commands that accept ReturnConsumedCapacity. */
const WITH_CAPACITY = new Set([
  'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'GetItemCommand', 'QueryCommand', 'ScanCommand',
  'BatchGetItemCommand', 'BatchWriteItemCommand', 'TransactGetItemsCommand', 'TransactWriteItemsCommand',
]);

/** Starts recording the consumed capacity of everything `client` sends. */
export function recordCapacity(client: DynamoDBClient): { take(): MeasuredUnits | undefined } {
  let reported: ConsumedCapacity[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (WITH_CAPACITY.has(context.commandName ?? '')) (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'INDEXES';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      if (consumed) reported = reported.concat(consumed);
      return result;
    },
    { step: 'initialize', name: 'singleTableLocalCapacity' },
  );
  return {
    take() {
      const taken = reported;
      reported = [];
      return taken.length ? sumCapacity(taken) : undefined;
    },
  };
}

/** Sums what several responses reported. */
export function sumCapacity(reported: readonly ConsumedCapacity[]): MeasuredUnits {
  let total = 0;
  let table = 0;
  const indexes: Record<string, number> = {};
  for (const c of reported) {
    total += c.CapacityUnits ?? 0;
    table += c.Table?.CapacityUnits ?? 0;
    for (const group of [c.GlobalSecondaryIndexes, c.LocalSecondaryIndexes]) {
      for (const [name, units] of Object.entries(group ?? {})) indexes[name] = (indexes[name] ?? 0) + (units.CapacityUnits ?? 0);
    }
  }
  return { total, table, indexes };
}

/** `5 (table 1, GSI1 1, LSI1 1)`, or `not reported`. */
export function formatMeasured(units: MeasuredUnits | undefined): string {
  if (!units) return 'not reported';
  const parts = Object.entries(units.indexes).sort(([a], [b]) => a.localeCompare(b)).map(([name, u]) => `${name} ${round(u)}`);
  return parts.length || units.table !== units.total ? `${round(units.total)} (table ${round(units.table)}${parts.map((p) => `, ${p}`).join('')})` : `${round(units.total)}`;
}

/** Units to two decimals at most (half units are common, float sums are not). */
export function round(units: number): number {
  return Math.round(units * 100) / 100;
}
