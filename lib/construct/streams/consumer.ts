// A Lambda function on the table's stream: an event source mapping whose filters keep only the
// entities and kinds of change the function asks for, the stream read grant (DescribeStream,
// GetShardIterator, GetRecords, ListStreams on the stream's ARN, and decrypt with a
// customer-managed key), and the model layer and environment the runtime's `openTable` reads.
import { StreamViewType } from 'aws-cdk-lib/aws-dynamodb';
import { Function as LambdaFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { StreamConsumerOptions, StreamEventType } from './options';
import { DiagnosticSink, ManifestError } from '../../manifest/diagnostics';
import { anything, bool, checkShape, enumOf, opt, Shape, text } from '../../manifest/shape';
import { didYouMean } from '../../model/closest-name';
import type { TableModel } from '../../model/model';
import { checked, finding } from '../design-error';
import { deliverModel } from '../model-layer';
import type { SingleTableBase } from '../single-table-base';

const ALL_EVENTS = [StreamEventType.INSERT, StreamEventType.MODIFY, StreamEventType.REMOVE];

/** Where stream consumer findings are. */
const WHERE = 'addStreamConsumer options';

/** Which image of a record holds the item, per event type: the new one where both exist. */
const IMAGE_OF: Record<StreamViewType, Partial<Record<StreamEventType, 'NewImage' | 'OldImage'>>> = {
  [StreamViewType.KEYS_ONLY]: {},
  [StreamViewType.NEW_IMAGE]: { INSERT: 'NewImage', MODIFY: 'NewImage' },
  [StreamViewType.OLD_IMAGE]: { MODIFY: 'OldImage', REMOVE: 'OldImage' },
  [StreamViewType.NEW_AND_OLD_IMAGES]: { INSERT: 'NewImage', MODIFY: 'NewImage', REMOVE: 'OldImage' },
};

/**
 * Lambda event filter patterns that pass exactly the records asked for: one pattern per image the
 * type attribute is read from. Undefined when every record passes. Throws when the stream view
 * lacks the image an entity filter needs.
 */
export function streamFilters(
  model: TableModel, view: StreamViewType, options: Pick<StreamConsumerOptions, 'entities' | 'eventTypes' | 'expiredOnly'>,
): { pattern: string }[] | undefined {
  if (options.expiredOnly) {
    if (options.eventTypes && (options.eventTypes.length !== 1 || options.eventTypes[0] !== StreamEventType.REMOVE)) {
      throw finding('STREAM_EVENTS_INVALID', WHERE, `expiredOnly passes REMOVE records only, but eventTypes lists ${options.eventTypes.join(', ') || 'none'}`, 'leave eventTypes out, or set it to [StreamEventType.REMOVE]');
    }
    // The identity DynamoDB gives the records of its TTL deletes.
    const ttl = { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] };
    const removals = streamFilters(model, view, { entities: options.entities, eventTypes: [StreamEventType.REMOVE] })!;
    return removals.map((f) => ({ pattern: JSON.stringify({ ...JSON.parse(f.pattern), userIdentity: ttl }) }));
  }
  const events = options.eventTypes ?? ALL_EVENTS;
  if (events.length === 0) {
    throw finding('STREAM_EVENTS_INVALID', WHERE, 'eventTypes is empty, so no record would reach the function', 'leave it out for every change, or list INSERT, MODIFY, REMOVE');
  }
  const eventNames = ALL_EVENTS.filter((e) => events.includes(e));
  if (options.entities === undefined) {
    return eventNames.length === ALL_EVENTS.length ? undefined : [{ pattern: JSON.stringify({ eventName: eventNames }) }];
  }
  if (options.entities.length === 0) {
    throw finding('STREAM_ENTITIES_INVALID', WHERE, 'entities is empty, so no record would reach the function', 'leave it out for every entity, or name some');
  }
  const types = options.entities.map((name) => model.entities[name].typeValue);
  const byImage = new Map<string, StreamEventType[]>();
  for (const e of eventNames) {
    const image = IMAGE_OF[view][e];
    if (!image) {
      throw finding('STREAM_VIEW_NO_IMAGE', WHERE, `the table's stream records ${view}, and ${e} records of that view carry no image holding the type attribute '${model.typeAttribute}' `
        + 'to filter entities on', `set dynamoStream to StreamViewType.NEW_AND_OLD_IMAGES, or leave ${e} out of eventTypes`);
    }
    byImage.set(image, [...(byImage.get(image) ?? []), e]);
  }
  return [...byImage].map(([image, names]) => ({
    pattern: JSON.stringify({ eventName: names, dynamodb: { [image]: { [model.typeAttribute]: { S: types } } } }),
  }));
}

const CONSUMER_OPTIONS: Shape = {
  kind: 'struct',
  fields: {
    entities: opt({ kind: 'list', code: 'PROPERTY_TYPE_INVALID', of: text() }),
    eventTypes: opt({ kind: 'list', code: 'PROPERTY_TYPE_INVALID', of: enumOf('STREAM_EVENTS_INVALID', 'StreamEventType', StreamEventType) }),
    expiredOnly: opt(bool),
    // Checked by the event source mapping.
    ...Object.fromEntries(['startingPosition', 'batchSize', 'maxBatchingWindow', 'retryAttempts', 'bisectBatchOnError', 'reportBatchItemFailures',
      'onFailure', 'parallelizationFactor', 'maxRecordAge', 'enabled'].map((name) => [name, opt(anything)])),
  },
};

/** Throws the findings of options of the wrong shape and of entities the manifest does not declare, all at once. */
function checkConsumerOptions(model: TableModel, options: StreamConsumerOptions): void {
  const sink = new DiagnosticSink();
  checkShape(options, CONSUMER_OPTIONS, { location: WHERE, path: '' }, sink);
  const declared = Object.keys(model.entities);
  for (const name of Array.isArray(options?.entities) ? options.entities : []) {
    if (typeof name === 'string' && !Object.hasOwn(model.entities, name)) {
      sink.error('STREAM_ENTITY_UNKNOWN', WHERE, `entities names '${name}', which the manifest does not declare`, `${didYouMean(name, declared)}use one of ${declared.join(', ')}`);
    }
  }
  if (sink.hasErrors) throw new ManifestError(sink.all);
}

/** Connects the function to the stream; see `SingleTable.addStreamConsumer`. */
export function addStreamConsumer(
  table: SingleTableBase, view: StreamViewType | undefined, fn: LambdaFunction, options: StreamConsumerOptions,
): DynamoEventSource {
  const filters = checked(table, () => {
    checkConsumerOptions(table.model, options);
    if (view === undefined) {
      throw finding('STREAM_MISSING', WHERE, "addStreamConsumer needs the table's stream", 'set dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES (or the view the consumer needs) in its props');
    }
    return streamFilters(table.model, view, options);
  });
  const source = new DynamoEventSource(table.table, {
    startingPosition: options.startingPosition ?? StartingPosition.TRIM_HORIZON,
    batchSize: options.batchSize,
    maxBatchingWindow: options.maxBatchingWindow,
    retryAttempts: options.retryAttempts,
    bisectBatchOnError: options.bisectBatchOnError,
    reportBatchItemFailures: options.reportBatchItemFailures,
    onFailure: options.onFailure,
    parallelizationFactor: options.parallelizationFactor,
    maxRecordAge: options.maxRecordAge,
    enabled: options.enabled,
    filters,
  });
  fn.addEventSource(source);
  deliverModel(table, fn);
  return source;
}
