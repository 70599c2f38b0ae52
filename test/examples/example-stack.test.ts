// The example stack's CloudFormation, pinned by a snapshot: a change to what the construct renders
// for the example manifest shows up here for review. Update with `npx jest -u test/examples`.
// The handler bundle's asset hash is left out: it changes with every runtime edit, which is not a
// change of what the stack declares (the bundle itself is tested with the runtime).
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { ExampleStack } from '../../examples/stack';

const stack = new ExampleStack(new App(), 'SingleTableExample');

const ASSET_ZIP = /^[0-9a-f]{64}\.zip$/;

test('the example stack matches its snapshot', () => {
  const template = JSON.stringify(Template.fromStack(stack).toJSON(), (key, value) =>
    (key === 'S3Key' && ASSET_ZIP.test(value) ? '<asset hash>.zip' : value));
  expect(template).toContain('"S3Key":"<asset hash>.zip"');
  expect(JSON.parse(template)).toMatchSnapshot();
});

test('the example manifest compiles without warnings', () => {
  Annotations.fromStack(stack).hasNoWarning('*', Match.anyValue());
});
