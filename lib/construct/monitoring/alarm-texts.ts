// What each alarm says: the cause and the fix, so the person paged does not need to know how DynamoDB throttles GSIs.
import { ThrottleCause, ThrottledOperation } from './metrics';

const CAUSE_FIX: Record<ThrottleCause, string> = {
  [ThrottleCause.KEY_RANGE]: 'a hot partition: one partition key value takes more than a partition can serve. Spread it: give the index `sharding` in the manifest, or choose a key with more distinct values',
  [ThrottleCause.MAX_ON_DEMAND]: 'the maximum on-demand throughput configured for it was reached. Raise or remove the maximum',
  [ThrottleCause.ACCOUNT_LIMIT]: "the account's per-table throughput quota in this region was reached. Request an increase in Service Quotas",
  [ThrottleCause.PROVISIONED]: 'its provisioned capacity was exceeded. Raise the capacity or the autoscaling maximum',
};

/** "the table" or "GSI G". */
export function scopeName(indexName: string | undefined): string {
  return indexName === undefined ? 'the table' : `GSI ${indexName}`;
}

/** Why throttled writes on a GSI matter more than they seem (back-pressure). */
function backPressure(operation: ThrottledOperation, indexName: string | undefined): string {
  return operation === ThrottledOperation.WRITE && indexName !== undefined
    ? ' DynamoDB then also throttles writes to the table (back-pressure), with errors naming the index.'
    : '';
}

export function throttleDescription(operation: ThrottledOperation, indexName: string | undefined): string {
  return `${operation}s to ${scopeName(indexName)} are throttled.${backPressure(operation, indexName)} The per-cause throttle alarms and the dashboard say why.`;
}

export function causeDescription(cause: ThrottleCause, operation: ThrottledOperation, indexName: string | undefined): string {
  return `${operation}s to ${scopeName(indexName)} are throttled by ${CAUSE_FIX[cause]}.${backPressure(operation, indexName)}`;
}
