// The example app's table written by hand with plain `TableV2`: what `SingleTable` builds from the
// example manifest (examples/manifest.ts), without the manifest. The synth benchmark times both
// and checks that they synthesize the same table, so the ratio is the manifest's own cost.
import { CfnOutput, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AttributeType, ProjectionType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

const key = (name: string) => ({ name, type: AttributeType.STRING });

export class PlainTableStack extends Stack {
  public readonly table: TableV2;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new TableV2(this, 'Table', {
      partitionKey: key('PK'),
      sortKey: key('SK'),
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryptionV2.awsManagedKey(),
      globalSecondaryIndexes: [
        { indexName: 'GSI1', partitionKey: key('GSI1PK'), sortKey: key('GSI1SK') },
        {
          indexName: 'GSI2',
          partitionKey: key('GSI2PK'),
          sortKey: key('GSI2SK'),
          projectionType: ProjectionType.INCLUDE,
          nonKeyAttributes: ['orderId', 'username', 'status', 'createdAt', 'amount', 'Type'],
        },
        { indexName: 'GSI3', partitionKey: key('GSI3PK'), sortKey: key('GSI3SK'), projectionType: ProjectionType.KEYS_ONLY },
      ],
      // Five LSI slots, odd ones projecting everything, even ones keys only (docs/manifest.md, Local secondary indexes).
      localSecondaryIndexes: [1, 2, 3, 4, 5].map((n) => ({
        indexName: `LSI${n}`,
        sortKey: key(`LSI${n}SK`),
        projectionType: n % 2 ? ProjectionType.ALL : ProjectionType.KEYS_ONLY,
      })),
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
  }
}
