// The example stack: one SingleTable built from the example manifest. The Lambda handler that runs
// the access patterns is added next to the table, reading the same manifest.
import { CfnOutput, Stack, StackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { manifest } from './manifest';
import { SingleTable } from '../lib';

export class ExampleStack extends Stack {
  /** The single table. */
  public readonly table: SingleTable;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    this.table = new SingleTable(this, 'Table', { manifest });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
  }
}
