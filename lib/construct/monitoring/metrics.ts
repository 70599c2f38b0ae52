// Metric factories for a SingleTable: CloudWatch metrics only, no alarms (those are wired in
// ./alarms). Throttle metrics are per table or per GSI: the table-level WriteThrottleEvents does not
// count GSI throttles, which need the GlobalSecondaryIndexName dimension. The per-cause metrics
// split throttles by the reason DynamoDB gives (the four reasons DynamoDB gives for GSI throttling).
import { Duration } from 'aws-cdk-lib';
import { IMetric, MathExpression, Metric, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import { ITEM_COLLECTION_DIMENSION, ITEM_COLLECTION_METRIC, ITEM_COLLECTION_NAMESPACE } from '../../model/metrics';

/** Reads or writes. */
export enum ThrottledOperation {
  /** Reads. */
  READ = 'Read',
  /** Writes. */
  WRITE = 'Write',
}

/** Why DynamoDB throttled: each has its own metric, `<Read|Write><cause>ThrottleEvents`. */
export enum ThrottleCause {
  /** One partition (a hot key) exceeded the per-partition limit: spread the key (write sharding). */
  KEY_RANGE = 'KeyRangeThroughput',
  /** On-demand: the configured maximum throughput was reached. */
  MAX_ON_DEMAND = 'MaxOnDemandThroughput',
  /** On-demand: the account's per-table throughput quota in the region was reached. */
  ACCOUNT_LIMIT = 'AccountLimit',
  /** Provisioned: the provisioned capacity was exceeded. */
  PROVISIONED = 'ProvisionedThroughput',
}

/** The operations the runtime sends; their system errors are summed (an alarm takes at most 10 metrics). */
export const RUNTIME_OPERATIONS = ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'];

const DYNAMODB = 'AWS/DynamoDB';
const MINUTE = Duration.minutes(1);

/** CloudWatch metrics of one table and its GSIs. */
export class SingleTableMetrics {
  /** @param tableName the table's name (a token is fine) */
  constructor(private readonly tableName: string) {}

  /**
   * Throttled read or write events per minute, of the table or of one GSI.
   * @param indexName a GSI name; omit for the table
   */
  public throttleEvents(operation: ThrottledOperation, indexName?: string): Metric {
    return this.dynamodb(`${operation}ThrottleEvents`, indexName);
  }

  /**
   * Throttled events per minute for one cause, of the table or of one GSI.
   * @param indexName a GSI name; omit for the table
   */
  public throttleEventsByCause(cause: ThrottleCause, operation: ThrottledOperation, indexName?: string): Metric {
    return this.dynamodb(`${operation}${cause}ThrottleEvents`, indexName);
  }

  /**
   * Capacity units consumed per minute, of the table or of one GSI.
   * @param indexName a GSI name; omit for the table
   */
  public consumedCapacity(operation: ThrottledOperation, indexName?: string): Metric {
    return this.dynamodb(`Consumed${operation}CapacityUnits`, indexName);
  }

  /** Server-side errors per minute, summed over the operations the runtime sends. */
  public systemErrors(): IMetric {
    const usingMetrics: Record<string, IMetric> = {};
    RUNTIME_OPERATIONS.forEach((operation, i) => {
      usingMetrics[`e${i}`] = new Metric({
        namespace: DYNAMODB,
        metricName: 'SystemErrors',
        dimensionsMap: { TableName: this.tableName, Operation: operation },
        statistic: Stats.SUM,
        period: MINUTE,
      });
    });
    // FILL: an operation without errors has no data points, which would blank the whole sum.
    return new MathExpression({ expression: 'SUM(FILL(METRICS(), 0))', usingMetrics, label: 'SystemErrors', period: MINUTE });
  }

  /** The largest item collection size estimate (upper bound, GB) the runtime logged in 5 minutes. */
  public itemCollectionSize(): Metric {
    return new Metric({
      namespace: ITEM_COLLECTION_NAMESPACE,
      metricName: ITEM_COLLECTION_METRIC,
      dimensionsMap: { [ITEM_COLLECTION_DIMENSION]: this.tableName },
      statistic: Stats.MAXIMUM,
      period: Duration.minutes(5),
    });
  }

  private dynamodb(metricName: string, indexName?: string): Metric {
    return new Metric({
      namespace: DYNAMODB,
      metricName,
      dimensionsMap: indexName === undefined ? { TableName: this.tableName } : { TableName: this.tableName, GlobalSecondaryIndexName: indexName },
      statistic: Stats.SUM,
      period: MINUTE,
    });
  }
}
