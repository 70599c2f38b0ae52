// The TableV2 props rendered from a SingleTable's feature props (./options). TableV2 does the work;
// this only maps names and fills in what TableV2 would otherwise drop.
import { CfnGlobalTable, GlobalSecondaryIndexPropsV2, ReplicaGlobalSecondaryIndexOptions, ReplicaTableProps, TablePropsV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { SingleTableFeatureProps } from './options';
import { own } from '../../manifest/values';
import { IndexModel, IndexType, TableModel } from '../../model/model';
import { BillingFacts, readCapacityFrom } from '../billing';

type FeatureTableProps = Pick<TablePropsV2,
'replicas' | 'multiRegionConsistency' | 'witnessRegion' | 'tableClass' | 'contributorInsightsSpecification' | 'tags' | 'warmThroughput' | 'resourcePolicy' | 'streamResourcePolicy' | 'kinesisStream'>;

/** The table-level TableV2 props of the features: the same props, replicas' GSI settings completed. */
export function tableFeatures(model: TableModel, props: SingleTableFeatureProps, billing: BillingFacts): FeatureTableProps {
  return {
    replicas: props.replicas?.map((r) => ({ ...r, globalSecondaryIndexOptions: replicaIndexes(model, props, billing, r) })),
    multiRegionConsistency: props.multiRegionConsistency,
    witnessRegion: props.witnessRegion,
    tableClass: props.tableClass,
    contributorInsightsSpecification: props.contributorInsightsSpecification,
    tags: props.tags,
    warmThroughput: props.warmThroughput,
    resourcePolicy: props.resourcePolicy,
    streamResourcePolicy: props.streamResourcePolicy,
    kinesisStream: props.kinesisStream,
  };
}

/** A GSI's features: its on-demand maximum and warm throughput, which TableV2 applies in every region. */
export function globalIndexFeatures(props: SingleTableFeatureProps, indexName: string): Pick<GlobalSecondaryIndexPropsV2, 'maxReadRequestUnits' | 'maxWriteRequestUnits' | 'warmThroughput'> {
  const options = own(props.globalSecondaryIndexOptions, indexName);
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
    const insights = own(props.globalSecondaryIndexOptions, index.name)?.contributorInsightsSpecification;
    if (insights === undefined) return;
    const path = `Replicas.${stackRegionEntry}.GlobalSecondaryIndexes.${position}.ContributorInsightsSpecification`;
    resource.addPropertyOverride(`${path}.Enabled`, insights.enabled);
    // Overrides merge into the rendered entry: without a mode of its own, the table's must go.
    if (insights.mode === undefined) resource.addPropertyDeletionOverride(`${path}.Mode`);
    else resource.addPropertyOverride(`${path}.Mode`, insights.mode);
  });
}

/**
 * Every GSI's settings in a replica's region, stated in full: TableV2 replaces a GSI's read
 * capacity and maximum by the replica's entry for it, so an entry naming only Contributor
 * Insights would drop the GSI's own capacity there.
 */
type ReplicaIndexes = { [indexName: string]: ReplicaGlobalSecondaryIndexOptions };

function replicaIndexes(model: TableModel, props: SingleTableFeatureProps, billing: BillingFacts, replica: ReplicaTableProps): ReplicaIndexes {
  const out: ReplicaIndexes = {};
  for (const index of globalIndexes(model)) {
    const everywhere = own(props.globalSecondaryIndexOptions, index.name);
    const here = own(replica.globalSecondaryIndexOptions, index.name);
    out[index.name] = {
      contributorInsightsSpecification: here?.contributorInsightsSpecification ?? everywhere?.contributorInsightsSpecification
        ?? replica.contributorInsightsSpecification ?? props.contributorInsightsSpecification,
      readCapacity: here?.readCapacity ?? (index.readCapacity === undefined ? undefined : readCapacityFrom(index.readCapacity, billing)),
      maxReadRequestUnits: here?.maxReadRequestUnits ?? everywhere?.maxReadRequestUnits,
    };
  }
  return out;
}

function globalIndexes(model: TableModel): IndexModel[] {
  return Object.values(model.indexes).filter((i) => i.type === IndexType.GSI);
}
