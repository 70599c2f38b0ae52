// Monitoring: an alarm per GSI on read and write throttles with the GlobalSecondaryIndexName
// dimension, per-cause throttle alarms for the billing mode, table throttles, system errors, the
// item collection alarm on the runtime's metric, alarm actions and the dashboard.
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Billing, Capacity } from 'aws-cdk-lib/aws-dynamodb';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { SingleTableMonitoringOptions } from '../../lib/construct/monitoring/options';
import { DASHBOARD_WIDGETS_PER_SCOPE, throttleAlarmsPerScope } from '../../lib/construct/monitoring/per-index';
import { SingleTableProps } from '../../lib/construct/props';
import { SingleTable } from '../../lib/construct/single-table';
import { SingleTableManifest } from '../../lib/model/manifest';
import { edited, validManifest } from '../fixtures/valid-manifest';

type Props = Partial<SingleTableProps>;

function monitored(options: SingleTableMonitoringOptions = {}, props: Props = {}, manifest: SingleTableManifest = validManifest()) {
  const stack = new Stack(new App(), 'Test');
  const table = new SingleTable(stack, 'Table', { manifest, ...props });
  const monitoring = table.monitor(options);
  const template = Template.fromStack(stack);
  const tableRef = { Ref: stack.getLogicalId(table.node.findChild('Resource').node.defaultChild as never) };
  const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((a: any) => a.Properties);
  return { stack, table, monitoring, template, tableRef, alarms };
}

const named = (alarms: any[], metricName: string, index?: string) => alarms.filter((a) => a.MetricName === metricName
  && (index === undefined ? a.Dimensions.length === 1 : a.Dimensions.some((d: any) => d.Name === 'GlobalSecondaryIndexName' && d.Value === index)));

test('each GSI gets read and write throttle alarms with its GlobalSecondaryIndexName dimension', () => {
  const { alarms, tableRef } = monitored();
  for (const index of ['GSI1', 'GSI2']) {
    for (const metric of ['ReadThrottleEvents', 'WriteThrottleEvents']) {
      const [alarm] = named(alarms, metric, index);
      expect(alarm).toEqual(expect.objectContaining({
        Namespace: 'AWS/DynamoDB',
        Dimensions: [{ Name: 'GlobalSecondaryIndexName', Value: index }, { Name: 'TableName', Value: tableRef }],
        Statistic: 'Sum',
        Period: 60,
        Threshold: 1,
        EvaluationPeriods: 5,
        DatapointsToAlarm: 3,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      }));
    }
  }
  expect(named(alarms, 'WriteThrottleEvents', 'GSI2')[0].AlarmDescription).toContain('DynamoDB then also throttles writes to the table (back-pressure)');
  expect(named(alarms, 'ReadThrottleEvents', 'GSI2')[0].AlarmDescription).not.toContain('back-pressure');
});

test('the table gets read and write throttle alarms with the TableName dimension only', () => {
  const { alarms, tableRef } = monitored();
  for (const metric of ['ReadThrottleEvents', 'WriteThrottleEvents']) {
    expect(named(alarms, metric)).toHaveLength(1);
    expect(named(alarms, metric)[0].Dimensions).toEqual([{ Name: 'TableName', Value: tableRef }]);
  }
});

test('on-demand: key range, maximum on-demand and account limit alarms per scope and operation, with their fixes', () => {
  const { alarms } = monitored();
  const causes = ['KeyRangeThroughput', 'MaxOnDemandThroughput', 'AccountLimit'];
  for (const index of [undefined, 'GSI1', 'GSI2']) {
    for (const op of ['Read', 'Write']) {
      for (const cause of causes) expect(named(alarms, `${op}${cause}ThrottleEvents`, index)).toHaveLength(1);
      expect(named(alarms, `${op}ProvisionedThroughputThrottleEvents`, index)).toHaveLength(0);
    }
  }
  expect(named(alarms, 'WriteKeyRangeThroughputThrottleEvents', 'GSI2')[0].AlarmDescription).toContain('a hot partition');
  expect(named(alarms, 'WriteKeyRangeThroughputThrottleEvents', 'GSI2')[0].AlarmDescription).toContain('`sharding`');
  expect(named(alarms, 'ReadAccountLimitThrottleEvents')[0].AlarmDescription).toContain('Service Quotas');
  // 3 scopes x 2 operations x (1 + 3 causes), system errors, item collections.
  expect(alarms).toHaveLength(3 * 2 * 4 + 2);
});

test('provisioned: key range and provisioned throughput alarms', () => {
  const billing = Billing.provisioned({ readCapacity: Capacity.fixed(5), writeCapacity: Capacity.autoscaled({ maxCapacity: 5 }) });
  const { alarms } = monitored({}, { billing });
  for (const op of ['Read', 'Write']) {
    expect(named(alarms, `${op}ProvisionedThroughputThrottleEvents`, 'GSI1')).toHaveLength(1);
    expect(named(alarms, `${op}KeyRangeThroughputThrottleEvents`, 'GSI1')).toHaveLength(1);
    expect(named(alarms, `${op}MaxOnDemandThroughputThrottleEvents`, 'GSI1')).toHaveLength(0);
    expect(named(alarms, `${op}AccountLimitThrottleEvents`, 'GSI1')).toHaveLength(0);
  }
  expect(alarms).toHaveLength(3 * 2 * 3 + 2);
});

test('cause alarms can be turned off; thresholds and periods are options', () => {
  const options = { throttleCauseAlarms: false, throttleThreshold: 10, evaluationPeriods: 10, datapointsToAlarm: 2, systemErrorThreshold: 4 };
  const { alarms } = monitored(options);
  expect(alarms.map((a) => a.MetricName ?? 'SystemErrors').sort()).toEqual([
    'ItemCollectionSizeUpperBoundGB', 'ReadThrottleEvents', 'ReadThrottleEvents', 'ReadThrottleEvents', 'SystemErrors',
    'WriteThrottleEvents', 'WriteThrottleEvents', 'WriteThrottleEvents',
  ]);
  expect(named(alarms, 'WriteThrottleEvents', 'GSI1')[0]).toEqual(expect.objectContaining({ Threshold: 10, EvaluationPeriods: 10, DatapointsToAlarm: 2 }));
  expect(alarms.find((a) => a.Metrics)).toEqual(expect.objectContaining({ Threshold: 4 }));
});

test('system errors: one alarm summing SystemErrors of every operation the runtime sends', () => {
  const { alarms, tableRef } = monitored();
  const [alarm] = alarms.filter((a) => a.Metrics);
  const [expression, ...metrics] = alarm.Metrics;
  expect(expression).toEqual(expect.objectContaining({ Expression: 'SUM(FILL(METRICS(), 0))', ReturnData: true }));
  expect(metrics.map((m: any) => m.MetricStat.Metric)).toEqual(
    ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'].map((Operation) => ({
      Namespace: 'AWS/DynamoDB',
      MetricName: 'SystemErrors',
      Dimensions: [{ Name: 'Operation', Value: Operation }, { Name: 'TableName', Value: tableRef }],
    })),
  );
  expect(metrics.every((m: any) => m.MetricStat.Stat === 'Sum' && m.MetricStat.Period === 60 && m.ReturnData === false)).toBe(true);
});

test('item collections: an alarm on the metric the runtime logs, only with LSIs', () => {
  const { alarms, tableRef } = monitored({ itemCollectionThresholdGb: 6 });
  expect(named(alarms, 'ItemCollectionSizeUpperBoundGB')).toEqual([expect.objectContaining({
    Namespace: 'SingleTable',
    Dimensions: [{ Name: 'TableName', Value: tableRef }],
    Statistic: 'Maximum',
    Period: 300,
    Threshold: 6,
    EvaluationPeriods: 1,
    ComparisonOperator: 'GreaterThanOrEqualToThreshold',
  })]);
  const noLsis = monitored({}, {}, edited((m) => {
    m.localIndexes = { enabled: false };
    delete m.entities.Order.indexes!.LSI1;
    delete m.accessPatterns!.ordersByDate;
  }));
  expect(named(noLsis.alarms, 'ItemCollectionSizeUpperBoundGB')).toEqual([]);
});

test('the alarm action is notified on ALARM and OK by every alarm', () => {
  const stack = new Stack(new App(), 'Test');
  const topic = new Topic(stack, 'Pager');
  const table = new SingleTable(stack, 'Table', { manifest: validManifest() });
  const { alarms } = table.monitor({ alarmAction: new SnsAction(topic) });
  const topicRef = { Ref: stack.getLogicalId(topic.node.defaultChild as never) };
  const rendered = Object.values(Template.fromStack(stack).findResources('AWS::CloudWatch::Alarm')).map((a: any) => a.Properties);
  expect(rendered).toHaveLength(alarms.length);
  for (const alarm of rendered) {
    expect(alarm.AlarmActions).toEqual([topicRef]);
    expect(alarm.OKActions).toEqual([topicRef]);
  }
});

test('without an action, alarms notify no one', () => {
  const { alarms } = monitored();
  expect(alarms.every((a) => a.AlarmActions === undefined && a.OKActions === undefined)).toBe(true);
});

test('the dashboard has a throttle widget per index with each cause, then errors and item collections', () => {
  const { template, stack } = monitored({ dashboardName: 'orders-table' });
  const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard')).map((d: any) => d.Properties);
  expect(dashboard.DashboardName).toBe('orders-table');
  const body = JSON.parse(stack.resolve(dashboard.DashboardBody)['Fn::Join'][1].map((p: any) => (typeof p === 'string' ? p : '"TABLE"')).join('').replace(/""TABLE""/g, '"TABLE"'));
  const titles = body.widgets.map((w: any) => w.properties.title);
  expect(titles).toEqual(['Throttles: the table', 'Throttles: GSI GSI1', 'Throttles: GSI GSI2', 'System errors', 'Largest item collection (GB, upper bound)']);
  const gsi2 = JSON.stringify(body.widgets[2].properties.metrics);
  for (const name of ['ReadThrottleEvents', 'WriteThrottleEvents', 'WriteKeyRangeThroughputThrottleEvents', 'ReadAccountLimitThrottleEvents']) {
    expect(gsi2).toContain(name);
  }
  expect(gsi2).toContain('"GlobalSecondaryIndexName","GSI2"');
});

test('the alarms and widgets per GSI are what the design advice counts for removing or adding one', () => {
  const count = (index: string, all: any[]) => all.filter((a) => a.Dimensions?.some((d: any) => d.Name === 'GlobalSecondaryIndexName' && d.Value === index)).length;
  const billing = Billing.provisioned({ readCapacity: Capacity.fixed(5), writeCapacity: Capacity.autoscaled({ maxCapacity: 5 }) });
  for (const [props, provisioned] of [[{}, false], [{ billing }, true]] as const) {
    const { alarms, template } = monitored({}, props);
    expect(count('GSI1', alarms)).toBe(throttleAlarmsPerScope(provisioned));
    const widgets = JSON.stringify(template.findResources('AWS::CloudWatch::Dashboard'));
    expect(widgets.split('Throttles: GSI GSI1').length - 1).toBe(DASHBOARD_WIDGETS_PER_SCOPE);
  }
  expect(count('GSI1', monitored({ throttleCauseAlarms: false }).alarms)).toBe(throttleAlarmsPerScope(false, false));
});
