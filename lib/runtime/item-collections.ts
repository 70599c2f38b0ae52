// LSI item collections: all items sharing a partition key value, with their LSI
// entries, must fit in 10 GB, and CloudWatch has no metric for their size. With LSIs on the table,
// writes ask DynamoDB for the collection's size estimate (ReturnItemCollectionMetrics: SIZE); this
// module publishes the estimate's upper bound as a CloudWatch Embedded Metric Format log line
// (Lambda's log stream turns it into a metric; no SDK call, no dependency) and warns near the limit.
import type { ItemCollectionMetrics } from '@aws-sdk/client-dynamodb';
import type { TableModel } from '../manifest/model';

/** The metric's namespace, name and dimension; the construct alarms on the same metric. */
export const ITEM_COLLECTION_NAMESPACE = 'SingleTable';
export const ITEM_COLLECTION_METRIC = 'ItemCollectionSizeUpperBoundGB';
export const ITEM_COLLECTION_DIMENSION = 'TableName';

/** DynamoDB's limit per item collection, and the size from which the runtime warns. */
export const ITEM_COLLECTION_LIMIT_GB = 10;
export const ITEM_COLLECTION_WARNING_GB = 8;

/** Where the lines go: console in Lambda (stdout is the log stream). */
export interface MetricLog {
  log(line: string): void;
  warn(line: string): void;
}

/**
 * Asks a write for item collection metrics (only tables with LSIs have them); sets the parameter
 * on the built input rather than copying it into a new one on every write.
 */
export function withItemCollectionRequest<T extends { ReturnItemCollectionMetrics?: string }>(model: TableModel, input: T): T {
  if (model.localIndexesEnabled) input.ReturnItemCollectionMetrics = 'SIZE';
  return input;
}

/** One EMF log line for one collection's size estimate. */
export function itemCollectionLine(tableName: string, metrics: ItemCollectionMetrics, now: number): string | undefined {
  const upper = metrics.SizeEstimateRangeGB?.[1];
  if (upper === undefined) return undefined;
  return JSON.stringify({
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [{
        Namespace: ITEM_COLLECTION_NAMESPACE,
        Dimensions: [[ITEM_COLLECTION_DIMENSION]],
        Metrics: [{ Name: ITEM_COLLECTION_METRIC, Unit: 'Gigabytes' }],
      }],
    },
    [ITEM_COLLECTION_DIMENSION]: tableName,
    [ITEM_COLLECTION_METRIC]: upper,
    // A property, not a dimension: one metric per table, while the log line still says which collection.
    ItemCollectionKey: partitionKeyOf(metrics),
  });
}

/** Logs the metric line of every collection a write touched, and a warning for those near 10 GB. */
export function reportItemCollections(
  tableName: string,
  metrics: readonly ItemCollectionMetrics[],
  log: MetricLog = console,
  now = Date.now(),
): void {
  for (const m of metrics) {
    const line = itemCollectionLine(tableName, m, now);
    if (line === undefined) continue;
    log.log(line);
    const upper = m.SizeEstimateRangeGB![1];
    if (upper >= ITEM_COLLECTION_WARNING_GB) {
      log.warn(`[ITEM_COLLECTION_NEAR_LIMIT] table ${tableName}: the item collection ${partitionKeyOf(m)} may hold up to ${upper} GB of the ${ITEM_COLLECTION_LIMIT_GB} GB `
        + 'an item collection may hold with LSIs; writes to it fail beyond that. Move items to another partition key or stop growing this one');
    }
  }
}

function partitionKeyOf(metrics: ItemCollectionMetrics): string | undefined {
  const key = Object.values(metrics.ItemCollectionKey ?? {})[0];
  return key?.S ?? key?.N;
}
