// The one way runtime tests get a table: an embedded engine (AWS's DynamoDB Local by default,
// started once for the whole run by test/support/global-setup.ts; dynalite when asked for), with
// the table created from the synthesized template of the example stack (or of a SingleTable for a
// test manifest), so every engine test also proves that the infrastructure and the runtime agree
// on keys, indexes and projections.
import { createHash } from 'crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'fs';
import { join } from 'path';
import { DynamoDBClient, DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { SHARED_ENGINE_ENV, TEMPLATE_CACHE_ENV } from './shared-engine';
import { EngineKind, startEmbeddedEngine } from '../../lib/engine/engine';
import type { SingleTableManifest } from '../../lib/model/manifest';
import { connectLocalEngine } from '../../lib/testing';


/** A running engine: an SDK client pointed at it, and a way to create more tables. */
export interface Engine {
  /** Which engine answers. */
  readonly kind: EngineKind;
  /** The engine's HTTP endpoint. */
  readonly endpoint: string;
  /** An SDK client for the engine (SDK retries off unless asked: tests count attempts). */
  readonly client: DynamoDBClient;
  /** Creates a table from the template under a fresh name; returns the name. */
  createTable(): Promise<string>;
  /** Another client for the same engine, e.g. with fault-injecting middleware. */
  newClient(config?: DynamoDBClientConfig): DynamoDBClient;
  /** Stops the engine (a shared one keeps running for the other test files). */
  stop(): Promise<void>;
}

/**
 * The synthesized template the tables come from: the example app's own stack (examples/stack.ts)
 * by default, or a stack holding a SingleTable for another manifest. Memoized per manifest.
 */
const templates = new Map<SingleTableManifest | undefined, object>();
export function synthesizedTemplate(manifest?: SingleTableManifest): object {
  let template = templates.get(manifest);
  if (!template) {
    template = cachedTemplate(manifest);
    templates.set(manifest, template);
  }
  return template;
}

/**
 * The run's copy of a template (global-setup.ts names the folder): every test file of a run sees
 * the same library code, so a manifest's template is synthesized once per run, not once per file,
 * and a file whose templates are all there never loads aws-cdk-lib.
 */
function cachedTemplate(manifest?: SingleTableManifest): object {
  const folder = process.env[TEMPLATE_CACHE_ENV];
  const file = folder && join(folder, createHash('sha256').update(JSON.stringify(manifest ?? 'example stack')).digest('hex') + '.json');
  if (file && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const template = synthesize(manifest);
  if (file) {
    // Written whole under another name first: a worker reading at the same moment sees all or nothing.
    writeFileSync(`${file}.${process.pid}`, JSON.stringify(template));
    renameSync(`${file}.${process.pid}`, file);
  }
  return template;
}

function synthesize(manifest?: SingleTableManifest): object {
  // Loaded here, not at the top: most files find their templates synthesized already.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { App, Stack } = require('aws-cdk-lib') as typeof import('aws-cdk-lib');
  const { Template } = require('aws-cdk-lib/assertions') as typeof import('aws-cdk-lib/assertions');
  const { ExampleStack } = require('../../examples/stack') as typeof import('../../examples/stack');
  const { SingleTable } = require('../../lib/construct/single-table') as typeof import('../../lib/construct/single-table');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const stack = manifest ? new Stack(new App(), 'EngineTestStack') : new ExampleStack(new App(), 'SingleTableExample');
  if (manifest) new SingleTable(stack, 'Table', { manifest });
  return Template.fromStack(stack).toJSON();
}

/**
 * An engine whose tables come from `template`: the run's shared DynamoDB Local unless `kind` asks
 * for another engine (then one started for the caller).
 */
export async function startEngine(template: object = synthesizedTemplate(), kind?: EngineKind): Promise<Engine> {
  const shared = sharedEngine();
  const own = !shared || (kind !== undefined && kind !== shared.kind);
  const engine = own
    ? await startEmbeddedEngine({ engine: kind ?? 'auto' })
    : { ...shared, description: shared.kind, stop: async () => undefined };
  const local = connectLocalEngine(engine);
  return {
    kind: engine.kind,
    endpoint: engine.endpoint,
    client: local.dynamodb,
    newClient: local.newClient,
    createTable: () => local.createTable(template),
    stop: () => local.stop(),
  };
}

function sharedEngine(): { kind: EngineKind; endpoint: string } | undefined {
  const value = process.env[SHARED_ENGINE_ENV];
  if (!value) return undefined;
  const [kind, endpoint] = value.split(' ');
  return { kind: kind as EngineKind, endpoint };
}
