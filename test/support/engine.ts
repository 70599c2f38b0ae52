// The one way runtime tests get a table: an embedded engine (AWS's DynamoDB Local by default,
// started once for the whole run by test/support/global-setup.ts; dynalite when asked for), with
// the table created from the synthesized template of the example stack (or of a SingleTable for a
// test manifest), so every engine test also proves that the infrastructure and the runtime agree
// on keys, indexes and projections.
import { DynamoDBClient, DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { SHARED_ENGINE_ENV } from './shared-engine';
import { ExampleStack } from '../../examples/stack';
import { SingleTable } from '../../lib/construct/single-table';
import { EngineKind, startEmbeddedEngine } from '../../lib/engine/engine';
import type { SingleTableManifest } from '../../lib/manifest/structs';
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
    const stack = manifest ? new Stack(new App(), 'EngineTestStack') : new ExampleStack(new App(), 'SingleTableExample');
    if (manifest) new SingleTable(stack, 'Table', { manifest });
    template = Template.fromStack(stack).toJSON();
    templates.set(manifest, template);
  }
  return template;
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
