// The TableV2 settings a SingleTable passes through: everything that does not touch what the
// manifest decides (keys, indexes, projections), named and typed as TableV2's props, so props move
// between the two unchanged.
import type { CfnTag } from 'aws-cdk-lib';
import type { ContributorInsightsSpecification, MultiRegionConsistency, ReplicaTableProps, TableClass, WarmThroughput } from 'aws-cdk-lib/aws-dynamodb';
import type { PolicyDocument } from 'aws-cdk-lib/aws-iam';
import type { IStream } from 'aws-cdk-lib/aws-kinesis';

/**
 * Settings of one GSI the manifest declares, other than its keys, projection and capacity (the
 * manifest's), named and typed as in TableV2's `GlobalSecondaryIndexPropsV2`.
 */
export interface SingleTableGlobalIndexOptions {
  /**
   * CloudWatch Contributor Insights on this GSI, in every region unless a replica's
   * `globalSecondaryIndexOptions` sets its own.
   * @default - the table's `contributorInsightsSpecification`
   */
  readonly contributorInsightsSpecification?: ContributorInsightsSpecification;

  /**
   * The most read request units per second the GSI may consume (on-demand billing only); requests
   * beyond it are throttled.
   * @default - the maximum of the table's `Billing.onDemand`, if any
   */
  readonly maxReadRequestUnits?: number;

  /**
   * The most write request units per second the GSI may consume (on-demand billing only). Every
   * table write may write the GSI too, so a low limit here throttles writes to the table.
   * @default - the maximum of the table's `Billing.onDemand`, if any
   */
  readonly maxWriteRequestUnits?: number;

  /**
   * Reads and writes per second the GSI can serve at once, without first scaling up.
   * @default - DynamoDB's default warm throughput
   */
  readonly warmThroughput?: WarmThroughput;
}

/** The TableV2 settings of a SingleTable that the manifest does not decide. */
export interface SingleTableFeatureProps {
  /**
   * Replicas in other regions: the table becomes a multi-region global table, and its stream
   * records new and old images (global tables replicate through it). The stack needs an explicit
   * region. A replica's entry in `globalSecondaryIndexOptions` for a GSI keeps what it leaves out
   * from the GSI (its `readCapacity` in the manifest, its `globalSecondaryIndexOptions` here).
   * @default - no replicas
   */
  readonly replicas?: ReplicaTableProps[];

  /**
   * How the replicas agree: EVENTUAL (each region's writes reach the others within about a second)
   * or STRONG (multi-region strong consistency: a strongly consistent read in any region sees every
   * write made in any region). STRONG needs three regions of one region set (US: us-east-1,
   * us-east-2, us-west-2; EU: eu-west-1, eu-west-2, eu-west-3, eu-central-1; AP: ap-northeast-1,
   * ap-northeast-2, ap-northeast-3): the stack's and two replicas, or one replica and `witnessRegion`.
   * @default MultiRegionConsistency.EVENTUAL
   */
  readonly multiRegionConsistency?: MultiRegionConsistency;

  /**
   * The witness region of a table with STRONG `multiRegionConsistency` and one replica: it holds no
   * replica, only the writes' quorum votes. In the stack's region set, other than the table's and
   * the replica's regions.
   * @default - no witness: STRONG consistency needs two replicas
   */
  readonly witnessRegion?: string;

  /**
   * The table class: STANDARD, or STANDARD_INFREQUENT_ACCESS for tables whose storage costs more
   * than their throughput.
   * @default TableClass.STANDARD
   */
  readonly tableClass?: TableClass;

  /**
   * CloudWatch Contributor Insights on the table and, unless `globalSecondaryIndexOptions` says
   * otherwise, its GSIs.
   * @default - off
   */
  readonly contributorInsightsSpecification?: ContributorInsightsSpecification;

  /**
   * Settings of the manifest's GSIs other than keys, projection and capacity, by GSI name.
   * @default - none
   */
  readonly globalSecondaryIndexOptions?: { [indexName: string]: SingleTableGlobalIndexOptions };

  /**
   * Reads and writes per second the table can serve at once, without first scaling up.
   * @default - DynamoDB's default warm throughput
   */
  readonly warmThroughput?: WarmThroughput;

  /**
   * Tags of the table (and its replicas). `Tags.of(singleTable).add()` tags it as well.
   * @default - none
   */
  readonly tags?: CfnTag[];

  /**
   * The table's resource-based policy. A policy naming the table's own ARN makes a circular
   * reference; use `*` as the resource, which means this table.
   * @default - none
   */
  readonly resourcePolicy?: PolicyDocument;

  /**
   * The resource-based policy of the table's stream (needs `dynamoStream` or `replicas`).
   * @default - none
   */
  readonly streamResourcePolicy?: PolicyDocument;

  /**
   * A Kinesis data stream that receives the table's item changes.
   * @default - none
   */
  readonly kinesisStream?: IStream;
}
