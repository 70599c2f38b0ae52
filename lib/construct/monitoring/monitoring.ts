// Alarm and dashboard wiring for a SingleTable (metrics come from ./metrics). Per scope, the table
// and each GSI: read and write throttle alarms and, unless turned off, one alarm per throttling
// cause that the billing mode allows; one system-error alarm; with LSIs, an item collection alarm
// on the metric the runtime publishes. Missing data is not breaching: DynamoDB publishes throttle
// and error metrics only when something happens.
import { Alarm, ComparisonOperator, Dashboard, GraphWidget, IMetric, IWidget, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { BillingMode } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { causeDescription, scopeName, throttleDescription } from './alarm-texts';
import { SingleTableMetrics, ThrottleCause, ThrottledOperation } from './metrics';
import type { SingleTableMonitoringOptions } from './options';
import { anything, bool, opt, Shape, text, whole } from '../../manifest/shape';
import { ITEM_COLLECTION_LIMIT_GB, ITEM_COLLECTION_WARNING_GB } from '../../model/metrics';
import { checked, checkOptions } from '../design-error';
import type { ISingleTable } from '../i-single-table';

const COUNT = (what: string) => whole('MONITORING_OPTION_INVALID', 1, 1_000_000, what);
const MONITORING_OPTIONS: Shape = {
  kind: 'struct',
  fields: {
    alarmAction: opt(anything),
    throttleThreshold: opt(COUNT('a whole number of throttled events per minute, at least 1')),
    systemErrorThreshold: opt(COUNT('a whole number of system errors per minute, at least 1')),
    evaluationPeriods: opt(COUNT('a whole number of minutes, at least 1')),
    datapointsToAlarm: opt(COUNT('a whole number of minutes, at least 1')),
    throttleCauseAlarms: opt(bool),
    itemCollectionThresholdGb: opt({ kind: 'number', code: 'MONITORING_OPTION_INVALID', min: 0.001, max: ITEM_COLLECTION_LIMIT_GB, integer: false, what: `a number of GB above 0, up to ${ITEM_COLLECTION_LIMIT_GB}` }),
    dashboardName: opt(text()),
  },
};

/**
 * A table `SingleTableMonitoring` watches: a `SingleTable` defined in this app, whose billing mode
 * decides which throttling causes can occur.
 */
export interface IMonitoredSingleTable extends ISingleTable {
  /** How reads and writes are billed. */
  readonly billingMode: BillingMode;
}

/** Properties of `SingleTableMonitoring`. */
export interface SingleTableMonitoringProps extends SingleTableMonitoringOptions {
  /** The table to monitor. */
  readonly table: IMonitoredSingleTable;
}

const OPERATIONS = [ThrottledOperation.READ, ThrottledOperation.WRITE];

/** Throttling causes possible in a billing mode. */
export function causesFor(billingMode: BillingMode): ThrottleCause[] {
  return billingMode === BillingMode.PROVISIONED
    ? [ThrottleCause.KEY_RANGE, ThrottleCause.PROVISIONED]
    : [ThrottleCause.KEY_RANGE, ThrottleCause.MAX_ON_DEMAND, ThrottleCause.ACCOUNT_LIMIT];
}

/** Alarms and a dashboard for a SingleTable. Create it with `SingleTable.monitor()`. */
export class SingleTableMonitoring extends Construct {
  /** The metric factory of the table. */
  public readonly metrics: SingleTableMetrics;
  /** Every alarm created. */
  public readonly alarms: Alarm[] = [];
  /** The dashboard: one throttling widget per scope (table, each GSI), errors, item collections. */
  public readonly dashboard: Dashboard;

  private readonly options: SingleTableMonitoringProps;

  constructor(scope: Construct, id: string, props: SingleTableMonitoringProps) {
    super(scope, id);
    const { table: _table, ...options } = props;
    checked(this, () => checkOptions(options, MONITORING_OPTIONS, 'monitor options'));
    this.options = props;
    const table = props.table;
    this.metrics = new SingleTableMetrics(table.tableName);
    const widgets: IWidget[] = [];
    for (const index of [undefined, ...table.globalIndexNames]) {
      this.throttleAlarms(index, props.throttleCauseAlarms === false ? [] : causesFor(table.billingMode));
      widgets.push(this.throttleWidget(index, causesFor(table.billingMode)));
    }
    this.alarm('SystemErrors', this.metrics.systemErrors(), props.systemErrorThreshold ?? 1,
      'DynamoDB returned server errors (HTTP 500) to the runtime; the SDK retries them, but a sustained rate means an AWS-side problem');
    widgets.push(new GraphWidget({ title: 'System errors', left: [this.metrics.systemErrors()], width: 12 }));
    if (table.localIndexNames.length > 0) widgets.push(this.itemCollectionAlarm());
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: props.dashboardName });
    this.dashboard.addWidgets(...widgets);
  }

  /** Read and write throttle alarms of the table (index undefined) or a GSI, and one per cause. */
  private throttleAlarms(index: string | undefined, causes: ThrottleCause[]): void {
    const prefix = index ?? 'Table';
    for (const operation of OPERATIONS) {
      this.alarm(`${prefix}${operation}Throttles`, this.metrics.throttleEvents(operation, index), this.throttleThreshold, throttleDescription(operation, index));
      for (const cause of causes) {
        const metric = this.metrics.throttleEventsByCause(cause, operation, index);
        this.alarm(`${prefix}${operation}${cause}Throttles`, metric, this.throttleThreshold, causeDescription(cause, operation, index));
      }
    }
  }

  /** The alarm on the size the runtime logs (one 5-minute maximum over the threshold), and its widget. */
  private itemCollectionAlarm(): GraphWidget {
    const threshold = this.options.itemCollectionThresholdGb ?? ITEM_COLLECTION_WARNING_GB;
    const size = this.metrics.itemCollectionSize();
    this.alarm('ItemCollectionSize', size, threshold, `An item collection (one partition key value with its LSI entries) may hold ${threshold} GB or more; `
      + `with LSIs it may not exceed ${ITEM_COLLECTION_LIMIT_GB} GB and writes to it then fail. The runtime's warning log names the partition key`, 1);
    return new GraphWidget({ title: 'Largest item collection (GB, upper bound)', left: [size], width: 12 });
  }

  private get throttleThreshold(): number {
    return this.options.throttleThreshold ?? 1;
  }

  /** An alarm on `metric` reaching `threshold`, notifying the alarm action on ALARM and OK. */
  private alarm(id: string, metric: IMetric, threshold: number, description: string, datapoints?: number): void {
    const alarm = new Alarm(this, id, {
      metric,
      threshold,
      evaluationPeriods: datapoints ?? this.options.evaluationPeriods ?? 5,
      datapointsToAlarm: datapoints ?? this.options.datapointsToAlarm ?? 3,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    if (this.options.alarmAction) {
      alarm.addAlarmAction(this.options.alarmAction);
      alarm.addOkAction(this.options.alarmAction);
    }
    this.alarms.push(alarm);
  }

  private throttleWidget(indexName: string | undefined, causes: ThrottleCause[]): GraphWidget {
    return new GraphWidget({
      title: `Throttles: ${scopeName(indexName)}`,
      left: OPERATIONS.map((o) => this.metrics.throttleEvents(o, indexName)),
      right: OPERATIONS.flatMap((o) => causes.map((c) => this.metrics.throttleEventsByCause(c, o, indexName))),
      width: 12,
    });
  }
}
