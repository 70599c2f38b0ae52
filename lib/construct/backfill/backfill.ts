// The backfill job for tables too big for one process: a Step Functions state machine whose
// Distributed Map works the scan segments in parallel, each in a loop of invocations of one
// Lambda running the same segment worker as `single-table backfill` (lib/migrate). Started by
// hand (or by a pipeline) after the new manifest's runtime is deployed.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CfnElement, Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { segmentCode } from './code';
import { backfillDefinition } from './definition';
import type { SingleTableBackfillProps } from './options';
import { TABLE_INDEX, TableModel } from '../../manifest/model';
import { resolveModel } from '../../manifest/resolve';
import { BACKFILL_MAX_WCU_ENV, BACKFILL_RESERVE_ENV, BACKFILL_TABLE_ENV } from '../../migrate/lambda-environment';
import { planBackfill } from '../../migrate/plan';
import { loadModel } from '../../runtime/table/load-model';
import { grantNeeds } from '../access/grant';

/** Parallel scan segments at most: States.ArrayRange lists up to 1000 items. */
const MAX_SEGMENTS = 1000;
const DEFAULT_SEGMENTS = 16;

/**
 * A backfill job: the state machine to start after a design change (a new GSI, a changed template,
 * a new shard count) so every stored item gets the index attributes the manifest now composes.
 */
export class SingleTableBackfill extends Construct {
  /** The state machine; start an execution (no input needed) to run the backfill. */
  public readonly stateMachine: StateMachine;
  /** The function that works one segment per invocation. */
  public readonly segmentFunction: LambdaFunction;

  constructor(scope: Construct, id: string, props: SingleTableBackfillProps) {
    super(scope, id);
    const settings = this.check(props);
    const { model } = props.table;
    const previous = this.previousModel(props);
    try {
      planBackfill(model, previous);
    } catch (e) {
      throw new Error(`SingleTableBackfill ${this.node.path}: ${(e as Error).message}`);
    }
    const retention = props.logRetention ?? RetentionDays.ONE_YEAR;
    const wcu = props.maxWriteUnitsPerSecond;

    const logGroup = new LogGroup(this, 'FunctionLogs', { retention });
    // A role of its own rather than the managed basic execution role: logs to this group only.
    const role = new Role(this, 'FunctionRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    role.addToPolicy(new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroup.logGroupArn] }));
    this.segmentFunction = new LambdaFunction(this, 'SegmentFunction', {
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      handler: 'index.handler',
      code: segmentCode(model, previous),
      timeout: settings.timeout,
      memorySize: props.memorySize ?? 512,
      role,
      logGroup,
      environment: {
        [BACKFILL_TABLE_ENV]: props.table.tableName,
        [BACKFILL_RESERVE_ENV]: String(Math.min(60_000, settings.timeout.toMilliseconds() / 4)),
        // The segments running at once share the job's budget evenly.
        ...(wcu === undefined ? {} : { [BACKFILL_MAX_WCU_ENV]: String(wcu / settings.maxConcurrency) }),
      },
    });
    // Exactly what the worker sends: Scan pages, a strongly consistent GetItem after a failed
    // condition, and the conditional UpdateItem; all on the table, none on an index. With unique
    // attributes, also the BatchGetItem of a page's guards and the guard's transaction: a PutItem of
    // the guard and a ConditionCheckItem of the item (a transaction is authorized by the actions of its items).
    const guards = Object.values(model.entities).some((e) => e.unique?.length)
      ? ['dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:ConditionCheckItem'] : [];
    grantNeeds({ scope: this, tableArn: props.table.tableArn, encryptionKey: props.table.table.encryptionKey }, role,
      ['dynamodb:Scan', 'dynamodb:GetItem', 'dynamodb:UpdateItem', ...guards].map((action) => ({ resource: TABLE_INDEX, action })));

    this.stateMachine = new StateMachine(this, 'Resource', {
      definitionBody: DefinitionBody.fromChainable(backfillDefinition(this, { fn: this.segmentFunction, ...settings })),
      logs: { destination: new LogGroup(this, 'StateMachineLogs', { retention }), level: LogLevel.ALL, includeExecutionData: true },
      tracingEnabled: true,
    });
    this.acknowledgeWildcards();
  }

  private check(props: SingleTableBackfillProps): { segments: number; maxConcurrency: number; timeout: Duration } {
    const where = `SingleTableBackfill ${this.node.path}`;
    const segments = props.segments ?? DEFAULT_SEGMENTS;
    if (!Number.isInteger(segments) || segments < 1 || segments > MAX_SEGMENTS) {
      throw new Error(`${where}: segments is ${segments}; give a whole number from 1 to ${MAX_SEGMENTS}`);
    }
    const maxConcurrency = props.maxConcurrency ?? segments;
    if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1 || maxConcurrency > segments) {
      throw new Error(`${where}: maxConcurrency is ${maxConcurrency}; give a whole number from 1 to segments (${segments})`);
    }
    const wcu = props.maxWriteUnitsPerSecond;
    if (wcu !== undefined && !(Number.isFinite(wcu) && wcu > 0)) {
      throw new Error(`${where}: maxWriteUnitsPerSecond is ${wcu}; give a positive number of write units per second, or leave it out for no limit`);
    }
    const timeout = props.timeout ?? Duration.minutes(15);
    if (!Token.isUnresolved(timeout.toSeconds()) && (timeout.toSeconds() < 60 || timeout.toSeconds() > 900)) {
      throw new Error(`${where}: timeout is ${timeout.toHumanString()}; give 1 to 15 minutes (Lambda's limit is 15; a shorter one leaves no time for a page)`);
    }
    if (props.previousManifest && props.previousModelFile) {
      throw new Error(`${where}: both previousManifest and previousModelFile are given; give one`);
    }
    return { segments, maxConcurrency, timeout };
  }

  private previousModel(props: SingleTableBackfillProps): TableModel | undefined {
    if (props.previousManifest) {
      try {
        return resolveModel(props.previousManifest);
      } catch (e) {
        throw new Error(`SingleTableBackfill ${this.node.path}: previousManifest: ${(e as Error).message}`);
      }
    }
    if (props.previousModelFile === undefined) return undefined;
    const path = resolve(props.previousModelFile);
    try {
      return loadModel(JSON.parse(readFileSync(path, 'utf8')));
    } catch (e) {
      throw new Error(`SingleTableBackfill ${this.node.path}: previousModelFile ${path}: ${(e as Error).message}; give the .model.json \`single-table generate\` writes`);
    }
  }

  /**
   * The AwsSolutions-IAM5 findings on the state machine's policies, each acknowledged where it
   * arises (never on the function's role, which has no wildcard). The ids are cdk-nag's, built from
   * the logical ids of the function and the state machine.
   */
  private acknowledgeWildcards(): void {
    const stack = Stack.of(this);
    const logicalId = (c: Construct) => stack.getLogicalId(c.node.defaultChild as CfnElement);
    const fn = logicalId(this.segmentFunction);
    const executions = `arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:{"Fn::Select":[6,{"Fn::Split":[":",{"Ref":"${logicalId(this.stateMachine)}"}]}]}`;
    Validations.of(this.stateMachine.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${fn}.Arn>:*]`,
      reason: 'Step Functions\' Lambda task grants the function and its qualified ARNs (versions and aliases): the one segment function, nothing else',
    });
    Validations.of(this.stateMachine.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'CloudWatch Logs delivery (logs:*LogDelivery*, logs:*ResourcePolicies) and X-Ray (xray:Put*, xray:GetSampling*) do not support resource-level permissions',
    });
    const childExecutions = this.stateMachine.node.findChild('DistributedMapPolicy');
    for (const [resource, what] of [[`${executions}:*`, 'DescribeExecution and StopExecution'], [`${executions}/*:*`, 'RedriveExecution']]) {
      Validations.of(childExecutions).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${resource}]`,
        reason: `The Distributed Map's ${what} of its child executions: the executions of this state machine only, whose names are not known in advance`,
      });
    }
  }
}
