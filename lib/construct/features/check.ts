// Checks of the TableV2 feature props (./options) at synth: values CloudFormation or DynamoDB would
// reject only at deployment, that TableV2 would silently pass through, or that Python, Java and
// JSON users can write with the wrong type. Each finding names the property, the value and the fix.
import { Token } from 'aws-cdk-lib';
import { BillingMode, ContributorInsightsMode, MultiRegionConsistency, ReplicaTableProps, StreamViewType, TableClass, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { SingleTableFeatureProps } from './options';
import type { DiagnosticSink } from '../../manifest/diagnostics';
import { anything, checkShape, opt, Shape } from '../../manifest/shape';
import { describeType, describeValue, own } from '../../manifest/values';
import { didYouMean } from '../../model/closest-name';
import { IndexType, TableModel } from '../../model/model';
import { BillingFacts, checkCapacity, checkRequestUnits } from '../billing';
import type { SingleTableProps } from '../props';
import { checkPointInTimeRecovery, PROPS_LOCATION as WHERE } from '../table-options';

/** A GSI's options (checked one by one below): any other name is refused. */
const GLOBAL_INDEX_OPTIONS: Shape = {
  kind: 'struct',
  fields: Object.fromEntries(['contributorInsightsSpecification', 'maxReadRequestUnits', 'maxWriteRequestUnits', 'warmThroughput'].map((f) => [f, opt(anything)])),
};

/** An AWS region name such as `eu-west-1` or `us-gov-west-1`. */
const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;

/** DynamoDB's tag limits: 50 per table, keys 1-128 and values 0-256 characters of these, `aws:` reserved. */
const MAX_TAGS = 50;
const TAG_TEXT = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$/u;

type FeatureCheckProps = SingleTableFeatureProps & Pick<SingleTableProps, 'dynamoStream' | 'encryption'>;

/**
 * Reports every feature prop that cannot work, in the stack's region `region`. With `billing`
 * undefined (unreadable, reported already) the checks that depend on it are skipped.
 */
export function checkTableFeatures(
  model: TableModel, props: FeatureCheckProps, billing: BillingFacts | undefined, region: string, sink: DiagnosticSink,
): void {
  const onDemand = billing?.mode === BillingMode.PAY_PER_REQUEST;
  checkTableClass(sink, 'tableClass', props.tableClass);
  checkInsights(sink, 'contributorInsightsSpecification', props.contributorInsightsSpecification);
  checkWarmThroughput(sink, 'warmThroughput', props.warmThroughput);
  checkTags(sink, 'tags', props.tags);
  for (const [name, options] of indexEntries(model, sink, 'globalSecondaryIndexOptions', props.globalSecondaryIndexOptions)) {
    const path = `globalSecondaryIndexOptions.${name}`;
    checkShape(options, GLOBAL_INDEX_OPTIONS, { location: WHERE, path }, sink);
    checkInsights(sink, `${path}.contributorInsightsSpecification`, options.contributorInsightsSpecification);
    checkRequestUnits(sink, onDemand, `${path}.maxReadRequestUnits`, options.maxReadRequestUnits);
    checkRequestUnits(sink, onDemand, `${path}.maxWriteRequestUnits`, options.maxWriteRequestUnits);
    checkWarmThroughput(sink, `${path}.warmThroughput`, options.warmThroughput);
  }
  const streams = props.dynamoStream !== undefined || (props.replicas?.length ?? 0) > 0;
  if (props.streamResourcePolicy !== undefined && !streams) {
    sink.error('STREAM_POLICY_WITHOUT_STREAM', WHERE, 'streamResourcePolicy is set but the table has no stream', 'set dynamoStream (e.g. StreamViewType.NEW_AND_OLD_IMAGES), or remove streamResourcePolicy');
  }
  if (billing) checkReplicas(model, props, region, onDemand, sink);
  checkConsistency(props, region, sink);
}

/** The region sets multi-region strong consistency runs in: all three regions in one set. */
const STRONG_REGION_SETS: { readonly [set: string]: readonly string[] } = {
  US: ['us-east-1', 'us-east-2', 'us-west-2'],
  EU: ['eu-west-1', 'eu-west-2', 'eu-west-3', 'eu-central-1'],
  AP: ['ap-northeast-1', 'ap-northeast-2', 'ap-northeast-3'],
};

/** `multiRegionConsistency` and `witnessRegion`: what DynamoDB accepts of a strongly consistent global table. */
function checkConsistency(props: FeatureCheckProps, region: string, sink: DiagnosticSink): void {
  const { multiRegionConsistency: consistency, witnessRegion: witness } = props;
  if (consistency !== undefined && !Object.values(MultiRegionConsistency).includes(consistency)) {
    sink.error('CONSISTENCY_INVALID', WHERE, `multiRegionConsistency is ${describeValue(consistency)}, not a MultiRegionConsistency`,
      `${typeof consistency === 'string' ? didYouMean(consistency, Object.values(MultiRegionConsistency)) : ''}use MultiRegionConsistency.EVENTUAL or STRONG`);
    return;
  }
  if (witness !== undefined && (typeof witness !== 'string' || !REGION.test(witness))) {
    sink.error('WITNESS_REGION_INVALID', WHERE, `witnessRegion ${describeValue(witness)} is not an AWS region name`, "name the witness's region, e.g. 'us-west-2'");
    return;
  }
  if (consistency !== MultiRegionConsistency.STRONG) {
    if (witness !== undefined) {
      sink.error('WITNESS_REGION_WITHOUT_STRONG', WHERE, `witnessRegion is '${witness}' but the replicas agree eventually, where no witness votes`,
        'set multiRegionConsistency: MultiRegionConsistency.STRONG, or remove witnessRegion');
    }
    return;
  }
  const replicas = Array.isArray(props.replicas) ? props.replicas.map((r) => r?.region).filter((r): r is string => typeof r === 'string') : [];
  if (Token.isUnresolved(region)) {
    sink.error('STRONG_CONSISTENCY_NEEDS_STACK_REGION', WHERE, 'multiRegionConsistency is STRONG but the stack has no region, so its region set is unknown',
      "give the stack an explicit region: new Stack(app, 'Id', { env: { region: 'us-east-1' } })");
    return;
  }
  const [setName, set] = Object.entries(STRONG_REGION_SETS).find(([, regions]) => regions.includes(region)) ?? [];
  if (!set) {
    sink.error('STRONG_CONSISTENCY_REGION_UNSUPPORTED', WHERE, `multiRegionConsistency is STRONG but the stack's region ${region} is in no region set that offers it`,
      `deploy the stack in one of ${Object.values(STRONG_REGION_SETS).flat().join(', ')}, or use MultiRegionConsistency.EVENTUAL`);
    return;
  }
  const outside = [...replicas, ...(witness === undefined ? [] : [witness])].filter((r) => !set.includes(r));
  if (outside.length) {
    sink.error('STRONG_CONSISTENCY_REGION_UNSUPPORTED', WHERE, `multiRegionConsistency is STRONG but ${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} outside the ${setName} region set of the stack's region ${region}`,
      `put the replicas${witness === undefined ? '' : ' and the witness'} in ${set.filter((r) => r !== region).join(', ')}`);
  }
  if (witness !== undefined && (witness === region || replicas.includes(witness))) {
    sink.error('WITNESS_REGION_INVALID', WHERE, `witnessRegion '${witness}' holds ${witness === region ? 'the table itself' : 'a replica'}`,
      `give the witness a region of its own: ${set.filter((r) => r !== region && !replicas.includes(r)).join(' or ') || 'none is left in the set'}`);
  }
  const needed = witness === undefined ? 2 : 1;
  if (replicas.length !== needed) {
    sink.error('STRONG_CONSISTENCY_REPLICAS_INVALID', WHERE,
      `multiRegionConsistency is STRONG with ${replicas.length} replica${replicas.length === 1 ? '' : 's'}${witness === undefined ? ' and no witness' : ` and the witness ${witness}`}; it needs three regions: the table's, and two replicas or one replica and a witness`,
      witness === undefined ? `give ${needed} replicas, or ${replicas.length === 1 ? 'a witnessRegion' : 'one replica and a witnessRegion'}` : 'give exactly one replica beside the witness, or two replicas and no witnessRegion');
  }
}

function checkReplicas(model: TableModel, props: FeatureCheckProps, region: string, onDemand: boolean, sink: DiagnosticSink): void {
  const replicas = props.replicas;
  if (replicas === undefined) return;
  if (!Array.isArray(replicas)) {
    sink.error('REPLICAS_INVALID', WHERE, `replicas is ${describeType(replicas)}, not a list`, "give a list of replicas, e.g. [{ region: 'us-east-1' }]");
    return;
  }
  if (replicas.length === 0) return;
  if (Token.isUnresolved(region)) {
    sink.error('REPLICAS_NEED_STACK_REGION', WHERE, 'replicas are set but the stack has no region, so the replicas cannot be told apart from the table', "give the stack an explicit region: new Stack(app, 'Id', { env: { region: 'eu-west-1' } })");
  }
  if (props.dynamoStream !== undefined && props.dynamoStream !== StreamViewType.NEW_AND_OLD_IMAGES) {
    sink.error('REPLICA_STREAM_VIEW_INVALID', WHERE, `dynamoStream is ${describeValue(props.dynamoStream)} but a table with replicas replicates through a stream of new and old images`, 'set dynamoStream to StreamViewType.NEW_AND_OLD_IMAGES, or leave it out');
  }
  const seen = new Set<string>([region]);
  replicas.forEach((replica, i) => {
    const path = `replicas[${i}]`;
    if (checkRegion(sink, path, replica?.region, region, seen)) seen.add(replica.region);
    if (replica === null || typeof replica !== 'object') return;
    checkReplicaKey(sink, path, replica, props.encryption);
    checkReadCapacity(sink, onDemand, `${path}.readCapacity`, replica.readCapacity);
    checkRequestUnits(sink, onDemand, `${path}.maxReadRequestUnits`, replica.maxReadRequestUnits);
    checkInsights(sink, `${path}.contributorInsightsSpecification`, replica.contributorInsightsSpecification);
    checkTableClass(sink, `${path}.tableClass`, replica.tableClass);
    checkBoolean(sink, `${path}.deletionProtection`, replica.deletionProtection);
    checkPointInTimeRecovery(sink, `${path}.pointInTimeRecoverySpecification`, replica.pointInTimeRecoverySpecification);
    checkTags(sink, `${path}.tags`, replica.tags);
    const options = `${path}.globalSecondaryIndexOptions`;
    for (const [name, index] of indexEntries(model, sink, options, replica.globalSecondaryIndexOptions)) {
      checkInsights(sink, `${options}.${name}.contributorInsightsSpecification`, index.contributorInsightsSpecification);
      checkReadCapacity(sink, onDemand, `${options}.${name}.readCapacity`, index.readCapacity);
      checkRequestUnits(sink, onDemand, `${options}.${name}.maxReadRequestUnits`, index.maxReadRequestUnits);
    }
  });
}

/** True when the region is a new, valid replica region. */
function checkRegion(sink: DiagnosticSink, path: string, value: unknown, stackRegion: string, seen: Set<string>): value is string {
  if (typeof value !== 'string' || (!Token.isUnresolved(value) && !REGION.test(value))) {
    sink.error('REPLICA_REGION_INVALID', WHERE, `${path}.region ${describeValue(value)} is not an AWS region name`, "name the replica's region, e.g. 'us-east-1'");
    return false;
  }
  if (Token.isUnresolved(value)) {
    sink.error('REPLICA_REGION_INVALID', WHERE, `${path}.region is a token; a replica's region must be known at synth`, "write the region as text, e.g. 'us-east-1'");
    return false;
  }
  if (seen.has(value)) {
    const why = value === stackRegion ? "is the stack's own region, where the table itself is" : 'has a replica already';
    sink.error('REPLICA_REGION_INVALID', WHERE, `${path}.region '${value}' ${why}`, 'give each replica a different region, other than the stack\'s');
    return false;
  }
  return true;
}

/** A customer-managed table key names the key of each replica's region (KMS keys are regional). */
function checkReplicaKey(sink: DiagnosticSink, path: string, replica: ReplicaTableProps, encryption: SingleTableProps['encryption']): void {
  if (encryption?.type !== TableEncryption.CUSTOMER_MANAGED) return;
  const arns = encryption.replicaKeyArns ?? {};
  const example = `TableEncryptionV2.customerManagedKey(key, { '${replica.region}': 'arn:aws:kms:${replica.region}:<account>:key/<id>' })`;
  if (!Object.prototype.hasOwnProperty.call(arns, replica.region)) {
    sink.error('REPLICA_KEY_MISSING', WHERE, `${path} is in ${replica.region}, but the table is encrypted with a customer-managed key and its replicaKeyArns name no key there; KMS keys are regional`,
      `name the key of ${replica.region} in the encryption's replicaKeyArns: ${example}`);
    return;
  }
  const arn: unknown = arns[replica.region];
  if (typeof arn !== 'string' || (!Token.isUnresolved(arn) && !/^arn:aws[\w-]*:kms:/.test(arn))) {
    sink.error('REPLICA_KEY_MISSING', WHERE, `the encryption's replicaKeyArns give ${describeValue(arn)} for ${replica.region}, not a KMS key ARN`, `give the key's ARN: ${example}`);
  }
}

/** The entries of a per-GSI map whose names are GSIs of the manifest; the others are reported. */
function indexEntries<T>(model: TableModel, sink: DiagnosticSink, path: string, map: { readonly [name: string]: T } | undefined): [string, T][] {
  if (map === undefined) return [];
  if (map === null || typeof map !== 'object' || Array.isArray(map)) {
    sink.error('GLOBAL_INDEX_OPTIONS_INVALID', WHERE, `${path} is ${describeType(map)}, not a map from GSI name to options`, `write ${path} as { GSI1: { ... } }`);
    return [];
  }
  const gsis = Object.values(model.indexes).filter((i) => i.type === IndexType.GSI).map((i) => i.name);
  const out: [string, T][] = [];
  for (const name of Object.keys(map)) {
    const index = own(model.indexes, name);
    if (index?.type === IndexType.GSI) {
      out.push([name, map[name] ?? {} as T]);
      continue;
    }
    const why = index?.type === IndexType.LSI ? `'${name}' is a local index, which shares the table's throughput and settings` : `the manifest declares no GSI '${name}'`;
    sink.error('GLOBAL_INDEX_OPTIONS_UNKNOWN_INDEX', WHERE, `${path} names ${describeValue(name)}, but ${why}`,
      gsis.length ? `${didYouMean(name, gsis)}use one of the GSIs: ${gsis.join(', ')}` : `remove ${path}: the manifest declares no GSIs`);
  }
  return out;
}

function checkTableClass(sink: DiagnosticSink, path: string, value: unknown): void {
  const allowed = Object.values(TableClass) as unknown[];
  if (value !== undefined && !allowed.includes(value)) {
    sink.error('TABLE_CLASS_INVALID', WHERE, `${path} ${describeValue(value)} is not a table class`, `use one of ${allowed.join(', ')}`);
  }
}

function checkInsights(sink: DiagnosticSink, path: string, value: unknown): void {
  if (value === undefined) return;
  const modes = Object.values(ContributorInsightsMode) as unknown[];
  const spec = value as { enabled?: unknown; mode?: unknown };
  const fix = `write ${path} as { enabled: true } or { enabled: true, mode: ContributorInsightsMode.THROTTLED_KEYS }`;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    sink.error('CONTRIBUTOR_INSIGHTS_INVALID', WHERE, `${path} is ${describeType(value)}, not { enabled: true | false, mode? }`, fix);
  } else if (typeof spec.enabled !== 'boolean') {
    sink.error('CONTRIBUTOR_INSIGHTS_INVALID', WHERE, `${path}.enabled is ${describeType(spec.enabled)}, not true or false`, fix);
  } else if (spec.mode !== undefined && !modes.includes(spec.mode)) {
    sink.error('CONTRIBUTOR_INSIGHTS_INVALID', WHERE, `${path}.mode ${describeValue(spec.mode)} is not a Contributor Insights mode`, `use one of ${modes.join(', ')}, or leave mode out for ${ContributorInsightsMode.ACCESSED_AND_THROTTLED_KEYS}`);
  }
}

const isUnits = (n: unknown): boolean => typeof n === 'number' && Number.isSafeInteger(n) && n >= 1;

/** A replica's or replica GSI's read capacity: a Capacity, only with provisioned billing. */
function checkReadCapacity(sink: DiagnosticSink, onDemand: boolean, path: string, value: unknown): void {
  if (value === undefined || !checkCapacity(sink, path, value)) return;
  if (onDemand) {
    sink.error('CAPACITY_WITHOUT_PROVISIONED_BILLING', WHERE, `sets ${path} but billing is on-demand`, `give the SingleTable billing: Billing.provisioned({ ... }), or remove ${path} (maxReadRequestUnits caps on-demand reads)`);
  }
}

function checkWarmThroughput(sink: DiagnosticSink, path: string, value: unknown): void {
  if (value === undefined) return;
  const warm = value as { readUnitsPerSecond?: unknown; writeUnitsPerSecond?: unknown };
  const fix = `write ${path} as { readUnitsPerSecond: 15000, writeUnitsPerSecond: 5000 }, or leave it out`;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    sink.error('WARM_THROUGHPUT_INVALID', WHERE, `${path} is ${describeType(value)}, not { readUnitsPerSecond?, writeUnitsPerSecond? }`, fix);
    return;
  }
  if (warm.readUnitsPerSecond === undefined && warm.writeUnitsPerSecond === undefined) {
    sink.error('WARM_THROUGHPUT_INVALID', WHERE, `${path} sets neither readUnitsPerSecond nor writeUnitsPerSecond`, fix);
    return;
  }
  for (const unit of ['readUnitsPerSecond', 'writeUnitsPerSecond'] as const) {
    const n = warm[unit];
    if (n !== undefined && !isUnits(n)) {
      sink.error('WARM_THROUGHPUT_INVALID', WHERE, `${path}.${unit} ${describeValue(n)} is not a whole number of units per second of at least 1`, `set ${path}.${unit} to a whole number, or leave it out`);
    }
  }
}

function checkBoolean(sink: DiagnosticSink, path: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') {
    sink.error('OPTION_NOT_BOOLEAN', WHERE, `${path} ${describeValue(value)} is not true or false`, `set ${path} to true or false (a boolean, not a string)`);
  }
}

function checkTags(sink: DiagnosticSink, path: string, tags: unknown): void {
  if (tags === undefined) return;
  if (!Array.isArray(tags)) {
    sink.error('TAG_INVALID', WHERE, `${path} is ${describeType(tags)}, not a list of { key, value }`, `write ${path} as [{ key: 'team', value: 'orders' }]`);
    return;
  }
  if (tags.length > MAX_TAGS) {
    sink.error('TAG_INVALID', WHERE, `${path} has ${tags.length} tags; DynamoDB allows ${MAX_TAGS} per table`, `keep at most ${MAX_TAGS} tags`);
  }
  const keys = new Set<string>();
  tags.forEach((tag: { key?: unknown; value?: unknown } | null, i) => {
    const key = tag?.key;
    const value = tag?.value;
    const at = `${path}[${i}]`;
    if (typeof key !== 'string' || typeof value !== 'string') {
      sink.error('TAG_INVALID', WHERE, `${at} has key ${describeType(key)} and value ${describeType(value)}; both must be strings`, `write ${at} as { key: 'team', value: 'orders' }`);
      return;
    }
    if (Token.isUnresolved(key) || Token.isUnresolved(value)) return;
    if (key.length < 1 || key.length > 128 || !TAG_TEXT.test(key) || key.toLowerCase().startsWith('aws:')) {
      sink.error('TAG_INVALID', WHERE, `${at}.key ${describeValue(key)} is not 1-128 letters, digits, spaces or _ . : / = + - @, or starts with the reserved 'aws:'`, 'rename the tag key, e.g. \'team\'');
    } else if (keys.has(key)) {
      sink.error('TAG_INVALID', WHERE, `${at}.key '${key}' is given twice`, 'keep one value per tag key');
    }
    keys.add(key);
    if (value.length > 256 || !TAG_TEXT.test(value)) {
      sink.error('TAG_INVALID', WHERE, `${at}.value ${describeValue(value)} is not 0-256 letters, digits, spaces or _ . : / = + - @`, 'shorten the value or drop the other characters');
    }
  });
}
