// The CDK app that `cdk.json` synthesizes: `npx cdk synth` (offline, no AWS account needed),
// checked by cdk-nag.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ExampleStack } from './stack';

const app = new App();
new ExampleStack(app, 'SingleTableExample');
// cdk-nag's AwsSolutions pack as a validation plugin: any unacknowledged finding fails the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();
