// The example Lambda as Lambda runs it: the handler bundled exactly as NodejsFunction bundles it,
// with the runtime as the published package delivers it (its ES module build), loaded from that code with the environment the example stack gives the function (table name and
// manifest fingerprint, read from the synthesized template), against the embedded engine.
import Module from 'module';
import * as path from 'path';
import { bundle, ROOT } from '../support/bundle';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

type Handler = (event: unknown) => Promise<any>;

let engine: Engine;
let handler: Handler;
let lambdaEnv: Record<string, string>;

/**
 * Compiles code as a module of the repository in Node's own module system (outside jest's
 * sandbox), as Lambda loads a handler: its `process.env` is the real one, and its
 * require('@aws-sdk/...') finds node_modules.
 */
function load(code: string): Record<string, any> {
  const file = path.join(ROOT, 'examples', 'handler.bundle.js');
  const m = new Module(file);
  m.filename = file;
  m.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  (m as unknown as { _compile(code: string, file: string): void })._compile(code, file);
  return m.exports;
}

/** The function's environment in the synthesized example stack. */
function functionEnvironment(): Record<string, unknown> {
  const resources = Object.values((synthesizedTemplate() as { Resources: Record<string, any> }).Resources);
  const fn = resources.find((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.TABLE_NAME);
  return fn.Properties.Environment.Variables;
}

beforeAll(async () => {
  engine = await startEngine();
  const env = functionEnvironment();
  lambdaEnv = {
    TABLE_NAME: await engine.createTable(),
    SINGLE_TABLE_FINGERPRINT: env.SINGLE_TABLE_FINGERPRINT as string,
    // The model layer's file, as the example app's stack ships it (the same compiled model file).
    SINGLE_TABLE_MODEL: path.join(ROOT, 'examples', 'manifest.model.json'),
    AWS_ENDPOINT_URL_DYNAMODB: engine.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
  const { code } = await bundle('examples/handler.ts', { asPackage: true });
  // Lambda sets the environment before it loads the handler.
  handler = load(`Object.assign(process.env, ${JSON.stringify(lambdaEnv)});\n${code}`).handler;
});
afterAll(async () => {
  load(`for (const k of ${JSON.stringify(Object.keys(lambdaEnv))}) delete process.env[k];`);
  await engine.stop();
});

test('the handler loads the model the stack ships with it, and refuses to start without one', async () => {
  expect(typeof handler).toBe('function');
  expect(String(functionEnvironment().SINGLE_TABLE_MODEL)).toMatch(/^\/opt\/cdk-single-table\/model-[0-9a-f]+\.json$/);
  const { code } = await bundle('examples/handler.ts', { asPackage: true });
  const without = { ...lambdaEnv, SINGLE_TABLE_MODEL: '' };
  expect(() => load(`Object.assign(process.env, ${JSON.stringify(without)});\n${code}`)).toThrow(/MODEL_MISSING/);
  load(`Object.assign(process.env, ${JSON.stringify(lambdaEnv)});`);
});

test('puts and serves access patterns, with cursors across invocations', async () => {
  for (let i = 0; i < 5; i++) {
    const item = { username: 'dana', orderId: `o${i}`, status: 'OPEN', createdAt: `2024-06-0${i + 1}T00:00:00Z`, amount: i * 10 };
    expect(await handler({ put: { entity: 'Order', item } })).toEqual({ ok: true });
  }
  const first = await handler({ pattern: 'ordersForCustomerByAmount', input: { username: 'dana', amount: 10 }, limit: 2 });
  expect(first.items.map((r: any) => r.item.amount)).toEqual([40, 30]);
  const second = await handler({ pattern: 'ordersForCustomerByAmount', input: { username: 'dana', amount: 10 }, limit: 2, cursor: first.cursor });
  expect(second.items.map((r: any) => r.item.amount)).toEqual([20, 10]);
  const byStatus = await handler({ pattern: 'ordersByStatus', input: { status: 'OPEN', between: [{ createdAt: '2024-06-02' }, {}] } });
  expect(byStatus.items.map((r: any) => r.item.orderId)).toEqual(['o4', 'o3', 'o2', 'o1']);
});

test('bad events fail with the runtime\'s coded errors', async () => {
  await expect(handler({ put: { entity: 'Order', item: { username: 'dana' } } })).rejects.toMatchObject({ code: 'MISSING_ATTRIBUTE' });
  await expect(handler({ pattern: 'nope', input: {} })).rejects.toMatchObject({ code: 'UNKNOWN_PATTERN' });
});
