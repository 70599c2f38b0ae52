// What every SingleTable offers, defined in this stack or imported from another: the interface
// the table's users (connect, grants, the model layer, backfills) depend on, below the class that
// implements it (./single-table-base.ts).
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Grant, IGrantable } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction, ILayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import type { SingleTableGrantOptions } from './grants/options';
import type { TableModel } from '../model/model';

/** The physical key attribute names of one index. */
export interface IndexKeyNames {
  /** The partition key attribute (of a multi-attribute key, the first). */
  readonly partitionKey: string;
  /**
   * The sort key attribute (of a multi-attribute key, the first).
   * @default - the index has no sort key
   */
  readonly sortKey?: string;
  /** Every partition key attribute, in key order: one, or 1-4 for a GSI keyed on the items' own attributes. */
  readonly partitionKeys: string[];
  /** Every sort key attribute, in key order: none or one, or 0-4 for a GSI keyed on the items' own attributes. */
  readonly sortKeys: string[];
}

/** A single-table design table: defined with `new SingleTable` or imported with `SingleTable.fromTableName`. */
export interface ISingleTable extends IConstruct {
  /** The table. */
  readonly table: ITableV2;
  /** The compiled manifest: physical names, templates, indexes and access patterns. */
  readonly model: TableModel;
  /** The table's name. */
  readonly tableName: string;
  /** The table's ARN. */
  readonly tableArn: string;
  /** The table's partition key attribute. */
  readonly partitionKeyName: string;
  /** The table's sort key attribute. */
  readonly sortKeyName: string;
  /** The attribute holding every item's entity type. */
  readonly typeAttributeName: string;
  /** The GSI names, in manifest order. */
  readonly globalIndexNames: string[];
  /** The LSI names (empty when local indexes are turned off). */
  readonly localIndexNames: string[];

  /** The physical key attribute names of an index: a GSI name or an LSI slot (`LSI1`..`LSI5`). */
  indexKeys(indexName: string): IndexKeyNames;
  /** Grants exactly what the options name; see `SingleTable.grantAccess`. */
  grantAccess(grantee: IGrantable, options: SingleTableGrantOptions): Grant;
  /** Grants the queries of these access patterns only. */
  grantPatterns(grantee: IGrantable, ...patterns: string[]): Grant;
  /**
   * The Lambda layer a function of this runtime gets: the compiled model as a JSON file, at the path
   * `functionEnvironment` names in `SINGLE_TABLE_MODEL`, and for Python runtimes the Python runtime
   * package as well. Created on first use, one per table and kind.
   * @param runtime the function's runtime
   * @default - the layer of the model file alone
   */
  modelLayer(runtime?: Runtime): ILayerVersion;
  /** The environment a function using the runtime needs: the table name, the manifest's fingerprint and the model file's path. */
  functionEnvironment(): { [name: string]: string };
  /** Adds the model layer, sets the function's environment (`functionEnvironment`) and grants it what the options name. */
  connect(fn: LambdaFunction, options: SingleTableGrantOptions): Grant;
}
