// `cdk-single-table/testing`: what users' tests import to run their code against the table their
// stack declares, on an embedded engine (AWS's DynamoDB Local when java is there, else dynalite),
// with no AWS account. The table is created from the synthesized template, so a test also proves
// that the stack and the runtime agree; `startLocalApp` runs the app's own bundled Lambdas on it.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
// Users' tests install the SDK (it is an optional dependency of this package).
// eslint-disable-next-line import/no-extraneous-dependencies
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient, DynamoDBClientConfig, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { createTableInputFromTemplate, TABLE_RESOURCE_TYPES, TemplateJson } from '../engine/create-table';
import { EmbeddedEngine, EngineKind, LOCAL_CLIENT_CONFIG, startEmbeddedEngine } from '../engine/engine';
import { invokeLambda, localEnvironment } from '../engine/invoke-lambda';
import { assemblyFunctions, findFunction } from '../engine/lambda-functions';
import { readTemplateFile, templateFromAssembly } from '../engine/templates';
import { compileManifest } from '../manifest/compile';
import { modelDocument } from '../model/document';
import type { ModelDocument } from '../model/format';
import type { SingleTableManifest } from '../model/manifest';
import { createClient, CreateClientOptions } from '../runtime/table/client';
import type { SingleTableClient } from '../runtime/table/client';

export type { EngineKind, EmbeddedEngine } from '../engine/engine';
/** The sample items and pattern inputs of `single-table local --data`. */
export type { LocalData } from '../cli/local/local-run';
export { createTableInputFromTemplate } from '../engine/create-table';
export { LambdaInvocationError } from '../engine/invoke-lambda';

/**
 * Where the table's definition comes from: a construct inside a stack (the `SingleTable`, or a
 * stack holding exactly one), a synthesized template object (`Template.fromStack(stack).toJSON()`),
 * a template file (`.json`), or a cloud assembly folder (`cdk.out`).
 */
export type TableSource = object | string;

/** Options of `startLocalEngine`. */
export interface LocalEngineOptions {
  /** Which engine: `auto` prefers DynamoDB Local and falls back to dynalite. @default 'auto' */
  readonly engine?: EngineKind | 'auto';
}

/** A running engine with an SDK client for it. */
export interface LocalEngine extends EmbeddedEngine {
  /** An SDK client pointed at the engine (no retries: tests see every failure). */
  readonly dynamodb: DynamoDBClient;
  /** Another SDK client for the engine, e.g. with middleware that injects faults. */
  newClient(config?: DynamoDBClientConfig): DynamoDBClient;
  /**
   * Creates the table `from` declares, under `tableName` (default: a fresh unique name), and
   * waits until it is active. Returns the name.
   */
  createTable(from: TableSource, tableName?: string): Promise<string>;
  /** Deletes a table (to free memory between tests; stopping the engine drops everything). */
  deleteTable(tableName: string): Promise<void>;
}

/** Starts an embedded engine in memory on a free loopback port. Stop it in `afterAll`. */
export async function startLocalEngine(options: LocalEngineOptions = {}): Promise<LocalEngine> {
  const engine = await startEmbeddedEngine({ engine: options.engine });
  return connectLocalEngine(engine);
}

/** An SDK client and table helpers for an engine that already runs (for example one per test run). */
export function connectLocalEngine(engine: EmbeddedEngine): LocalEngine {
  const newClient = (config: DynamoDBClientConfig = {}) =>
    new DynamoDBClient({ endpoint: engine.endpoint, ...LOCAL_CLIENT_CONFIG, maxAttempts: 1, ...config });
  const dynamodb = newClient();
  let tables = 0;
  return {
    kind: engine.kind,
    endpoint: engine.endpoint,
    description: engine.description,
    dynamodb,
    newClient,
    async createTable(from, tableName = `table-${process.pid}-${Date.now().toString(36)}-${++tables}`) {
      await dynamodb.send(new CreateTableCommand(createTableInputFromTemplate(templateOf(from), tableName)));
      await waitUntilTableExists({ client: dynamodb, maxWaitTime: 60, minDelay: 0.05, maxDelay: 0.5 } as never, { TableName: tableName });
      return tableName;
    },
    async deleteTable(tableName) {
      await dynamodb.send(new DeleteTableCommand({ TableName: tableName }));
    },
    async stop() {
      dynamodb.destroy();
      await engine.stop();
    },
  };
}

/**
 * The compiled model file of a manifest, as `single-table generate` writes it, for tests and
 * scripts that start from the manifest: `createClient({ model: compileModelFile(manifest) })` and
 * `openTable({ model: compileModelFile(manifest) })` are typed from it. It validates the manifest as
 * the synth does and throws a `ManifestError` listing every error. Never in a Lambda: a handler
 * reads the model the stack deployed, and the compiler stays out of its bundle.
 */
export function compileModelFile<M extends SingleTableManifest>(manifest: M): ModelDocument<M> {
  return modelDocument(compileManifest(manifest).model) as ModelDocument<M>;
}

/** Options of `startLocalTable`. */
export interface LocalTableOptions<M extends SingleTableManifest = SingleTableManifest> extends LocalEngineOptions {
  /** The table's definition (see `TableSource`). */
  readonly from: TableSource;
  /** The manifest the stack was built from: the returned runtime client is typed from it. */
  readonly manifest: M;
  /** Table name. @default - a fresh unique name */
  readonly tableName?: string;
  /** Options of the runtime client (retries, shard concurrency). */
  readonly clientOptions?: Omit<CreateClientOptions, 'client' | 'tableName' | 'model'>;
}

/** An engine with the table created and a runtime client for it. */
export interface LocalTable<M> {
  readonly engine: LocalEngine;
  readonly tableName: string;
  /** The runtime client (`cdk-single-table/runtime`) for the table. */
  readonly client: SingleTableClient<M>;
  /** Stops the engine. */
  stop(): Promise<void>;
}

/** Starts an engine, creates the table from the stack's definition and returns a ready runtime client. */
export async function startLocalTable<M extends SingleTableManifest>(options: LocalTableOptions<M>): Promise<LocalTable<M>> {
  const template = templateOf(options.from);
  const engine = await startLocalEngine(options);
  try {
    const tableName = await engine.createTable(template, options.tableName);
    const client = createClient({ ...options.clientOptions, model: compileModelFile(options.manifest), client: engine.dynamodb, tableName });
    return { engine, tableName, client, stop: () => engine.stop() };
  } catch (e) {
    await engine.stop();
    throw e;
  }
}

/** Options of `startLocalApp`. */
export interface LocalAppOptions {
  /** The cloud assembly folder `cdk synth` wrote. @default 'cdk.out' */
  readonly assembly?: string;
  /**
   * Which engine to start (`auto` prefers DynamoDB Local and falls back to dynalite), or one that
   * already runs (e.g. started in jest's `globalSetup`; `stop()` then leaves it running).
   * @default 'auto'
   */
  readonly engine?: EngineKind | 'auto' | EmbeddedEngine;
  /** Table name. @default - a fresh unique name */
  readonly tableName?: string;
}

/** Options of one invocation. */
export interface InvokeOptions {
  /** Variables to add to the function's environment or override in it (e.g. ones resolved only at deploy). */
  readonly environment?: Readonly<Record<string, string>>;
}

/** The app's table on an engine, and its Lambdas ready to run against it. */
export interface LocalApp {
  readonly engine: LocalEngine;
  /** The local table's name: what the functions get in TABLE_NAME. */
  readonly tableName: string;
  /** The construct paths of the functions that can run (`Shop/Orders`). */
  readonly functions: readonly string[];
  /**
   * Runs a function's bundled handler with `event`, as Lambda would, in a Node process of its
   * own: the handler the template names, in the folder the template's asset names, with the
   * function's environment pointed at the local table (TABLE_NAME, SINGLE_TABLE_MODEL in its
   * model layer's folder, AWS_ENDPOINT_URL_DYNAMODB, a dummy region and credentials). `fn` is the
   * construct path (`Shop/Orders`), the path without the stack, the construct id or the logical
   * id. Resolves to the handler's JSON result; rejects with a `LambdaInvocationError` carrying the
   * handler's error and output.
   */
  invoke<T = any>(fn: string, event?: unknown, options?: InvokeOptions): Promise<T>;
  /** Stops the engine it started (or deletes the table from an engine it was given). */
  stop(): Promise<void>;
}

/**
 * Starts an engine, creates the table of a cloud assembly (`cdk.out`, after `npx cdk synth`) and
 * returns a handle that invokes the assembly's Lambdas against it. Stop it in `afterAll`.
 */
export async function startLocalApp(options: LocalAppOptions = {}): Promise<LocalApp> {
  const assembly = resolve(options.assembly ?? 'cdk.out');
  const { template } = templateFromAssembly(assembly);
  const { functions } = assemblyFunctions(assembly);
  const given = typeof options.engine === 'object' ? options.engine : undefined;
  const engine = connectLocalEngine(given ?? await startEmbeddedEngine({ engine: options.engine as EngineKind | 'auto' | undefined }));
  try {
    const tableName = await engine.createTable(template, options.tableName);
    const tableLogicalId = Object.entries(template.Resources ?? {}).find(([, r]) => TABLE_RESOURCE_TYPES.includes(r.Type))?.[0];
    return {
      engine,
      tableName,
      functions: functions.map((f) => f.path),
      async invoke(name, event, invokeOptions = {}) {
        const fn = findFunction(assembly, name);
        const environment = localEnvironment(fn, { tableName, tableLogicalId, endpoint: engine.endpoint, environment: invokeOptions.environment });
        return invokeLambda(fn, event, environment);
      },
      stop: async () => {
        if (!given) return engine.stop();
        await engine.deleteTable(tableName);
        engine.dynamodb.destroy();
      },
    };
  } catch (e) {
    if (!given) await engine.stop();
    throw e;
  }
}

/** The synthesized template of a table source. */
export function templateOf(from: TableSource): TemplateJson {
  if (typeof from === 'string') {
    const path = resolve(from);
    return existsSync(path) && statSync(path).isDirectory() ? templateFromAssembly(path).template : readTemplateFile(path).template;
  }
  if (isConstruct(from)) {
    // Only a construct needs the CDK; a template or a cdk.out folder does not load it.
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { Stack } = require('aws-cdk-lib') as typeof import('aws-cdk-lib');
    const { Template } = require('aws-cdk-lib/assertions') as typeof import('aws-cdk-lib/assertions');
    /* eslint-enable @typescript-eslint/no-require-imports */
    return Template.fromStack(Stack.of(from as never)).toJSON() as TemplateJson;
  }
  if (from && typeof from === 'object' && 'Resources' in from) return from as TemplateJson;
  throw new Error('expected a SingleTable or its Stack, a synthesized template object, a template file or a cdk.out folder');
}

function isConstruct(x: object): boolean {
  return typeof (x as { node?: { addr?: unknown } }).node?.addr === 'string';
}
