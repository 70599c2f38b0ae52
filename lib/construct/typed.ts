// A SingleTable as TypeScript sees it with its manifest's names: the patterns of grants and
// `connect`, and the entities of a stream consumer, typed by the manifest, so a misspelled name is a
// compile error. Types only, so jsii leaves them out of the other languages, whose callers get the
// same names checked at synth with a did-you-mean:
//   const table: SingleTableOf<typeof manifest> = new SingleTable(stack, 'Table', { manifest });
import type { Grant, IGrantable } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { SingleTableGrantOptions } from './grants/options';
import type { ISingleTable } from './i-single-table';
import type { SingleTable } from './single-table';
import type { StreamConsumerOptions } from './streams/options';
import type { EntityName, PatternName } from '../model/infer';

/** Grant options whose pattern names are those of manifest `M`. */
export type GrantOptionsOf<M> = Omit<SingleTableGrantOptions, 'patterns'> & {
  /** Access patterns the grantee queries; see `SingleTableGrantOptions.patterns`. */
  readonly patterns?: PatternName<M>[];
};

/** Stream consumer options whose entity names are those of manifest `M`. */
export type StreamConsumerOptionsOf<M> = Omit<StreamConsumerOptions, 'entities'> & {
  /** The entities whose changes reach the function; see `StreamConsumerOptions.entities`. */
  readonly entities?: EntityName<M>[];
};

/** The grants of a table of manifest `M`, with its names. */
interface GrantsOf<M> {
  grantAccess(grantee: IGrantable, options: GrantOptionsOf<M>): Grant;
  grantPatterns(grantee: IGrantable, ...patterns: PatternName<M>[]): Grant;
  connect(fn: LambdaFunction, options: GrantOptionsOf<M>): Grant;
}

/** A `SingleTable` of manifest `M` (`typeof manifest`): the same object, its options typed by the manifest's names. */
export type SingleTableOf<M> = Omit<SingleTable, keyof GrantsOf<M> | 'addStreamConsumer'> & GrantsOf<M> & {
  addStreamConsumer(fn: LambdaFunction, options?: StreamConsumerOptionsOf<M>): DynamoEventSource;
};

/** An imported `ISingleTable` of manifest `M` (`SingleTable.fromTableName` and the like), its options typed by the manifest's names. */
export type ISingleTableOf<M> = Omit<ISingleTable, keyof GrantsOf<M>> & GrantsOf<M>;
