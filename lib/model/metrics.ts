// The CloudWatch metric of LSI item collection sizes: the runtime publishes it (an Embedded Metric
// Format log line after writes on a table with LSIs) and the construct's `monitor()` alarms on it.
// One definition for both sides, with no imports, so the runtime bundle stays free of aws-cdk-lib.

/** The metric's namespace, name and dimension; the construct alarms on the same metric. */
export const ITEM_COLLECTION_NAMESPACE = 'SingleTable';
export const ITEM_COLLECTION_METRIC = 'ItemCollectionSizeUpperBoundGB';
export const ITEM_COLLECTION_DIMENSION = 'TableName';

/** DynamoDB's limit per item collection, and the size from which the runtime warns. */
export const ITEM_COLLECTION_LIMIT_GB = 10;
export const ITEM_COLLECTION_WARNING_GB = 8;
