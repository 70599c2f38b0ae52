// Checks of the construct's own table options that CloudFormation, DynamoDB or TableV2 would reject
// late or obscurely, or that would silently never work (a TTL attribute that is not a number never
// expires anything). Python, Java and .NET users and JSON-driven apps can pass any value, so each
// option's type, enum value and range is checked first, like the manifest's.
import { RemovalPolicy, Token } from 'aws-cdk-lib';
import { PointInTimeRecoverySpecification, StreamViewType, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { SingleTableProps } from './props';
import type { DiagnosticSink } from '../manifest/diagnostics';
import { anything, bool, checkShape, enumOf, name as userName, opt, Shape, text, whole } from '../manifest/shape';
import { describeType, describeValue, own } from '../manifest/values';
import { AttributeKind } from '../model/manifest';
import type { TableModel } from '../model/model';

/** Where props findings are: the props of the construct the error is raised on. */
export const PROPS_LOCATION = 'SingleTable props';

/** A point-in-time recovery specification, of the table or of a replica. */
const POINT_IN_TIME_RECOVERY: Shape = {
  kind: 'struct',
  fields: {
    pointInTimeRecoveryEnabled: { shape: bool, required: true, example: 'true' },
    recoveryPeriodInDays: opt(whole('POINT_IN_TIME_RECOVERY_INVALID', 1, 35, 'a whole number of days from 1 to 35')),
  },
};

/** Every prop: those this file reads with their shapes, the others checked where they are used. */
const PROPS_SHAPE: Shape = {
  kind: 'struct',
  fields: {
    manifest: opt(anything),
    tableName: opt(text('TABLE_NAME_INVALID')),
    billing: opt(anything),
    encryption: opt(anything),
    pointInTimeRecoverySpecification: opt(anything),
    deletionProtection: opt(bool),
    removalPolicy: opt(enumOf('REMOVAL_POLICY_INVALID', 'RemovalPolicy', RemovalPolicy)),
    timeToLiveAttribute: opt(userName('TTL_ATTRIBUTE_INVALID')),
    dynamoStream: opt(enumOf('STREAM_VIEW_TYPE_INVALID', 'StreamViewType', StreamViewType)),
    shardLock: opt(text()),
    shardLockName: opt(text()),
    ...Object.fromEntries(['replicas', 'multiRegionConsistency', 'witnessRegion', 'tableClass', 'contributorInsightsSpecification', 'globalSecondaryIndexOptions',
      'warmThroughput', 'tags', 'resourcePolicy', 'streamResourcePolicy', 'kinesisStream'].map((prop) => [prop, opt(anything)])),
  },
  // Names of Table (v1) props and of TableV2 props the manifest decides, with their replacements.
  renamed: {
    billingMode: 'SingleTable takes TableV2\'s billing: use billing: Billing.onDemand() or Billing.provisioned({ readCapacity, writeCapacity })',
    readCapacity: 'SingleTable takes TableV2\'s billing: use billing: Billing.provisioned({ readCapacity: Capacity.fixed(5), writeCapacity: Capacity.autoscaled({ maxCapacity: 10 }) })',
    writeCapacity: 'SingleTable takes TableV2\'s billing: use billing: Billing.provisioned({ readCapacity: Capacity.fixed(5), writeCapacity: Capacity.autoscaled({ maxCapacity: 10 }) })',
    pointInTimeRecovery: 'use pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true } (on by default)',
    stream: 'use dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES',
    encryptionKey: 'use encryption: TableEncryptionV2.customerManagedKey(key)',
    replicationRegions: 'use replicas: [{ region: \'eu-west-1\' }]',
    timeToLive: 'use timeToLiveAttribute: \'expiresAt\'',
    contributorInsightsEnabled: 'use contributorInsightsSpecification: { enabled: true }',
    partitionKey: 'the manifest decides the keys: SingleTable\'s table key is always PK and SK; write key templates in the manifest\'s entities',
    sortKey: 'the manifest decides the keys: SingleTable\'s table key is always PK and SK; write key templates in the manifest\'s entities',
    globalSecondaryIndexes: 'declare GSIs in the manifest\'s globalIndexes (their other settings go in globalSecondaryIndexOptions)',
    localSecondaryIndexes: 'the manifest decides the LSIs: entities use the slots LSI1..LSI5 in their indexes',
  },
};

/** Whether every option has its type, enum value and range; reports each one that has not. */
export function checkPropsShape(props: unknown, sink: DiagnosticSink): boolean {
  return checkShape(props, PROPS_SHAPE, { location: PROPS_LOCATION, path: '' }, sink);
}

/** A point-in-time recovery specification (of the table or a replica, at `path`) TableV2 accepts. */
export function checkPointInTimeRecovery(sink: DiagnosticSink, path: string, spec: unknown): void {
  if (spec === undefined || !checkShape(spec, POINT_IN_TIME_RECOVERY, { location: PROPS_LOCATION, path }, sink)) return;
  const { pointInTimeRecoveryEnabled: enabled, recoveryPeriodInDays: days } = spec as PointInTimeRecoverySpecification;
  if (!enabled && days !== undefined) {
    sink.error('POINT_IN_TIME_RECOVERY_INVALID', PROPS_LOCATION, `${path}.recoveryPeriodInDays is ${days} but point-in-time recovery is off`,
      `remove recoveryPeriodInDays, or set ${path}.pointInTimeRecoveryEnabled to true`);
  }
}

/** A table name DynamoDB accepts. */
export const TABLE_NAME = /^[a-zA-Z0-9_.-]{3,255}$/;

type OptionProps = Pick<SingleTableProps, 'tableName' | 'timeToLiveAttribute' | 'encryption' | 'pointInTimeRecoverySpecification'>;

/**
 * Reports a table name DynamoDB rejects, a customer-managed key without a region, a TTL attribute
 * that cannot expire items, and (a warning) unique values whose items expire.
 */
export function checkTableOptions(model: TableModel, props: OptionProps, region: string, sink: DiagnosticSink): void {
  const name = props.tableName;
  if (name !== undefined && !Token.isUnresolved(name) && !TABLE_NAME.test(name)) {
    sink.error('TABLE_NAME_INVALID', PROPS_LOCATION, `tableName ${describeValue(name)} is not 3-255 characters of a-z, A-Z, 0-9, '_', '-', '.'`, "rename the table, e.g. 'app-table', or leave tableName out to let CloudFormation name it");
  }
  checkPointInTimeRecovery(sink, 'pointInTimeRecoverySpecification', props.pointInTimeRecoverySpecification);
  const encryption = props.encryption;
  const types = Object.values(TableEncryption) as unknown[];
  // TableV2 renders it through its internal _renderSseSpecification, so plain data with a `type` is no TableEncryptionV2
  if (encryption !== undefined && (encryption === null || typeof encryption !== 'object' || !types.includes(encryption.type) || typeof encryption._renderSseSpecification !== 'function')) {
    sink.error('ENCRYPTION_INVALID', PROPS_LOCATION, `encryption is ${describeType(encryption)}, not a TableEncryptionV2`,
      'use TableEncryptionV2.awsManagedKey(), TableEncryptionV2.dynamoOwnedKey() or TableEncryptionV2.customerManagedKey(key) from aws-cdk-lib/aws-dynamodb');
  } else if (encryption?.type === TableEncryption.CUSTOMER_MANAGED && Token.isUnresolved(region)) {
    // TableV2 names the key per replica region, so the region must be known at synth
    sink.error('ENCRYPTION_KEY_NEEDS_REGION', PROPS_LOCATION, 'encryption is a customer-managed key but the stack has no region', "give the stack an explicit region: new Stack(app, 'Id', { env: { region: 'eu-west-1' } })");
  }
  const ttl = props.timeToLiveAttribute;
  if (ttl === undefined || Token.isUnresolved(ttl)) return;
  if (ttl === model.typeAttribute || model.keyAttributes.includes(ttl)) {
    sink.error('TTL_ATTRIBUTE_CLASH', PROPS_LOCATION, `timeToLiveAttribute '${ttl}' is ${ttl === model.typeAttribute ? 'the type attribute' : 'a key attribute'}, which holds strings`, "use a data attribute of type NUMBER, e.g. 'expiresAt'");
    return;
  }
  let declared = false;
  for (const entity of Object.values(model.entities)) {
    const attr = own(entity.attributes, ttl);
    declared ||= attr !== undefined;
    if (attr && attr.type !== AttributeKind.NUMBER) {
      sink.error('TTL_ATTRIBUTE_NOT_NUMBER', `entity ${entity.name}, attribute ${ttl}`, `is the TTL attribute but has type ${attr.type}; DynamoDB only expires items whose TTL attribute is a number (epoch seconds)`, `declare '${ttl}' as AttributeKind.NUMBER holding epoch seconds`);
    }
    if (attr?.type === AttributeKind.NUMBER && entity.unique?.length) {
      // TTL deletes run outside any transaction, so the guard items of the values stay behind.
      sink.warning('UNIQUE_VALUES_EXPIRE', `entity ${entity.name}, attribute ${ttl}`,
        `is the TTL attribute of an entity with unique values (${entity.unique.join(', ')}); DynamoDB deletes an expired item without its guard items, so its values stay taken after it is gone`,
        'release the values from the table\'s stream (OLD_IMAGE or NEW_AND_OLD_IMAGES): a consumer passes its events to releaseUniqueValues; '
        + `or delete these items with deleteItem or transactWrite once they expire, before DynamoDB removes them; or drop '${ttl}' or unique from ${entity.name}`);
    }
  }
  if (!declared) {
    sink.error('TTL_ATTRIBUTE_UNDECLARED', PROPS_LOCATION, `timeToLiveAttribute '${ttl}' is not an attribute of any entity, so no item would ever expire`,
      `declare '${ttl}' as a NUMBER attribute (epoch seconds) on the entities that expire, or correct the name (declared: ${[...new Set(Object.values(model.entities).flatMap((e) => Object.keys(e.attributes)))].join(', ')})`);
  }
}
