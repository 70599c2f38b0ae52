// The one way runtime tests get a table: dynalite in-process, with the table created from the
// synthesized template of the example stack (or of a SingleTable for a test manifest) (createTableInputFromTemplate), so every engine test also
// proves that the infrastructure and the runtime agree on keys, indexes and projections.
import type { AddressInfo } from 'net';
import { CreateTableCommand, DynamoDBClient, DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ExampleStack } from '../../examples/stack';
import { SingleTable } from '../../lib/construct/single-table';
import { createTableInputFromTemplate } from '../../lib/local/create-table';
import type { SingleTableManifest } from '../../lib/manifest/structs';

// dynalite ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynalite = require('dynalite');

/** A running engine: an SDK client pointed at it, and a way to create more tables. */
export interface Engine {
  /** The engine's HTTP endpoint. */
  readonly endpoint: string;
  /** An SDK client for the engine (SDK retries off unless asked: tests count attempts). */
  readonly client: DynamoDBClient;
  /** Creates a table from the template under a fresh name; returns the name. */
  createTable(): Promise<string>;
  /** Another client for the same engine, e.g. with fault-injecting middleware. */
  newClient(config?: DynamoDBClientConfig): DynamoDBClient;
  /** Stops the engine. */
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

let tableCount = 0;

/** Starts dynalite and returns an engine whose tables come from `template`. */
export async function startEngine(template: object = synthesizedTemplate()): Promise<Engine> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const newClient = (config: DynamoDBClientConfig = {}) => new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    ...config,
  });
  const client = newClient();
  return {
    endpoint,
    client,
    newClient,
    async createTable() {
      const name = `table-${process.pid}-${++tableCount}`;
      await client.send(new CreateTableCommand(createTableInputFromTemplate(template as never, name)));
      return name;
    },
    async stop() {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
