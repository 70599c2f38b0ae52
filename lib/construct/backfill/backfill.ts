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
import { DiagnosticSink, ManifestError } from '../../manifest/diagnostics';
import { resolveModel } from '../../manifest/resolve';
import { anything, MAX_RATE_PER_SECOND, opt, Shape, text, whole } from '../../manifest/shape';
import { BACKFILL_MAX_WCU_ENV, BACKFILL_RESERVE_ENV, BACKFILL_TABLE_ENV } from '../../migrate/lambda-environment';
import { planBackfill } from '../../migrate/plan';
import { ModelDocument, modelDocumentProblem } from '../../model/format';
import { deepFreeze } from '../../model/freeze';
import { TABLE_INDEX, TableModel } from '../../model/model';
import { checked, checkOptions, finding } from '../design-error';
import { grantNeeds } from '../grants/grant';

/** Parallel scan segments at most: States.ArrayRange lists up to 1000 items. */
const MAX_SEGMENTS = 1000;
const DEFAULT_SEGMENTS = 16;
const WHERE = 'addBackfill options';

const BACKFILL_OPTIONS: Shape = {
  kind: 'struct',
  fields: {
    previousManifest: opt(anything),
    previousModelFile: opt(text()),
    segments: opt(whole('BACKFILL_OPTION_INVALID', 1, MAX_SEGMENTS, `a whole number from 1 to ${MAX_SEGMENTS}`)),
    maxConcurrency: opt(whole('BACKFILL_OPTION_INVALID', 1, MAX_SEGMENTS, 'a whole number from 1 to segments')),
    maxWriteUnitsPerSecond: opt({ kind: 'number', code: 'BACKFILL_OPTION_INVALID', min: Number.MIN_VALUE, max: MAX_RATE_PER_SECOND, integer: false, what: 'a positive number of write units per second (leave it out for no limit)' }),
    timeout: opt(anything),
    memorySize: opt(anything),
    logRetention: opt(anything),
  },
};

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
    const { model } = props.table;
    const { settings, previous } = checked(this, () => {
      const checkedSettings = this.check(props);
      const previousModel = this.previousModel(props);
      try {
        planBackfill(model, previousModel);
      } catch (e) {
        // The plan's messages say what changed, then (after '; ') what to do instead.
        const [what, ...fix] = (e as Error).message.split('; ');
        throw finding('BACKFILL_PLAN_INVALID', WHERE, what, fix.join('; ') || 'give the manifest the table was deployed with as previousManifest');
      }
      return { settings: checkedSettings, previous: previousModel };
    });
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

  /** The settings of the options, or the findings of every option that does not hold. */
  private check(props: SingleTableBackfillProps): { segments: number; maxConcurrency: number; timeout: Duration } {
    const { table: _table, ...options } = props;
    checkOptions(options, BACKFILL_OPTIONS, WHERE);
    const sink = new DiagnosticSink();
    const segments = props.segments ?? DEFAULT_SEGMENTS;
    const maxConcurrency = props.maxConcurrency ?? segments;
    if (maxConcurrency > segments) {
      sink.error('BACKFILL_OPTION_INVALID', WHERE, `maxConcurrency is ${maxConcurrency}, more than segments (${segments})`, `give a whole number from 1 to ${segments}`);
    }
    const timeout = props.timeout ?? Duration.minutes(15);
    if (!Token.isUnresolved(timeout.toSeconds()) && (timeout.toSeconds() < 60 || timeout.toSeconds() > 900)) {
      sink.error('BACKFILL_OPTION_INVALID', WHERE, `timeout is ${timeout.toHumanString()}`, "give 1 to 15 minutes (Lambda's limit is 15; a shorter one leaves no time for a page)");
    }
    if (props.previousManifest && props.previousModelFile) {
      sink.error('BACKFILL_OPTION_INVALID', WHERE, 'both previousManifest and previousModelFile are given', 'give one');
    }
    if (sink.hasErrors) throw new ManifestError(sink.all);
    return { segments, maxConcurrency, timeout };
  }

  private previousModel(props: SingleTableBackfillProps): TableModel | undefined {
    if (props.previousManifest) {
      try {
        return resolveModel(props.previousManifest);
      } catch (e) {
        if (!(e instanceof ManifestError)) throw e;
        throw new ManifestError(e.diagnostics.map((d) => ({ ...d, location: `previousManifest, ${d.location}` })));
      }
    }
    if (props.previousModelFile === undefined) return undefined;
    const path = resolve(props.previousModelFile);
    const invalid = (problem: string) => finding('BACKFILL_PREVIOUS_MODEL_INVALID', WHERE, `previousModelFile ${path}: ${problem}`, 'give the .model.json `single-table generate` writes');
    let document: unknown;
    try {
      document = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      throw invalid((e as Error).message);
    }
    const problem = modelDocumentProblem(document);
    if (problem) throw invalid(problem);
    return deepFreeze((document as ModelDocument).model);
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
