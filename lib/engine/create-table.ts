// CreateTable input from a synthesized CloudFormation template, so a local engine (dynalite in
// the tests, `single-table local`) gets exactly the table the stack deploys: keys, attribute
// definitions, GSIs and LSIs with their projections, billing. Plain data in, plain data out;
// no CDK import, so it also runs on a template read from cdk.out. Without an app, the table a
// SingleTable builds from a compiled model, on demand and without its TableV2 settings.
import type {
  CreateTableCommandInput,
  GlobalSecondaryIndex,
  KeySchemaElement,
  LocalSecondaryIndex,
  Projection,
  ProvisionedThroughput,
} from '@aws-sdk/client-dynamodb';
import { AttributeKind, ProjectionKind } from '../model/manifest';
import { hashKeyAttributes, IndexModel, IndexType, KeyAttributeModel, TABLE_INDEX, TableModel } from '../model/model';

/**
 * CreateTable input for the table a SingleTable builds from `model`: the same key schema, attribute
 * definitions, GSIs and LSIs with their projections (test/engine/create-table.test.ts holds it to
 * the construct's template), billed on demand, without a stream.
 */
export function createTableInputFromModel(model: TableModel, tableName: string): CreateTableCommandInput {
  const definitions = new Map<string, 'S' | 'N'>();
  const key = (name: string, type: 'S' | 'N', keyType: 'HASH' | 'RANGE'): KeySchemaElement => {
    definitions.set(name, type);
    return { AttributeName: name, KeyType: keyType };
  };
  // A DATE is stored as an ISO-8601 string, so it keys as one.
  const typeOf = (a: KeyAttributeModel) => (a.kind === AttributeKind.NUMBER ? 'N' : 'S');
  const indexProjection = (index: IndexModel): Projection => (index.projection === ProjectionKind.INCLUDE
    ? { ProjectionType: index.projection, NonKeyAttributes: [...index.nonKeyAttributes] }
    : { ProjectionType: index.projection });
  const table = model.indexes[TABLE_INDEX];
  const input: CreateTableCommandInput = {
    TableName: tableName,
    KeySchema: [key(table.partitionKey, 'S', 'HASH'), key(table.sortKey!, 'S', 'RANGE')],
    AttributeDefinitions: [],
    BillingMode: 'PAY_PER_REQUEST',
  };
  const indexes = Object.values(model.indexes);
  const globals = indexes.filter((i) => i.type === IndexType.GSI).map((index): GlobalSecondaryIndex => ({
    IndexName: index.name,
    KeySchema: index.partitionAttributes
      ? [...hashKeyAttributes(index).map((a) => key(a.name, typeOf(a), 'HASH')), ...(index.sortAttributes ?? []).map((a) => key(a.name, typeOf(a), 'RANGE'))]
      : [key(index.partitionKey, 'S', 'HASH'), ...(index.sortKey === undefined ? [] : [key(index.sortKey, 'S', 'RANGE')])],
    Projection: indexProjection(index),
  }));
  const locals = indexes.filter((i) => i.type === IndexType.LSI).map((index): LocalSecondaryIndex => ({
    IndexName: index.name,
    KeySchema: [key(table.partitionKey, 'S', 'HASH'), key(index.sortKey!, 'S', 'RANGE')],
    Projection: indexProjection(index),
  }));
  if (globals.length) input.GlobalSecondaryIndexes = globals;
  if (locals.length) input.LocalSecondaryIndexes = locals;
  input.AttributeDefinitions = [...definitions].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType }));
  return input;
}

/** The table resource types this maps: TableV2 synthesizes GlobalTable, Table synthesizes Table. */
export const TABLE_RESOURCE_TYPES = ['AWS::DynamoDB::GlobalTable', 'AWS::DynamoDB::Table'];

type Props = Record<string, any>;

export interface TemplateJson {
  readonly Resources?: Record<string, { readonly Type: string; readonly Properties?: Props }>;
}

/**
 * CreateTable input for the table in a synthesized template. With several tables, name the one
 * you want by logical id (or its prefix).
 */
export function createTableInputFromTemplate(template: TemplateJson, tableName: string, logicalId?: string): CreateTableCommandInput {
  const tables = Object.entries(template.Resources ?? {})
    .filter(([id, r]) => TABLE_RESOURCE_TYPES.includes(r.Type) && (!logicalId || id.startsWith(logicalId)));
  if (tables.length !== 1) {
    const found = tables.map(([id]) => id).join(', ') || 'none';
    throw new Error(`expected exactly one DynamoDB table resource${logicalId ? ` with logical id '${logicalId}'` : ''} in the template, found ${found}; pass the logical id`);
  }
  const [, resource] = tables[0];
  return createTableInput(resource.Type, resource.Properties ?? {}, tableName);
}

/** CreateTable input from one table resource's Properties. */
export function createTableInput(resourceType: string, props: Props, tableName: string): CreateTableCommandInput {
  if (!TABLE_RESOURCE_TYPES.includes(resourceType)) throw new Error(`${resourceType} is not a DynamoDB table resource (${TABLE_RESOURCE_TYPES.join(', ')})`);
  const global = resourceType === 'AWS::DynamoDB::GlobalTable';
  const provisioned = (props.BillingMode ?? (global ? 'PAY_PER_REQUEST' : 'PROVISIONED')) === 'PROVISIONED';
  // GlobalTable keeps read capacity per replica and write capacity (autoscaled or fixed) on the table.
  const replica: Props = global ? (props.Replicas?.[0] ?? {}) : {};
  const throughput = (readProps: Props | undefined, writeProps: Props | undefined, legacy: Props | undefined): ProvisionedThroughput | undefined => {
    if (!provisioned) return undefined;
    if (!global) return { ReadCapacityUnits: number(legacy?.ReadCapacityUnits), WriteCapacityUnits: number(legacy?.WriteCapacityUnits) };
    return { ReadCapacityUnits: capacity(readProps, 'Read'), WriteCapacityUnits: capacity(writeProps, 'Write') };
  };

  const input: CreateTableCommandInput = {
    TableName: tableName,
    KeySchema: keySchema(props.KeySchema),
    AttributeDefinitions: (props.AttributeDefinitions ?? [])
      .map((a: Props) => ({ AttributeName: a.AttributeName, AttributeType: a.AttributeType })),
    BillingMode: provisioned ? 'PROVISIONED' : 'PAY_PER_REQUEST',
  };
  const tableThroughput = throughput(
    replica.ReadProvisionedThroughputSettings, props.WriteProvisionedThroughputSettings, props.ProvisionedThroughput);
  if (tableThroughput) input.ProvisionedThroughput = tableThroughput;

  if (props.GlobalSecondaryIndexes?.length) {
    input.GlobalSecondaryIndexes = props.GlobalSecondaryIndexes.map((g: Props): GlobalSecondaryIndex => {
      const replicaIndex = (replica.GlobalSecondaryIndexes ?? []).find((r: Props) => r.IndexName === g.IndexName);
      const index: GlobalSecondaryIndex = { IndexName: g.IndexName, KeySchema: keySchema(g.KeySchema), Projection: projection(g.Projection) };
      const read = replicaIndex?.ReadProvisionedThroughputSettings ?? replica.ReadProvisionedThroughputSettings;
      const t = throughput(read, g.WriteProvisionedThroughputSettings, g.ProvisionedThroughput);
      if (t) index.ProvisionedThroughput = t;
      return index;
    });
  }
  // TableV2 and Table both write the view type here; a local engine then keeps the same stream.
  if (props.StreamSpecification?.StreamViewType) {
    input.StreamSpecification = { StreamEnabled: true, StreamViewType: props.StreamSpecification.StreamViewType };
  }
  if (props.LocalSecondaryIndexes?.length) {
    input.LocalSecondaryIndexes = props.LocalSecondaryIndexes.map((l: Props): LocalSecondaryIndex => ({
      IndexName: l.IndexName,
      KeySchema: keySchema(l.KeySchema),
      Projection: projection(l.Projection),
    }));
  }
  return input;
}

function keySchema(schema: Props[] | undefined): KeySchemaElement[] {
  return (schema ?? []).map((k) => ({ AttributeName: k.AttributeName, KeyType: k.KeyType }));
}

function projection(p: Props | undefined): Projection {
  const out: Projection = { ProjectionType: p?.ProjectionType ?? 'ALL' };
  if (p?.NonKeyAttributes?.length) out.NonKeyAttributes = [...p.NonKeyAttributes];
  return out;
}

/** Fixed capacity, or the autoscaling minimum (what the table starts with). */
function capacity(settings: Props | undefined, kind: 'Read' | 'Write'): number {
  const fixed = settings?.[`${kind}CapacityUnits`];
  if (fixed !== undefined) return number(fixed);
  const auto = settings?.[`${kind}CapacityAutoScalingSettings`];
  if (auto?.MinCapacity !== undefined) return number(auto.MinCapacity);
  throw new Error(`provisioned table without ${kind.toLowerCase()} capacity in the template`);
}

function number(value: unknown): number {
  if (typeof value !== 'number') throw new Error(`expected a number in the template, got ${JSON.stringify(value)} (resolve tokens before mapping)`);
  return value;
}
