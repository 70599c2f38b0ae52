// The CDK app that `cdk.json` synthesizes: `npx cdk synth` (offline, no AWS account needed).
import { App } from 'aws-cdk-lib';
import { ExampleStack } from './stack';

const app = new App();
new ExampleStack(app, 'SingleTableExample');
app.synth();
