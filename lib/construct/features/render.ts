// The TableV2 props rendered from a SingleTable's feature props (./options). TableV2 does the work;
// this only maps names and fills in what TableV2 would otherwise drop.
import { CfnGlobalTable, GlobalSecondaryIndexPropsV2, ReplicaGlobalSecondaryIndexOptions, ReplicaTableProps, TableEncryptionV2, TablePropsV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { SingleTableFeatureProps, SingleTableReplica } from './options';
import { IndexModel, IndexType, TableModel } from '../../manifest/model';
import { own } from '../../manifest/values';
import { readCapacityFrom } from '../billing';
import type { SingleTableProps } from '../single-table';

type FeatureTableProps = Pick<TablePropsV2,
'replicas' | 'tableClass' | 'contributorInsightsSpecification' | 'tags' | 'warmThroughput' | 'resourcePolicy' | 'streamResourcePolicy' | 'kinesisStream' | 'encryption'>;

/** The table-level TableV2 props of the features. */
export function tableFeatures(model: TableModel, props: SingleTableProps): FeatureTableProps {
  return {
    replicas: props.replicas?.map((r) => replicaTable(model, props, r)),
    tableClass: props.tableClass,
    contributorInsightsSpecification: props.contributorInsights,
    tags: props.tags,
    warmThroughput: props.warmThroughput,
    resourcePolicy: props.resourcePolicy,
    streamResourcePolicy: props.streamResourcePolicy,
    kinesisStream: props.kinesisStream,
    encryption: tableEncryption(props.encryptionKey, props.replicas),
  };
}

/** A GSI's features: its on-demand maximum and warm throughput, which TableV2 applies in every region. */
export function globalIndexFeatures(props: SingleTableFeatureProps, indexName: string): Pick<GlobalSecondaryIndexPropsV2, 'maxReadRequestUnits' | 'maxWriteRequestUnits' | 'warmThroughput'> {
  const options = own(props.globalIndexOptions, indexName);
  return {
    maxReadRequestUnits: options?.maxReadRequestUnits,
    maxWriteRequestUnits: options?.maxWriteRequestUnits,
    warmThroughput: options?.warmThroughput,
  };
}

/**
 * Contributor Insights of single GSIs in the stack's region. TableV2 gives that region's GSIs the
 * table's setting and has no per-GSI option there, so the setting is written onto the rendered
 * replica entry of that region, which TableV2 renders after every other replica.
 */
export function applyGlobalIndexInsights(table: TableV2, model: TableModel, props: SingleTableFeatureProps): void {
  const resource = table.node.defaultChild as CfnGlobalTable;
  const stackRegionEntry = props.replicas?.length ?? 0;
  globalIndexes(model).forEach((index, position) => {
    const insights = own(props.globalIndexOptions, index.name)?.contributorInsights;
    if (insights === undefined) return;
    const path = `Replicas.${stackRegionEntry}.GlobalSecondaryIndexes.${position}.ContributorInsightsSpecification`;
    resource.addPropertyOverride(`${path}.Enabled`, insights.enabled);
    // Overrides merge into the rendered entry: without a mode of its own, the table's must go.
    if (insights.mode === undefined) resource.addPropertyDeletionOverride(`${path}.Mode`);
    else resource.addPropertyOverride(`${path}.Mode`, insights.mode);
  });
}

/** The AWS-managed key, or the customer-managed key with its counterpart in each replica's region. */
function tableEncryption(key: IKey | undefined, replicas: readonly SingleTableReplica[] = []): TableEncryptionV2 {
  if (!key) return TableEncryptionV2.awsManagedKey();
  const replicaKeyArns: { [region: string]: string } = {};
  for (const r of replicas) if (r.encryptionKeyArn !== undefined) replicaKeyArns[r.region] = r.encryptionKeyArn;
  return TableEncryptionV2.customerManagedKey(key, replicaKeyArns);
}

function replicaTable(model: TableModel, props: SingleTableProps, replica: SingleTableReplica): ReplicaTableProps {
  return {
    region: replica.region,
    readCapacity: replica.readCapacity === undefined ? undefined : readCapacityFrom(replica.readCapacity, props),
    maxReadRequestUnits: replica.maxReadRequestUnits,
    contributorInsightsSpecification: replica.contributorInsights,
    deletionProtection: replica.deletionProtection,
    // TableV2 prefers the table's specification (always set here) to a replica's boolean
    pointInTimeRecoverySpecification: replica.pointInTimeRecovery === undefined
      ? undefined : { pointInTimeRecoveryEnabled: replica.pointInTimeRecovery },
    tableClass: replica.tableClass,
    kinesisStream: replica.kinesisStream,
    tags: replica.tags,
    resourcePolicy: replica.resourcePolicy,
    globalSecondaryIndexOptions: replicaIndexes(model, props, replica),
  };
}

/**
 * Every GSI's settings in a replica's region, stated in full: TableV2 replaces a GSI's read
 * capacity and maximum by the replica's entry for it, so an entry naming only Contributor
 * Insights would drop the GSI's own capacity there.
 */
type ReplicaIndexes = { [indexName: string]: ReplicaGlobalSecondaryIndexOptions };

function replicaIndexes(model: TableModel, props: SingleTableProps, replica: SingleTableReplica): ReplicaIndexes {
  const out: ReplicaIndexes = {};
  for (const index of globalIndexes(model)) {
    const everywhere = own(props.globalIndexOptions, index.name);
    const here = own(replica.globalIndexOptions, index.name);
    const reads = here?.readCapacity ?? index.readCapacity;
    out[index.name] = {
      contributorInsightsSpecification: here?.contributorInsights ?? everywhere?.contributorInsights
        ?? replica.contributorInsights ?? props.contributorInsights,
      readCapacity: reads === undefined ? undefined : readCapacityFrom(reads, props),
      maxReadRequestUnits: here?.maxReadRequestUnits ?? everywhere?.maxReadRequestUnits,
    };
  }
  return out;
}

function globalIndexes(model: TableModel): IndexModel[] {
  return Object.values(model.indexes).filter((i) => i.type === IndexType.GSI);
}
