// The Python runtime in the Node.js test run: its own suite (pytest: the conformance corpus this
// side writes, and its operations on the run's DynamoDB Local), and items written by either
// runtime read back by the other through every pattern of the example app, page by page, each
// page read by the other runtime from the cursor the previous one returned. The Python side is a
// handler connected to the table by the construct, run as Lambda lays it out: its code, and the
// runtime package and model file of the layer `connect` gave it, nothing of this repository.
import { ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { App, Stack } from 'aws-cdk-lib';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { PythonFixtures, writePythonFixtures } from './fixtures';
import { localData } from '../../examples/local-data';
import { manifest } from '../../examples/manifest';
import { WriteOperation } from '../../lib/construct/grants/options';
import { SingleTable } from '../../lib/construct/single-table';
import { AssemblyFunction, findFunction } from '../../lib/engine/lambda-functions';
import { createClient, PatternName } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine } from '../support/engine';

const ROOT = join(__dirname, '..', '..');
const PYTHON = '/usr/bin/python3';
const INSTALL = 'apt-get install -y python3-boto3 python3-pytest python3-hypothesis';
// The Python suite and the round trip each take seconds alone, minutes on a busy 2-core machine.
const SLOW = 600_000;

let engine: Engine;
let fixtures: PythonFixtures & { dir: string; counts: Record<string, number> };

beforeAll(async () => {
  const missing = spawnSync(PYTHON, ['-c', 'import boto3, pytest, hypothesis'], { encoding: 'utf8' });
  if (missing.status !== 0) throw new Error(`the Python runtime's tests need Debian's Python packages: ${INSTALL}\n${missing.stderr ?? missing.error}`);
  engine = await startEngine();
  fixtures = await writePythonFixtures(engine.endpoint);
}, SLOW);
afterAll(async () => {
  await engine?.stop();
  if (fixtures) rmSync(fixtures.dir, { recursive: true, force: true });
});

test('the Python suite passes: every corpus vector reproduced, every operation on DynamoDB Local', () => {
  expect(fixtures.counts.puts).toBeGreaterThanOrEqual(10_000);
  const { SINGLE_TABLE_CORPUS, SINGLE_TABLE_ENDPOINT, SINGLE_TABLE_TABLE_DEFINITION } = fixtures;
  const run = spawnSync(PYTHON, ['-m', 'pytest', 'python/tests', '-q', '-p', 'no:cacheprovider'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, SINGLE_TABLE_CORPUS, SINGLE_TABLE_ENDPOINT, SINGLE_TABLE_TABLE_DEFINITION },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`pytest failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  process.stderr.write(`Python runtime: ${run.stdout.trim().split('\n').pop()}; corpus ${JSON.stringify(fixtures.counts)}\n`);
}, SLOW);

/**
 * A stack whose Python function is connected to the example table, synthesized to `outdir`: the
 * function as its assembly stages it (code folder, layer folders, environment).
 */
function connectedPythonFunction(outdir: string): AssemblyFunction {
  const app = new App({ outdir });
  const stack = new Stack(app, 'Shop');
  const table = new SingleTable(stack, 'Table', { manifest });
  const fn = new LambdaFunction(stack, 'Orders', {
    runtime: Runtime.PYTHON_3_12, handler: 'handler.handler', code: Code.fromAsset(join(ROOT, 'python', 'tests', 'function')),
  });
  table.connect(fn, { patterns: Object.keys(localData.queries), writes: [WriteOperation.PUT] });
  app.synth();
  return findFunction(outdir, 'Shop/Orders');
}

/**
 * The Python function as a process answering one event per line (python/tests/lambda_host.py), its
 * environment the template's with the table's name, and /opt paths mapped to its layers' folders.
 */
class PythonFunction {
  private readonly process: ChildProcessWithoutNullStreams;
  private readonly answers: AsyncIterableIterator<string>;

  constructor(fn: AssemblyFunction, tableName: string, endpoint: string) {
    const environment = Object.fromEntries(Object.entries({ ...fn.environment, TABLE_NAME: tableName }).map(([name, value]) => {
      const inLayer = typeof value === 'string' && value.startsWith('/opt/')
        ? fn.layerDirs.map((dir) => join(dir, value.slice('/opt/'.length))).filter(existsSync).pop() : undefined;
      return [name, inLayer ?? String(value)];
    }));
    this.process = spawn(PYTHON, [join(ROOT, 'python', 'tests', 'lambda_host.py'), fn.codeDir, fn.handler, ...fn.layerDirs], {
      env: {
        PATH: process.env.PATH,
        ...environment,
        AWS_ENDPOINT_URL_DYNAMODB: endpoint,
        AWS_REGION: 'us-east-1',
        AWS_DEFAULT_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
      },
    });
    this.answers = createInterface({ input: this.process.stdout })[Symbol.asyncIterator]();
  }

  async send(event: object): Promise<any> {
    this.process.stdin.write(JSON.stringify(event) + '\n');
    const { value, done } = await this.answers.next();
    if (done) throw new Error(`the Python function stopped: ${this.process.stderr.read()}`);
    const answer = JSON.parse(value);
    if ('error' in answer) throw new Error(`${answer.error}: ${answer.message}`);
    return answer.ok;
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.process.once('exit', resolve));
    this.process.stdin.end();
    await exited;
  }
}

test('items written by either runtime, the Python one a handler connected by the construct, are read back by the other through every pattern, cursors passed between them', async () => {
  const outdir = mkdtempSync(join(tmpdir(), 'single-table-python-stack-'));
  const tableName = await engine.createTable();
  const node = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
  const fn = connectedPythonFunction(outdir);
  const python = new PythonFunction(fn, tableName, engine.endpoint);
  try {
    // The runtime the handler imports is the one in its layer.
    const [layer] = fn.layerDirs;
    expect(await python.send({ op: 'runtime' })).toBe(join(layer, 'python', 'single_table_runtime', '__init__.py'));
    // Every other item of each entity is written by Python.
    let n = 0;
    for (const [entity, items] of Object.entries(localData.items)) {
      for (const item of items) {
        if (n++ % 2) await python.send({ op: 'put', args: [entity, item] });
        else await node.putItem(entity as never, item as never);
      }
    }
    for (const [entity, items] of Object.entries(localData.items)) {
      for (const item of items) {
        const { pk, sk } = node.table.model.entities[entity].keys.table;
        const key = Object.fromEntries([...pk.attributes, ...sk!.attributes].map((a) => [a, (item as Record<string, unknown>)[a]]));
        expect(await python.send({ op: 'get', args: [entity, key], options: { consistent: true } })).toEqual(await node.getItem(entity as never, key as never, { consistent: true }));
      }
    }
    for (const [pattern, input] of Object.entries(localData.queries)) {
      const whole = await node.query(pattern as PatternName<typeof manifest>, input as never);
      expect(whole.items.length).toBeGreaterThan(0);
      for (const first of ['node', 'python']) {
        const items: unknown[] = [];
        let cursor: string | undefined;
        let turn = first;
        do {
          const page = turn === 'node'
            ? await node.query(pattern as PatternName<typeof manifest>, input as never, { limit: 1, cursor } as never)
            : await python.send({ op: 'query', pattern, input, options: { limit: 1, cursor } });
          items.push(...page.items);
          cursor = page.cursor ?? undefined;
          turn = turn === 'node' ? 'python' : 'node';
        } while (cursor);
        expect({ pattern, first, items }).toEqual({ pattern, first, items: whole.items });
      }
    }
  } finally {
    await python.close();
    rmSync(outdir, { recursive: true, force: true });
  }
}, SLOW);
