// The example handler bundled as NodejsFunction bundles it: no CDK code may reach a Lambda, the
// SDK stays external, and the size stays within budget.
import { bundle, BundleResult } from '../support/bundle';

// Issue 3's target is 12 KB minified. Not met: without the validation rules (the runtime only
// resolves the manifest) the bundle is about 49 KB, the runtime itself about 30 KB of it; see
// README "Runtime" for the measured breakdown. The budget sits just above that, so a regression
// (the rules creeping back in, a heavy import) fails here.
const TARGET_BYTES = 12 * 1024;
const BUDGET_BYTES = 50 * 1024;

let result: BundleResult;
beforeAll(async () => {
  result = await bundle('examples/handler.ts');
});

test('no aws-cdk-lib or constructs in the bundle, by its inputs', () => {
  const inputs = Object.keys(result.inputs);
  expect(inputs.some((i) => i.includes('lib/runtime/client.ts'))).toBe(true);
  expect(inputs.filter((i) => /node_modules\/(aws-cdk-lib|constructs)\//.test(i) || i.startsWith('lib/construct/'))).toEqual([]);
  expect(result.code).not.toMatch(/aws-cdk-lib|require\("constructs"\)/);
});

test('the SDK is left to the Lambda runtime: required, never bundled', () => {
  expect(Object.keys(result.inputs).filter((i) => i.includes('node_modules/'))).toEqual([]);
  expect(result.code).toContain('require("@aws-sdk/client-dynamodb")');
});

test(`minified size within the regression budget (target ${TARGET_BYTES} bytes)`, () => {
  expect(result.bytes).toBeLessThanOrEqual(BUDGET_BYTES);
});

test('no validation rule in the bundle: the Lambda resolves the manifest the stack validated', () => {
  expect(Object.keys(result.inputs).filter((i) => i.startsWith('lib/manifest/rules/') || (i === 'lib/manifest/compile.ts' && result.inputs[i] > 0))).toEqual([]);
});
