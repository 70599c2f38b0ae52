// The compiled model reaches every connected function as a layer: one layer per table and kind,
// added once to each function, holding exactly the model file `single-table generate` writes, at
// the path SINGLE_TABLE_MODEL names, and for Python functions the Python runtime package where
// Lambda's Python imports from; stable across synths, kept apart between tables.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { StreamViewType } from 'aws-cdk-lib/aws-dynamodb';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { WriteOperation } from '../../lib/construct/grants/options';
import { SingleTable } from '../../lib/construct/single-table';
import { assemblyFunctions } from '../../lib/engine/lambda-functions';
import { modelJson } from '../../lib/model/document';
import { AttributeKind } from '../../lib/model/manifest';
import { edited, validManifest } from '../fixtures/valid-manifest';

/** The fixture manifest with one more attribute: another fingerprint, another model file. */
const withNote = () => edited((m) => { m.entities!.Order.attributes!.note = { type: AttributeKind.STRING }; });

const outdirs: string[] = [];
afterAll(() => outdirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** An app that writes its assembly to a fresh folder. */
function newApp(): App {
  const outdir = mkdtempSync(join(tmpdir(), 'model-layer-'));
  outdirs.push(outdir);
  return new App({ outdir });
}

/** A function with staged code (a folder asset), so the assembly reader finds it. */
function newFunction(stack: Stack, id: string, runtime = Runtime.NODEJS_22_X): LambdaFunction {
  return new LambdaFunction(stack, id, { runtime, handler: 'index.handler', code: Code.fromAsset(join(__dirname, '..', 'fixtures', 'handlers')) });
}

/** The files of each layer of a synthesized function, by the path Lambda unpacks them to. */
function layerFiles(app: App, path: string): Record<string, string>[] {
  const assembly = app.synth().directory;
  const fn = assemblyFunctions(assembly).functions.find((f) => f.path === path)!;
  return fn.layerDirs.map((dir) => Object.fromEntries(readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => [`/opt/${relative(dir, join(e.parentPath, e.name))}`, readFileSync(join(e.parentPath, e.name), 'utf8')])));
}

test('connect adds one layer per table and kind to each function it connects, and sets SINGLE_TABLE_MODEL beside TABLE_NAME and the fingerprint', () => {
  const stack = new Stack(newApp(), 'Shop');
  const table = new SingleTable(stack, 'Table', { manifest: validManifest() });
  const [a, b, c, d] = [newFunction(stack, 'A'), newFunction(stack, 'B', Runtime.PYTHON_3_13), newFunction(stack, 'C', Runtime.JAVA_21),
    newFunction(stack, 'D', Runtime.PYTHON_3_12)];
  table.connect(a, { patterns: ['ordersByStatus'] });
  table.connect(a, { writes: [WriteOperation.PUT] }); // a second connect adds no second layer
  table.connect(b, { patterns: ['orderById'] });
  table.connect(b, { writes: [WriteOperation.PUT] });
  table.connect(c, { patterns: ['orderById'] });
  table.connect(d, { patterns: ['orderById'] });
  const template = Template.fromStack(stack);
  const layers = template.findResources('AWS::Lambda::LayerVersion');
  expect(Object.keys(layers)).toHaveLength(2);
  const functions = template.findResources('AWS::Lambda::Function');
  const [modelLayer, pythonLayer] = ['ModelLayer', 'PythonModelLayer'].map((id) => Object.keys(layers).find((l) => l.startsWith(`Table${id}`))!);
  // Node.js and every other runtime share the model file's layer; the Python functions share theirs.
  expect(Object.fromEntries(Object.entries(functions).map(([id, fn]) => [id.replace(/[0-9A-F]{8}$/, ''), fn.Properties.Layers]))).toEqual({
    A: [{ Ref: modelLayer }], B: [{ Ref: pythonLayer }], C: [{ Ref: modelLayer }], D: [{ Ref: pythonLayer }],
  });
  // No runtime or architecture restriction: any Lambda language reads the file, any Python the package.
  for (const layer of Object.values(layers)) {
    expect(layer.Properties.CompatibleRuntimes).toBeUndefined();
    expect(layer.Properties.CompatibleArchitectures).toBeUndefined();
  }
  expect(table.modelLayer()).toBe(table.modelLayer(Runtime.NODEJS_22_X));
  expect(table.modelLayer(Runtime.PYTHON_3_11)).not.toBe(table.modelLayer());
  const path = `/opt/cdk-single-table/model-${table.model.fingerprint}.json`;
  for (const fn of Object.values(functions)) {
    expect(fn.Properties.Environment.Variables).toEqual({
      TABLE_NAME: { Ref: expect.stringMatching(/^Table/) },
      SINGLE_TABLE_FINGERPRINT: table.model.fingerprint,
      SINGLE_TABLE_MODEL: path,
    });
  }
  expect(table.functionEnvironment()[SingleTable.MODEL_PATH_ENV]).toBe(path);
});

test('the layer holds exactly the model file `single-table generate` writes, whose fingerprint is the table\'s', () => {
  const app = newApp();
  const stack = new Stack(app, 'Shop');
  const table = new SingleTable(stack, 'Table', { manifest: validManifest() });
  table.connect(newFunction(stack, 'Fn'), { patterns: ['ordersByStatus'] });
  const path = table.functionEnvironment().SINGLE_TABLE_MODEL;
  // One file, nothing else: no code in the layer.
  expect(layerFiles(app, 'Shop/Fn')).toEqual([{ [path]: modelJson(table.model) }]);
  expect(JSON.parse(modelJson(table.model)).model.fingerprint).toBe(table.model.fingerprint);
});

test('a Python function\'s layer holds the model file and the Python runtime package\'s modules and py.typed, where Lambda\'s Python imports from; a Node.js function\'s has no Python', () => {
  const app = newApp();
  const stack = new Stack(app, 'Shop');
  const table = new SingleTable(stack, 'Table', { manifest: validManifest() });
  table.connect(newFunction(stack, 'Py', Runtime.PYTHON_3_12), { patterns: ['ordersByStatus'] });
  table.connect(newFunction(stack, 'Node'), { patterns: ['ordersByStatus'] });
  const path = table.functionEnvironment().SINGLE_TABLE_MODEL;
  const sources = join(__dirname, '..', '..', 'python', 'single_table_runtime');
  const modules = readdirSync(sources).filter((f) => f.endsWith('.py') || f === 'py.typed').sort();
  expect(modules).toEqual(expect.arrayContaining(['__init__.py', 'testing.py', '_table.py', '_keys.py', 'py.typed']));
  const [python] = layerFiles(app, 'Shop/Py');
  expect(python).toEqual({
    [path]: modelJson(table.model),
    ...Object.fromEntries(modules.map((m) => [`/opt/python/single_table_runtime/${m}`, readFileSync(join(sources, m), 'utf8')])),
  });
  expect(layerFiles(app, 'Shop/Node')).toEqual([{ [path]: modelJson(table.model) }]);
});

test('the layer\'s asset is content-hashed: two synths of one manifest stage the same asset, another manifest another', () => {
  const layerKey = (manifest = validManifest()) => {
    const stack = new Stack(new App(), 'Shop');
    new SingleTable(stack, 'Table', { manifest }).connect(newFunction(stack, 'Fn'), { patterns: ['ordersByStatus'] });
    const [layer] = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::LayerVersion'));
    return layer.Properties.Content.S3Key;
  };
  expect(layerKey()).toBe(layerKey());
  expect(layerKey(withNote())).not.toBe(layerKey());
});

test('two tables of different manifests connected to one function: two layers whose files do not overwrite each other in /opt', () => {
  const app = newApp();
  const stack = new Stack(app, 'Shop');
  const one = new SingleTable(stack, 'One', { manifest: validManifest() });
  const other = new SingleTable(stack, 'Other', { manifest: withNote() });
  const fn = newFunction(stack, 'Fn');
  one.connect(fn, { patterns: ['ordersByStatus'] });
  other.connect(fn, { patterns: ['ordersByStatus'] });
  const [props] = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function')).map((f) => f.Properties);
  expect(props.Layers).toHaveLength(2);
  const paths = [one, other].map((t) => t.functionEnvironment().SINGLE_TABLE_MODEL);
  expect(new Set(paths).size).toBe(2);
  // The variable names the last table connected, as TABLE_NAME does; its file is in its own layer.
  expect(props.Environment.Variables.SINGLE_TABLE_MODEL).toBe(paths[1]);
  expect(layerFiles(app, 'Shop/Fn')).toEqual([{ [paths[0]]: modelJson(one.model) }, { [paths[1]]: modelJson(other.model) }]);
});

test('an imported table delivers the same model file as the table it refers to', () => {
  const ownerStack = new Stack(new App(), 'Owner');
  const owner = new SingleTable(ownerStack, 'Table', { manifest: validManifest(), tableName: 'orders' });
  owner.connect(newFunction(ownerStack, 'Fn'), { patterns: ['ordersByStatus'] });
  const stack = new Stack(new App(), 'Consumer');
  const imported = SingleTable.fromTableName(stack, 'Orders', 'orders', validManifest());
  imported.connect(newFunction(stack, 'Fn'), { patterns: ['ordersByStatus'] });
  const key = (s: Stack) => Object.values(Template.fromStack(s).findResources('AWS::Lambda::LayerVersion'))[0].Properties.Content.S3Key;
  expect(key(stack)).toBe(key(ownerStack));
  expect(imported.functionEnvironment()).toEqual({ ...owner.functionEnvironment(), TABLE_NAME: 'orders' });
});

test('a stream consumer gets the model layer of its runtime and the environment too', () => {
  const stack = new Stack(newApp(), 'Shop');
  const table = new SingleTable(stack, 'Table', { manifest: validManifest(), dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES });
  table.addStreamConsumer(newFunction(stack, 'Fn'));
  table.addStreamConsumer(newFunction(stack, 'Py', Runtime.PYTHON_3_12));
  const template = Template.fromStack(stack);
  for (const [fn, layer] of [['Fn', 'TableModelLayer'], ['Py', 'TablePythonModelLayer']]) {
    const [layerId] = Object.keys(template.findResources('AWS::Lambda::LayerVersion')).filter((id) => id.startsWith(layer));
    const [props] = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) => id.startsWith(fn)).map(([, f]) => f.Properties);
    expect(props.Layers).toEqual([{ Ref: layerId }]);
    expect(props.Environment.Variables.SINGLE_TABLE_MODEL).toBe(table.functionEnvironment().SINGLE_TABLE_MODEL);
  }
});
