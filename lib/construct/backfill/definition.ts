// The backfill's state machine: a Pass state lists the scan segments 0..N-1, a Distributed Map
// runs one child execution per segment (at most `maxConcurrency` at once), and each child invokes
// the segment function in a loop: the function returns its checkpoint when its time runs short,
// and a Choice sends the state back to it until the segment is done, so a long segment spans many
// invocations and none loses the pages it finished.
import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import {
  Choice, Condition, DistributedMap, Fail, IChainable, JitterType, JsonPath, Pass, StateMachineType, Succeed,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';

/** Errors of the Lambda service itself (the function did not run, or its answer was lost): invoking again is safe. */
export const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.ClientExecutionTimeoutException',
  'Lambda.TooManyRequestsException',
];

/**
 * DynamoDB throttling the function still met after its own retries. The state still holds the
 * checkpoint the invocation started from; the pages it finished are found current when read again.
 */
export const THROTTLING_ERRORS = ['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded'];

/** What the definition is built from. */
export interface BackfillDefinitionProps {
  readonly fn: IFunction;
  readonly segments: number;
  readonly maxConcurrency: number;
}

/** The state machine's definition. */
export function backfillDefinition(scope: Construct, props: BackfillDefinitionProps): IChainable {
  // States.ArrayRange builds the list in the execution (at most 1000 items), not in the definition.
  const list = new Pass(scope, 'ListSegments', {
    parameters: { 'segments.$': `States.ArrayRange(0, ${props.segments - 1}, 1)` },
  });
  const work = new LambdaInvoke(scope, 'WorkSegment', {
    lambdaFunction: props.fn,
    payloadResponseOnly: true,
    retryOnServiceExceptions: false,
  });
  work.addRetry({ errors: LAMBDA_SERVICE_ERRORS, interval: Duration.seconds(2), maxAttempts: 6, backoffRate: 2, jitterStrategy: JitterType.FULL });
  work.addRetry({
    errors: THROTTLING_ERRORS,
    interval: Duration.seconds(30),
    maxAttempts: 8,
    backoffRate: 2,
    maxDelay: Duration.minutes(10),
    jitterStrategy: JitterType.FULL,
  });
  const loop = new Choice(scope, 'SegmentDone')
    .when(Condition.booleanEquals('$.done', false), work)
    .when(Condition.numberGreaterThan('$.counts.failed', 0), new Fail(scope, 'ItemsNotFixed', {
      error: 'ItemsNotFixed',
      cause: 'Items of this segment could not be fixed; the segment function logged each with its key and the reason. The rest of the segment is backfilled.',
    }))
    .otherwise(new Succeed(scope, 'SegmentBackfilled'));
  const map = new DistributedMap(scope, 'EachSegment', {
    itemsPath: '$.segments',
    itemSelector: { 'segment.$': '$$.Map.Item.Value', 'totalSegments': props.segments },
    maxConcurrency: props.maxConcurrency,
    // A segment may take hours: an Express child execution would be stopped after 5 minutes.
    mapExecutionType: StateMachineType.STANDARD,
    // Each child's final state holds its counts; gathering them all could pass the 256 KB a state may hold.
    resultPath: JsonPath.DISCARD,
  });
  map.itemProcessor(work.next(loop));
  return list.next(map);
}
