// The example stack: one SingleTable built from the example manifest. The Lambda handler that runs
// the access patterns is added next to the table, reading the same manifest.
import * as path from 'path';
import { CfnOutput, Stack, StackProps, Validations } from 'aws-cdk-lib';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { manifest } from './manifest';
import { SingleTable, WriteOperation } from '../lib';

export class ExampleStack extends Stack {
  /** The single table. */
  public readonly table: SingleTable;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    // The shard counts GSI2 was deployed with, committed: lowering its count without keeping the
    // old one in previousShardCounts fails the synth instead of hiding items on the old shards.
    this.table = new SingleTable(this, 'Table', {
      manifest,
      shardLock: path.join(__dirname, 'single-table.lock.json'),
      shardLockName: 'example',
    });

    // Bundled locally with esbuild (a dev dependency: `cdk synth` needs no Docker); the Lambda
    // runtime provides @aws-sdk/*, so the bundle holds only the handler, manifest and runtime.
    const handler = new NodejsFunction(this, 'Handler', {
      entry: path.join(__dirname, 'handler.ts'),
      // The latest Node.js runtime CDK knows (cdk-nag AwsSolutions-L1).
      runtime: Runtime.NODEJS_24_X,
      bundling: { minify: true, externalModules: ['@aws-sdk/*'] },
    });
    // Table name and manifest fingerprint in the environment; IAM for exactly what the handler does.
    this.table.connect(handler, { patterns: Object.keys(manifest.accessPatterns!), writes: [WriteOperation.PUT] });
    Validations.of(handler.role!).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: 'The AWS-managed basic execution role only lets the function write its own logs; its table access is the per-pattern grant of connect',
    });
    // Throttle alarms per GSI and per cause, system errors, the item collection alarm (the table
    // has LSIs) and a dashboard.
    this.table.monitor();
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
  }
}
