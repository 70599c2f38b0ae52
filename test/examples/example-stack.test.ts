// The example stack's CloudFormation, pinned by a snapshot: a change to what the construct renders
// for the example manifest shows up here for review. Update with `npx jest -u test/examples`.
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { ExampleStack } from '../../examples/stack';

const stack = new ExampleStack(new App(), 'SingleTableExample');

test('the example stack matches its snapshot', () => {
  expect(Template.fromStack(stack).toJSON()).toMatchSnapshot();
});

test('the example manifest compiles without warnings', () => {
  Annotations.fromStack(stack).hasNoWarning('*', Match.anyValue());
});
