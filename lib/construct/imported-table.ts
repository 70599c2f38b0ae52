// A SingleTable of another stack or app, referred to by name or ARN. It needs the same manifest:
// grants are planned from the access patterns, and `connect` hands functions the manifest's
// fingerprint, which the runtime checks against the manifest it was bundled with.
import { Token } from 'aws-cdk-lib';
import { ITableV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { checked, designError } from './design-error';
import { SingleTableBase } from './single-table-base';
import { TABLE_NAME } from './table-options';
import { compileManifest } from '../manifest/compile';
import { DiagnosticSink } from '../manifest/diagnostics';
import { anything, checkShape, opt, Shape } from '../manifest/shape';
import type { SingleTableManifest } from '../model/manifest';
import { IndexType, TableModel } from '../model/model';

/** What identifies an existing SingleTable: its manifest and its name or ARN. */
export interface SingleTableAttributes {
  /** The manifest the table was created with. */
  readonly manifest: SingleTableManifest;

  /**
   * The table's name; the ARN is formed in the importing stack's account and region.
   * @default - taken from `tableArn`; one of the two is required
   */
  readonly tableName?: string;

  /**
   * The table's ARN.
   * @default - formed from `tableName`; one of the two is required
   */
  readonly tableArn?: string;

  /**
   * The customer-managed KMS key the table is encrypted with, so grants include the key actions.
   * @default - the table uses an AWS-managed key
   */
  readonly encryptionKey?: IKey;
}

const WHERE = 'SingleTable import';

/** The attributes, each checked where it is read: any other name is refused. */
const ATTRIBUTES: Shape = { kind: 'struct', fields: Object.fromEntries(['manifest', 'tableName', 'tableArn', 'encryptionKey'].map((f) => [f, opt(anything)])) };

/** An existing table, for grants and `connect`; it creates no resources. */
export class ImportedSingleTable extends SingleTableBase {
  public readonly table: ITableV2;
  public readonly model: TableModel;
  public readonly tableName: string;
  public readonly tableArn: string;

  constructor(scope: Construct, id: string, attrs: SingleTableAttributes) {
    super(scope, id);
    checkReference(this, attrs);
    this.model = checked(this, () => compileManifest(attrs.manifest).model);
    const indexes = Object.values(this.model.indexes);
    this.table = TableV2.fromTableAttributes(this, 'Resource', {
      tableName: attrs.tableName,
      tableArn: attrs.tableArn,
      encryptionKey: attrs.encryptionKey,
      globalIndexes: indexes.filter((i) => i.type === IndexType.GSI).map((i) => i.name),
      localIndexes: indexes.filter((i) => i.type === IndexType.LSI).map((i) => i.name),
    });
    this.tableName = this.table.tableName;
    this.tableArn = this.table.tableArn;
  }
}

/** Exactly one of name and ARN, each well-formed when known at synth. */
function checkReference(scope: Construct, attrs: SingleTableAttributes): void {
  const sink = new DiagnosticSink();
  if (!checkShape(attrs, ATTRIBUTES, { location: WHERE, path: '' }, sink)) throw designError(scope, sink.all);
  const { tableName: name, tableArn: arn } = attrs;
  if ((name === undefined) === (arn === undefined)) {
    sink.error('IMPORT_REFERENCE_INVALID', WHERE, name === undefined ? 'names neither tableName nor tableArn' : 'names both tableName and tableArn', 'give exactly one of tableName and tableArn');
  } else if (name !== undefined && (typeof name !== 'string' || (!Token.isUnresolved(name) && !TABLE_NAME.test(name)))) {
    sink.error('IMPORT_REFERENCE_INVALID', WHERE, `tableName ${JSON.stringify(name)} is not 3-255 characters of a-z, A-Z, 0-9, '_', '-', '.'`, 'give the name of the deployed table');
  } else if (arn !== undefined && (typeof arn !== 'string' || (!Token.isUnresolved(arn) && !/^arn:aws[\w-]*:dynamodb:[a-z0-9-]+:\d{12}:table\/[a-zA-Z0-9_.-]{3,255}$/.test(arn)))) {
    sink.error('IMPORT_REFERENCE_INVALID', WHERE, `tableArn ${JSON.stringify(arn)} is not a DynamoDB table ARN`, 'give the ARN as arn:aws:dynamodb:<region>:<account>:table/<name>');
  }
  if (sink.hasErrors) throw designError(scope, sink.all);
}
