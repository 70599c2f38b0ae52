// Stream consumers: the event source mapping's filter patterns on the type attribute (per image
// each kind of change carries), the stream read grant on the stream's ARN only, the runtime's
// environment, and the refusals where the stream view cannot carry a filter.
import { App, Duration, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { StreamViewType, TableEncryptionV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Code, Function as LambdaFunction, Runtime, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { newFunction, tableStack } from './policy';
import { manifest } from '../../examples/manifest';
import { SingleTable } from '../../lib/construct/single-table';
import { streamFilters } from '../../lib/construct/streams/consumer';
import { StreamEventType } from '../../lib/construct/streams/options';

const streamTable = (stream?: StreamViewType) => tableStack(manifest, stream && { dynamoStream: stream });
const mapping = (stack: Stack) => {
  const mappings = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::EventSourceMapping'));
  expect(mappings).toHaveLength(1);
  return mappings[0].Properties;
};
const patterns = (stack: Stack) => mapping(stack).FilterCriteria?.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern));

test('entities on a NEW_AND_OLD_IMAGES stream: inserts and modifications filtered on the new image, removals on the old', () => {
  const { stack, table } = streamTable(StreamViewType.NEW_AND_OLD_IMAGES);
  table.addStreamConsumer(newFunction(stack, 'Fn'), { entities: ['Order', 'Customer'] });
  expect(mapping(stack).FilterCriteria).toEqual({
    Filters: [
      { Pattern: '{"eventName":["INSERT","MODIFY"],"dynamodb":{"NewImage":{"Type":{"S":["Order","Customer"]}}}}' },
      { Pattern: '{"eventName":["REMOVE"],"dynamodb":{"OldImage":{"Type":{"S":["Order","Customer"]}}}}' },
    ],
  });
  expect(mapping(stack)).toMatchObject({ StartingPosition: 'TRIM_HORIZON', EventSourceArn: { 'Fn::GetAtt': [expect.stringMatching(/^Table/), 'StreamArn'] } });
});

test('event types alone filter on eventName; no options pass every record', () => {
  const one = streamTable(StreamViewType.NEW_IMAGE);
  one.table.addStreamConsumer(newFunction(one.stack, 'Fn'), { eventTypes: [StreamEventType.REMOVE, StreamEventType.INSERT] });
  expect(patterns(one.stack)).toEqual([{ eventName: ['INSERT', 'REMOVE'] }]);
  const all = streamTable(StreamViewType.KEYS_ONLY);
  all.table.addStreamConsumer(newFunction(all.stack, 'Fn'));
  expect(mapping(all.stack).FilterCriteria).toBeUndefined();
});

test('each view filters entities on the image its event types carry', () => {
  const model = new SingleTable(new Stack(), 'T', { manifest }).model;
  const filter = (view: StreamViewType, eventTypes?: StreamEventType[]) =>
    streamFilters(model, view, { entities: ['Task'], eventTypes })?.map((f) => JSON.parse(f.pattern));
  const task = { Type: { S: ['Task'] } };
  expect(filter(StreamViewType.NEW_IMAGE, [StreamEventType.INSERT, StreamEventType.MODIFY])).toEqual([{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: task } }]);
  expect(filter(StreamViewType.OLD_IMAGE, [StreamEventType.REMOVE, StreamEventType.MODIFY])).toEqual([{ eventName: ['MODIFY', 'REMOVE'], dynamodb: { OldImage: task } }]);
  expect(filter(StreamViewType.NEW_AND_OLD_IMAGES, [StreamEventType.REMOVE])).toEqual([{ eventName: ['REMOVE'], dynamodb: { OldImage: task } }]);
  expect(() => filter(StreamViewType.NEW_IMAGE)).toThrow("[STREAM_VIEW_NO_IMAGE] addStreamConsumer options: the table's stream records NEW_IMAGE, and REMOVE records of that view carry no image holding the type attribute 'Type' "
    + 'to filter entities on. Fix: set dynamoStream to StreamViewType.NEW_AND_OLD_IMAGES, or leave REMOVE out of eventTypes');
  expect(() => filter(StreamViewType.OLD_IMAGE)).toThrow('OLD_IMAGE, and INSERT records of that view carry no image');
  expect(() => filter(StreamViewType.KEYS_ONLY, [StreamEventType.MODIFY])).toThrow('KEYS_ONLY, and MODIFY records of that view carry no image');
});

test('the function may read the stream and nothing else; it gets the runtime\'s environment', () => {
  const { stack, table } = streamTable(StreamViewType.NEW_AND_OLD_IMAGES);
  const fn = newFunction(stack, 'Fn');
  table.addStreamConsumer(fn, { entities: ['Order'], batchSize: 25, maxBatchingWindow: Duration.seconds(5), reportBatchItemFailures: true, startingPosition: StartingPosition.LATEST });
  const template = Template.fromStack(stack);
  const tableId = stack.getLogicalId(table.table.node.defaultChild as never);
  const stream = { 'Fn::GetAtt': [tableId, 'StreamArn'] };
  const [policy] = Object.values(template.findResources('AWS::IAM::Policy'));
  expect(policy.Properties.PolicyDocument.Statement).toEqual([
    { Action: 'dynamodb:ListStreams', Effect: 'Allow', Resource: stream },
    { Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'], Effect: 'Allow', Resource: stream },
  ]);
  expect(mapping(stack)).toMatchObject({ BatchSize: 25, MaximumBatchingWindowInSeconds: 5, FunctionResponseTypes: ['ReportBatchItemFailures'], StartingPosition: 'LATEST' });
  template.hasResourceProperties('AWS::Lambda::Function', {
    Environment: { Variables: { TABLE_NAME: { Ref: tableId }, SINGLE_TABLE_FINGERPRINT: table.model.fingerprint } },
  });
});

test('with a customer-managed key the consumer may decrypt the stream', () => {
  const stack = new Stack(new App(), 'Keyed', { env: { region: 'eu-west-1' } });
  const table = new SingleTable(stack, 'Table', { manifest, dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES, encryption: TableEncryptionV2.customerManagedKey(new Key(stack, 'Key')) });
  table.addStreamConsumer(newFunction(stack, 'Fn'), { entities: ['Order'] });
  Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
    PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: ['kms:Decrypt', 'kms:DescribeKey'] })]) },
  });
});

/** Whether a record matches a Lambda filter pattern of exact values (arrays of allowed values, nested objects). */
function matches(pattern: Record<string, unknown>, record: Record<string, any> | undefined): boolean {
  return Object.entries(pattern).every(([key, want]) => (Array.isArray(want)
    ? want.includes(record?.[key])
    : matches(want as Record<string, unknown>, record?.[key])));
}

test('expiredOnly passes the REMOVE records DynamoDB\'s time to live made, and no other', () => {
  const { stack, table } = streamTable(StreamViewType.NEW_AND_OLD_IMAGES);
  table.addStreamConsumer(newFunction(stack, 'Fn'), { entities: ['Customer'], expiredOnly: true });
  const ttl = { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] };
  expect(patterns(stack)).toEqual([{ eventName: ['REMOVE'], dynamodb: { OldImage: { Type: { S: ['Customer'] } } }, userIdentity: ttl }]);
  // Records as Lambda delivers them: a TTL delete carries the service identity, a request's delete none.
  const removal = { eventName: 'REMOVE', dynamodb: { Keys: {}, OldImage: { Type: { S: 'Customer' } } } };
  const [pattern] = patterns(stack);
  expect(matches(pattern, { ...removal, userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } })).toBe(true);
  expect(matches(pattern, removal)).toBe(false);
  expect(matches(pattern, { ...removal, userIdentity: { type: 'Service', principalId: 'other.amazonaws.com' } })).toBe(false);
  expect(matches(pattern, { ...removal, eventName: 'MODIFY', userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } })).toBe(false);

  const model = table.model;
  // Without entities: every entity's removals by TTL; eventTypes may only repeat REMOVE.
  const expired = (view: StreamViewType, eventTypes?: StreamEventType[]) =>
    streamFilters(model, view, { expiredOnly: true, eventTypes })?.map((f) => JSON.parse(f.pattern));
  expect(expired(StreamViewType.KEYS_ONLY)).toEqual([{ eventName: ['REMOVE'], userIdentity: ttl }]);
  expect(expired(StreamViewType.KEYS_ONLY, [StreamEventType.REMOVE])).toEqual([{ eventName: ['REMOVE'], userIdentity: ttl }]);
  expect(() => expired(StreamViewType.NEW_AND_OLD_IMAGES, [StreamEventType.INSERT, StreamEventType.REMOVE])).toThrow(
    'expiredOnly passes REMOVE records only, but eventTypes lists INSERT, REMOVE. Fix: leave eventTypes out, or set it to [StreamEventType.REMOVE]');
  // A view whose removals carry no image cannot filter them on the entity.
  expect(() => streamFilters(model, StreamViewType.NEW_IMAGE, { expiredOnly: true, entities: ['Customer'] })).toThrow('NEW_IMAGE, and REMOVE records of that view carry no image');
});

test('a table without a stream, unknown entities and options, and empty lists are refused, naming the fix', () => {
  const plain = streamTable();
  expect(() => plain.table.addStreamConsumer(newFunction(plain.stack, 'Fn'))).toThrow(
    "Test/Table: 1 error to fix:\n  - [STREAM_MISSING] addStreamConsumer options: addStreamConsumer needs the table's stream. "
    + 'Fix: set dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES (or the view the consumer needs) in its props',
  );
  const { stack, table } = streamTable(StreamViewType.NEW_AND_OLD_IMAGES);
  const fn = newFunction(stack, 'Fn');
  expect(() => table.addStreamConsumer(fn, { entities: ['Orders', 'Tsk'] })).toThrow(
    "Test/Table: 2 errors to fix:\n  - [STREAM_ENTITY_UNKNOWN] addStreamConsumer options: entities names 'Orders', which the manifest does not declare. "
    + "Fix: did you mean 'Order'? use one of Customer, Order, Product, Group, Membership, Task\n"
    + "  - [STREAM_ENTITY_UNKNOWN] addStreamConsumer options: entities names 'Tsk', which the manifest does not declare. Fix: did you mean 'Task'?",
  );
  expect(() => table.addStreamConsumer(fn, { entities: [] })).toThrow('entities is empty, so no record would reach the function');
  expect(() => table.addStreamConsumer(fn, { eventTypes: [] })).toThrow('eventTypes is empty, so no record would reach the function');
  expect(() => table.addStreamConsumer(fn, { eventTypes: ['DELETE' as StreamEventType] })).toThrow(
    '[STREAM_EVENTS_INVALID] addStreamConsumer options: `eventTypes[0]` is the string "DELETE", not a StreamEventType. Fix: use one of INSERT, MODIFY, REMOVE');
  expect(() => table.addStreamConsumer(fn, { entites: ['Task'], batchSize: 10 } as never)).toThrow(
    "[PROPERTY_UNKNOWN] addStreamConsumer options: `entites` is not a property here. Fix: did you mean 'entities'?");
  // Every finding at once: an unknown option beside an unknown entity.
  expect(() => table.addStreamConsumer(fn, { entities: ['Tsk'], batchSiz: 10 } as never)).toThrow(
    /^Test\/Table: 2 errors to fix:\n {2}- \[PROPERTY_UNKNOWN\] .*`batchSiz`.*'batchSize'.*\n {2}- \[STREAM_ENTITY_UNKNOWN\] .*'Tsk'.*did you mean 'Task'\?/);
  expect(Template.fromStack(stack).findResources('AWS::Lambda::EventSourceMapping')).toEqual({});
});

test('AwsSolutions flags nothing of a stream consumer but the managed execution role every function has', () => {
  const app = new App();
  const stack = new Stack(app, 'Consumer');
  const table = new SingleTable(stack, 'Table', { manifest, dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES });
  const fn = new LambdaFunction(stack, 'Fn', { runtime: Runtime.NODEJS_24_X, handler: 'index.handler', code: Code.fromInline('exports.handler = 1') });
  table.addStreamConsumer(fn, { entities: ['Order'] });
  Validations.of(fn.role!).acknowledge({ id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', reason: 'test' });
  const report = new AwsSolutionsChecks(app).validateScope(app);
  expect(report.violations.map((v) => `${v.severity} ${v.ruleName}`)).toEqual([]);
});
