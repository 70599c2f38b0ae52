// The TableV2 settings a SingleTable passes through: everything that does not touch what the
// manifest decides (keys, indexes, projections). Names follow TableV2's where the meaning is the same.
import type { CfnTag } from 'aws-cdk-lib';
import type { ContributorInsightsSpecification, TableClass, WarmThroughput } from 'aws-cdk-lib/aws-dynamodb';
import type { PolicyDocument } from 'aws-cdk-lib/aws-iam';
import type { IStream } from 'aws-cdk-lib/aws-kinesis';

/** Settings of one GSI the manifest declares, other than its keys, projection and capacity. */
export interface SingleTableGlobalIndexOptions {
  /**
   * CloudWatch Contributor Insights on this GSI, in every region unless a replica sets its own.
   * @default - the table's `contributorInsights`
   */
  readonly contributorInsights?: ContributorInsightsSpecification;

  /**
   * The most read request units per second the GSI may consume (on-demand billing only); requests
   * beyond it are throttled.
   * @default - the table's `maxReadRequestUnits`, if any
   */
  readonly maxReadRequestUnits?: number;

  /**
   * The most write request units per second the GSI may consume (on-demand billing only). Every
   * table write may write the GSI too, so a low limit here throttles writes to the table.
   * @default - the table's `maxWriteRequestUnits`, if any
   */
  readonly maxWriteRequestUnits?: number;

  /**
   * Reads and writes per second the GSI can serve at once, without first scaling up.
   * @default - DynamoDB's default warm throughput
   */
  readonly warmThroughput?: WarmThroughput;
}

/** A replica's settings of one GSI. */
export interface SingleTableReplicaIndexOptions {
  /**
   * Contributor Insights on this GSI in the replica's region.
   * @default - the GSI's `contributorInsights` in `globalIndexOptions`, else the replica's
   */
  readonly contributorInsights?: ContributorInsightsSpecification;

  /**
   * Read capacity units of the GSI in this region (provisioned billing only). Reads scale from here
   * up to the table's `maxReadCapacity` when that is set.
   * @default - the GSI's `readCapacity` in the manifest, else the table's
   */
  readonly readCapacity?: number;

  /**
   * The most read request units per second the GSI may consume in this region (on-demand billing only).
   * @default - the GSI's `maxReadRequestUnits` in `globalIndexOptions`, else the table's
   */
  readonly maxReadRequestUnits?: number;
}

/**
 * A replica of the table in another region (a multi-region global table). Writes are billed in
 * every region; the table's write capacity, keys, indexes, TTL and stream apply to all replicas.
 */
export interface SingleTableReplica {
  /** The replica's region, other than the stack's, e.g. `us-east-1`. */
  readonly region: string;

  /**
   * ARN of the customer-managed KMS key in the replica's region. Required when the table has an
   * `encryptionKey` (KMS keys are regional), not allowed otherwise.
   * @default - the table's encryption: the AWS-managed key
   */
  readonly encryptionKeyArn?: string;

  /**
   * Read capacity units of the replica (provisioned billing only). Reads scale from here up to the
   * table's `maxReadCapacity` when that is set.
   * @default - the table's read capacity
   */
  readonly readCapacity?: number;

  /**
   * The most read request units per second the replica may consume (on-demand billing only).
   * @default - the table's `maxReadRequestUnits`, if any
   */
  readonly maxReadRequestUnits?: number;

  /**
   * Contributor Insights on the replica.
   * @default - the table's `contributorInsights`
   */
  readonly contributorInsights?: ContributorInsightsSpecification;

  /**
   * Whether the replica is protected from deletion.
   * @default - the table's `deletionProtection`
   */
  readonly deletionProtection?: boolean;

  /**
   * Whether point-in-time recovery is on for the replica.
   * @default - the table's `pointInTimeRecovery`
   */
  readonly pointInTimeRecovery?: boolean;

  /**
   * The replica's table class.
   * @default - the table's `tableClass`
   */
  readonly tableClass?: TableClass;

  /**
   * A Kinesis data stream in the replica's region that receives the replica's item changes.
   * @default - none
   */
  readonly kinesisStream?: IStream;

  /**
   * Tags of the replica, added to the table's.
   * @default - the table's tags
   */
  readonly tags?: CfnTag[];

  /**
   * The replica's resource-based policy.
   * @default - none
   */
  readonly resourcePolicy?: PolicyDocument;

  /**
   * Settings of GSIs in this region, by GSI name.
   * @default - each GSI as in the stack's region
   */
  readonly globalIndexOptions?: { [indexName: string]: SingleTableReplicaIndexOptions };
}

/** The TableV2 settings of a SingleTable that the manifest does not decide. */
export interface SingleTableFeatureProps {
  /**
   * Replicas in other regions: the table becomes a multi-region global table, and its stream
   * records new and old images (global tables replicate through it). The stack needs an explicit region.
   * @default - no replicas
   */
  readonly replicas?: SingleTableReplica[];

  /**
   * The table class: STANDARD, or STANDARD_INFREQUENT_ACCESS for tables whose storage costs more
   * than their throughput.
   * @default TableClass.STANDARD
   */
  readonly tableClass?: TableClass;

  /**
   * CloudWatch Contributor Insights on the table and, unless `globalIndexOptions` says otherwise, its GSIs.
   * @default - off
   */
  readonly contributorInsights?: ContributorInsightsSpecification;

  /**
   * Settings of the manifest's GSIs other than keys, projection and capacity, by GSI name.
   * @default - none
   */
  readonly globalIndexOptions?: { [indexName: string]: SingleTableGlobalIndexOptions };

  /**
   * The most read request units per second the table may consume (on-demand billing only).
   * @default - no maximum
   */
  readonly maxReadRequestUnits?: number;

  /**
   * The most write request units per second the table may consume (on-demand billing only).
   * @default - no maximum
   */
  readonly maxWriteRequestUnits?: number;

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
   * The resource-based policy of the table's stream (needs `stream` or `replicas`).
   * @default - none
   */
  readonly streamResourcePolicy?: PolicyDocument;

  /**
   * A Kinesis data stream that receives the table's item changes.
   * @default - none
   */
  readonly kinesisStream?: IStream;
}
