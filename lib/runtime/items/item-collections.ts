// LSI item collections: all items sharing a partition key value, with their LSI entries, must fit
// in 10 GB, and CloudWatch has no metric for their size. With LSIs on the table, writes ask
// DynamoDB for the collection's size estimate (ReturnItemCollectionMetrics: SIZE). By default this
// module publishes the estimate's upper bound as a CloudWatch Embedded Metric Format log line
// (Lambda's log stream turns it into a metric; no SDK call, no dependency) and warns near the limit;
// the client's `itemCollections` option turns that off or hands each estimate to the application.
import type { ItemCollectionMetrics } from '@aws-sdk/client-dynamodb';
import { ITEM_COLLECTION_DIMENSION, ITEM_COLLECTION_LIMIT_GB, ITEM_COLLECTION_METRIC, ITEM_COLLECTION_NAMESPACE, ITEM_COLLECTION_WARNING_GB } from '../../model/metrics';
import type { TableModel } from '../../model/model';
import type { ItemCollectionReporting, Table } from '../table/context';
import { SingleTableError } from '../table/errors';

/** Where the lines go: console in Lambda (stdout is the log stream). */
export interface MetricLog {
  log(line: string): void;
  warn(line: string): void;
}

/** The default: the construct's alarm needs the metric lines. */
export const DEFAULT_ITEM_COLLECTION_REPORTING: ItemCollectionReporting = 'emf';

/** Receives the estimates of one write. */
export type ItemCollectionListener = (metrics: readonly ItemCollectionMetrics[]) => void;

// Built on a table's first write, not when it is opened: a handler that only reads never carries
// this module.
const listeners = new WeakMap<WritingTable, ItemCollectionListener | null>();

/** What the listener is made from: a Table, or a generated access module's table. */
export type WritingTable = Pick<Table<unknown>, 'tableName' | 'options'> & { readonly model: Partial<Pick<TableModel, 'localIndexesEnabled'>> };

/** The listener of a table's writes (see `itemCollectionListener`), made once per table. */
export function collectionsOf(table: WritingTable): ItemCollectionListener | undefined {
  let listener = listeners.get(table);
  if (listener === undefined) {
    listener = itemCollectionListener(table.model, table.tableName, table.options.itemCollections) ?? null;
    listeners.set(table, listener);
  }
  return listener ?? undefined;
}

/**
 * The listener of a client's writes; undefined when nothing listens (reporting off, or a table
 * without LSIs, which has no item collection limit), and then writes do not ask.
 */
export function itemCollectionListener(
  model: Partial<Pick<TableModel, 'localIndexesEnabled'>>,
  tableName: string,
  reporting: ItemCollectionReporting = DEFAULT_ITEM_COLLECTION_REPORTING,
): ItemCollectionListener | undefined {
  if (reporting !== 'emf' && reporting !== 'off' && typeof reporting !== 'function') {
    throw new SingleTableError('INVALID_VALUE', `createClient's itemCollections ${JSON.stringify(reporting) ?? String(reporting)} is not 'emf', 'off' or a function; `
      + "use 'emf' (the default) for metric log lines, 'off', or a function that receives each estimate");
  }
  if (!model.localIndexesEnabled || reporting === 'off') return undefined;
  if (reporting === 'emf') return (metrics) => reportItemCollections(tableName, metrics);
  return (metrics) => {
    for (const m of metrics) {
      const range = m.SizeEstimateRangeGB;
      if (range?.length !== 2) continue;
      try {
        reporting({ tableName, partitionKey: partitionKeyOf(m), lowerBoundGB: range[0], upperBoundGB: range[1] });
      } catch (error) {
        // The write it reports on has succeeded: a throw here would make the caller retry it.
        console.error(`[ITEM_COLLECTION_CALLBACK_FAILED] table ${tableName}: the itemCollections function threw after a successful write: ${String(error)}`);
      }
    }
  };
}

/**
 * Asks a write for item collection metrics when something listens; sets the parameter on the
 * built input rather than copying it into a new one on every write.
 */
export function withItemCollectionRequest<T extends { ReturnItemCollectionMetrics?: string }>(
  listener: ItemCollectionListener | undefined,
  input: T,
): T {
  if (listener) input.ReturnItemCollectionMetrics = 'SIZE';
  return input;
}

/**
 * Logs one EMF line per collection a write touched (its estimate's upper bound), and a warning for
 * those near 10 GB.
 */
export function reportItemCollections(
  tableName: string,
  metrics: readonly ItemCollectionMetrics[],
  log: MetricLog = console,
  now = Date.now(),
): void {
  for (const m of metrics) {
    const upper = m.SizeEstimateRangeGB?.[1];
    if (upper === undefined) continue;
    const key = partitionKeyOf(m);
    log.log(JSON.stringify({
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
      ItemCollectionKey: key,
    }));
    if (upper >= ITEM_COLLECTION_WARNING_GB) {
      log.warn(`[ITEM_COLLECTION_NEAR_LIMIT] table ${tableName}: the item collection ${key} may hold up to ${upper} GB of the ${ITEM_COLLECTION_LIMIT_GB} GB `
        + 'an item collection may hold with LSIs; writes to it fail beyond that. Move items to another partition key or stop growing this one');
    }
  }
}

function partitionKeyOf(metrics: ItemCollectionMetrics): string | undefined {
  const key = Object.values(metrics.ItemCollectionKey ?? {})[0];
  return key?.S ?? key?.N;
}
