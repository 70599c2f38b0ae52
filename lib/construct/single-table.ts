// The SingleTable construct: a TableV2 built from the compiled manifest model, with defaults that
// lose nothing (point-in-time recovery, deletion protection, RETAIN, encryption at rest).
import { Annotations, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ITableV2, StreamViewType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import { SingleTableBackfill } from './backfill/backfill';
import type { SingleTableBackfillOptions } from './backfill/options';
import { BillingFacts, checkBilling, DEFAULT_BILLING, readBilling } from './billing';
import { designError } from './design-error';
import { checkTableFeatures } from './features/check';
import { applyGlobalIndexInsights, tableFeatures } from './features/render';
import type { ISingleTable } from './i-single-table';
import { ImportedSingleTable, SingleTableAttributes } from './imported-table';
import { globalSecondaryIndexes, localSecondaryIndexes } from './indexes';
import { IMonitoredSingleTable, SingleTableMonitoring } from './monitoring/monitoring';
import type { SingleTableMonitoringOptions } from './monitoring/options';
import type { SingleTableProps } from './props';
import { syncShardLock } from './shard-lock';
import { SingleTableBase } from './single-table-base';
import { addStreamConsumer } from './streams/consumer';
import type { StreamConsumerOptions } from './streams/options';
import { checkPropsShape, checkTableOptions } from './table-options';
import { checkManifest } from '../manifest/compile';
import { DiagnosticLevel, DiagnosticSink, formatDiagnostic } from '../manifest/diagnostics';
import { FINGERPRINT_ENV, MODEL_PATH_ENV, TABLE_NAME_ENV } from '../model/environment';
import type { SingleTableManifest } from '../model/manifest';
import { TableModel } from '../model/model';

/**
 * A DynamoDB table for single-table design, built from a validated access-pattern manifest: string
 * `PK`/`SK`, the five LSI slots (unless turned off) and exactly the declared GSIs. Manifest errors
 * fail the synth, listing every one; warnings become CDK annotations.
 */
export class SingleTable extends SingleTableBase implements IMonitoredSingleTable {
  /** The environment variable `connect` sets to the table's name; the runtime's `createClient` reads it. */
  public static readonly TABLE_NAME_ENV = TABLE_NAME_ENV;
  /** The environment variable `connect` sets to the manifest's fingerprint; the runtime checks it at cold start. */
  public static readonly FINGERPRINT_ENV = FINGERPRINT_ENV;
  /** The environment variable `connect` sets to the model file's path in the model layer; the runtime reads the model there. */
  public static readonly MODEL_PATH_ENV = MODEL_PATH_ENV;

  /**
   * An existing SingleTable, by name, for grants and `connect` in another stack or app.
   * Give the manifest the table was created with.
   */
  public static fromTableName(scope: Construct, id: string, tableName: string, manifest: SingleTableManifest): ISingleTable {
    return new ImportedSingleTable(scope, id, { tableName, manifest });
  }

  /** An existing SingleTable, by ARN, for grants and `connect`. See `fromTableName`. */
  public static fromTableArn(scope: Construct, id: string, tableArn: string, manifest: SingleTableManifest): ISingleTable {
    return new ImportedSingleTable(scope, id, { tableArn, manifest });
  }

  /** An existing SingleTable, by name or ARN and with its customer-managed key if it has one. See `fromTableName`. */
  public static fromTableAttributes(scope: Construct, id: string, attrs: SingleTableAttributes): ISingleTable {
    return new ImportedSingleTable(scope, id, attrs);
  }

  /** The table. */
  public readonly table: ITableV2;
  /** The compiled manifest: physical names, templates, indexes and access patterns. */
  public readonly model: TableModel;
  /** The table's name. */
  public readonly tableName: string;
  /** The table's ARN. */
  public readonly tableArn: string;
  /** How reads and writes are billed. */
  public readonly billingMode: BillingMode;
  private readonly streamView?: StreamViewType;

  constructor(scope: Construct, id: string, props: SingleTableProps) {
    super(scope, id);
    const { model, billing } = this.compile(props);
    this.model = model;
    this.billingMode = billing.mode;
    this.streamView = props.dynamoStream;

    const table = new TableV2(this, 'Resource', {
      tableName: props.tableName,
      partitionKey: { name: this.partitionKeyName, type: AttributeType.STRING },
      sortKey: { name: this.sortKeyName, type: AttributeType.STRING },
      globalSecondaryIndexes: globalSecondaryIndexes(this.model, props, billing),
      localSecondaryIndexes: localSecondaryIndexes(this.model),
      billing: props.billing ?? DEFAULT_BILLING,
      encryption: props.encryption ?? TableEncryptionV2.awsManagedKey(),
      pointInTimeRecoverySpecification: props.pointInTimeRecoverySpecification ?? { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.deletionProtection ?? true,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
      timeToLiveAttribute: props.timeToLiveAttribute,
      dynamoStream: props.dynamoStream,
      ...tableFeatures(this.model, props, billing),
    });
    applyGlobalIndexInsights(table, this.model, props);
    this.table = table;
    this.tableName = table.tableName;
    this.tableArn = table.tableArn;
  }

  /**
   * Alarms on throttling (per GSI, per cause) and system errors, the item collection alarm when
   * the table has LSIs, and a dashboard. Call once.
   */
  public monitor(options: SingleTableMonitoringOptions = {}): SingleTableMonitoring {
    return new SingleTableMonitoring(this, 'Monitoring', { ...options, table: this });
  }

  /**
   * A backfill job for this table: a Step Functions state machine that rewrites, segment by
   * segment in parallel Lambda invocations, the index attributes stored items miss or hold stale
   * after a design change. Start an execution once the new manifest's runtime is deployed.
   */
  public addBackfill(id: string, options: SingleTableBackfillOptions = {}): SingleTableBackfill {
    return new SingleTableBackfill(this, id, { ...options, table: this });
  }

  /**
   * Connects a function to the table's stream (the `dynamoStream` prop must be set): an event source
   * mapping that, with `entities`, filters records on the type attribute so the function only
   * receives those entities' changes, the stream read grant, and the model layer and environment
   * `openTable` reads (see `connect`). Decode the records with `decodeStream` from `cdk-single-table/runtime`.
   */
  public addStreamConsumer(fn: LambdaFunction, options: StreamConsumerOptions = {}): DynamoEventSource {
    return addStreamConsumer(this, this.streamView, fn, options);
  }

  /**
   * Compiles the manifest, then checks the props against it and the shard lock. Errors throw a
   * `ValidationError` on this construct listing every one (`designError`); warnings become annotations.
   */
  private compile(props: SingleTableProps): { model: TableModel; billing: BillingFacts } {
    const { model, diagnostics } = checkManifest(props?.manifest);
    if (!model) throw designError(this, diagnostics);
    const sink = new DiagnosticSink();
    let billing: BillingFacts | undefined;
    if (checkPropsShape(props, sink)) {
      billing = readBilling(props.billing, sink);
      if (billing) checkBilling(model, billing, sink);
      checkTableOptions(model, props, Stack.of(this).region, sink);
      checkTableFeatures(model, props, billing, Stack.of(this).region, sink);
    }
    if (!billing || sink.hasErrors) throw designError(this, sink.all);
    // The lock file is only written when everything else holds, so a failed synth changes nothing.
    const lock = props.shardLock === undefined ? [] : syncShardLock(model, props.shardLock, props.shardLockName ?? this.node.path);
    const all = [...diagnostics, ...sink.all, ...lock];
    if (lock.some((d) => d.level === DiagnosticLevel.ERROR)) throw designError(this, all);
    for (const warning of all.filter((d) => d.level === DiagnosticLevel.WARNING)) {
      Annotations.of(this).addWarningV2(`cdk-single-table:${warning.code}`, formatDiagnostic(warning));
    }
    return { model, billing };
  }
}
