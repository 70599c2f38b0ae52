// CreateTable input from a synthesized CloudFormation template, so a local engine (dynalite in
// the tests, `single-table local`) gets exactly the table the stack deploys: keys, attribute
// definitions, GSIs and LSIs with their projections, billing. Plain data in, plain data out;
// no CDK import, so it also runs on a template read from cdk.out.
import type {
  CreateTableCommandInput,
  GlobalSecondaryIndex,
  KeySchemaElement,
  LocalSecondaryIndex,
  Projection,
  ProvisionedThroughput,
} from '@aws-sdk/client-dynamodb';

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
