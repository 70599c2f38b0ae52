// What a SingleTable offers whether it is defined in this stack or imported from another
// (ISingleTable, ./i-single-table.ts), implemented once: the compiled model, the physical names,
// grants and the environment of connected functions. All of it derives from the manifest and the
// table's name or ARN, so an imported table grants and connects exactly as the table it refers to.
import { Annotations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Grant, IGrantable } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction, ILayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { checked, designError } from './design-error';
import { grantNeeds } from './grants/grant';
import type { SingleTableGrantOptions } from './grants/options';
import { accessNeeds } from './grants/plan';
import type { IndexKeyNames, ISingleTable } from './i-single-table';
import { createModelLayer, deliverModel, deployedModelPath, isPython } from './model-layer';
import { DiagnosticLevel } from '../manifest/diagnostics';
import { own } from '../manifest/values';
import { didYouMean } from '../model/closest-name';
import { FINGERPRINT_ENV, MODEL_PATH_ENV, TABLE_NAME_ENV } from '../model/environment';
import { hashKeyAttributes, IndexType, TABLE_INDEX, TableModel } from '../model/model';

/** The members of `ISingleTable` that follow from the model and the table. */
export abstract class SingleTableBase extends Construct implements ISingleTable {
  public abstract readonly table: ITableV2;
  public abstract readonly model: TableModel;
  public abstract readonly tableName: string;
  public abstract readonly tableArn: string;
  private modelOnlyLayer?: ILayerVersion;
  private pythonLayer?: ILayerVersion;

  /** The table's partition key attribute. */
  public get partitionKeyName(): string {
    return this.model.indexes[TABLE_INDEX].partitionKey;
  }

  /** The table's sort key attribute. */
  public get sortKeyName(): string {
    return this.model.indexes[TABLE_INDEX].sortKey!;
  }

  /** The attribute holding every item's entity type. */
  public get typeAttributeName(): string {
    return this.model.typeAttribute;
  }

  /** The GSI names, in manifest order. */
  public get globalIndexNames(): string[] {
    return this.indexNames(IndexType.GSI);
  }

  /** The LSI names (empty when local indexes are turned off). */
  public get localIndexNames(): string[] {
    return this.indexNames(IndexType.LSI);
  }

  /**
   * The physical key attribute names of an index: a GSI name or an LSI slot (`LSI1`..`LSI5`).
   * For an LSI the partition key is the table's.
   */
  public indexKeys(indexName: string): IndexKeyNames {
    const index = own(this.model.indexes, indexName);
    if (!index || index.type === IndexType.TABLE) {
      const known = [...this.globalIndexNames, ...this.localIndexNames];
      throw designError(this, [{
        level: DiagnosticLevel.ERROR,
        code: 'INDEX_UNKNOWN',
        location: 'indexKeys',
        message: `no index '${indexName}'`,
        fix: known.length ? `${didYouMean(indexName, known)}use one of ${known.join(', ')}` : 'the table has no secondary indexes',
      }]);
    }
    return {
      partitionKey: index.partitionKey,
      sortKey: index.sortKey,
      partitionKeys: index.partitionAttributes ? hashKeyAttributes(index).map((a) => a.name) : [index.partitionKey],
      sortKeys: index.sortAttributes ? index.sortAttributes.map((a) => a.name) : index.sortKey === undefined ? [] : [index.sortKey],
    };
  }

  /**
   * Grants exactly what the options name: Query on the indexes of the access patterns, on the
   * partitions their key templates compose (and BatchGetItem on the table, on their entities'
   * partitions, for those whose index lacks attributes they need), item reads and each kind of
   * write on the table, optionally only on one tenant's partition keys. With a customer-managed
   * key, the key actions those need. Throws on unknown pattern names; warns of a pattern whose
   * partition key template holds no literal segment, whose Query is allowed on every partition.
   */
  public grantAccess(grantee: IGrantable, options: SingleTableGrantOptions): Grant {
    const needs = checked(this, () => accessNeeds(this.model, options, (message) => Annotations.of(this).addWarningV2('cdk-single-table:GRANT_NOT_NARROWED', message)));
    return grantNeeds({ scope: this, tableArn: this.tableArn, encryptionKey: this.table.encryptionKey }, grantee, needs);
  }

  /** Grants the queries of these access patterns only; see `grantAccess`. */
  public grantPatterns(grantee: IGrantable, ...patterns: string[]): Grant {
    return this.grantAccess(grantee, { patterns });
  }

  /**
   * The Lambda layer a function of this runtime gets, holding the compiled model (the JSON file
   * `single-table generate` writes) at `/opt/cdk-single-table/model-<fingerprint>.json`, the path
   * `functionEnvironment` names in `SINGLE_TABLE_MODEL`. For a Python runtime it also holds the
   * Python runtime package at `/opt/python/single_table_runtime` (Lambda imports from
   * `/opt/python`); for every other runtime it holds no code and suits every architecture.
   * Created on first use, one per table and kind; `connect` adds it to the functions it connects.
   * @param runtime the function's runtime
   * @default - the layer of the model file alone
   */
  public modelLayer(runtime?: Runtime): ILayerVersion {
    if (isPython(runtime)) {
      this.pythonLayer ??= createModelLayer(this, 'PythonModelLayer', this.model, true);
      return this.pythonLayer;
    }
    this.modelOnlyLayer ??= createModelLayer(this, 'ModelLayer', this.model, false);
    return this.modelOnlyLayer;
  }

  /**
   * The environment a function using the runtime needs: the table name (`TABLE_NAME`), the
   * manifest's fingerprint (`SINGLE_TABLE_FINGERPRINT`), which the runtime compares with a model
   * a function carries itself, and the model file's path in the model layer (`SINGLE_TABLE_MODEL`).
   */
  public functionEnvironment(): { [name: string]: string } {
    return {
      [TABLE_NAME_ENV]: this.tableName,
      [FINGERPRINT_ENV]: this.model.fingerprint,
      [MODEL_PATH_ENV]: deployedModelPath(this.model),
    };
  }

  /**
   * Adds the model layer for the function's runtime (`modelLayer`) to the function, sets its environment
   * (`functionEnvironment`) and grants it what the options name.
   */
  public connect(fn: LambdaFunction, options: SingleTableGrantOptions): Grant {
    const grant = this.grantAccess(fn, options);
    deliverModel(this, fn);
    return grant;
  }

  private indexNames(type: IndexType): string[] {
    return Object.values(this.model.indexes).filter((i) => i.type === type).map((i) => i.name);
  }
}
