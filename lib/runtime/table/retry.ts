// Retries with jittered exponential backoff. DynamoDB answers overload in two ways: a throttling
// error for the whole request, or a partial batch result (UnprocessedKeys/UnprocessedItems). Both
// are retried here up to a bound; the SDK's own retries (for single requests) run inside each attempt.

/** How often and how patiently to retry. */
export interface RetryPolicy {
  /** Attempts in all, the first included. @default 8 */
  readonly maxAttempts?: number;
  /** Delay cap of the first retry in ms; doubles per attempt. @default 25 */
  readonly baseDelayMs?: number;
  /** Largest delay cap in ms. @default 2000 */
  readonly maxDelayMs?: number;
}

/** ThrottlingException, ProvisionedThroughputExceededException, TooManyRequestsException, RequestLimitExceeded. */
const THROTTLING = /^((Throttling|ProvisionedThroughputExceeded|TooManyRequests)Exception|RequestLimitExceeded)$/;

/** Whether an SDK error means "slow down". */
export function isThrottling(error: unknown): boolean {
  return !!error && (THROTTLING.test((error as Error).name) || (error as { $retryable?: { throttling?: boolean } }).$retryable?.throttling === true);
}

/** Full-jitter delay before retry number `retry` (1-based): uniform in [0, min(max, base * 2^(retry-1))]. */
export function backoffDelay(policy: RetryPolicy, retry: number): number {
  return Math.random() * Math.min(policy.maxDelayMs ?? 2000, (policy.baseDelayMs ?? 25) * 2 ** (retry - 1));
}

/** Waits the delay before retry number `retry` (see backoffDelay). */
export const backoff = (policy: RetryPolicy, retry: number) => new Promise<void>((resolve) => setTimeout(resolve, backoffDelay(policy, retry)));

/** Runs `run`, retrying throttling errors; other errors and the last throttling error propagate. */
export async function withThrottlingRetry<T>(policy: RetryPolicy, run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!isThrottling(error) || attempt >= (policy.maxAttempts ?? 8)) throw error;
      await backoff(policy, attempt);
    }
  }
}
