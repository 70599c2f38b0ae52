// The DynamoDB engine of `single-table local`: dynalite in this process (in memory, or kept in a
// folder), or any endpoint the user names (DynamoDB Local, or a real DynamoDB with the
// environment's region and credentials).
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CliError, CliIo, progress } from '../io';
import { resolveFromProject } from '../project';

/** A running engine and an SDK client for it. */
export interface LocalEngine {
  /** Where it listens. */
  readonly endpoint: string;
  /** What it is, for the output. */
  readonly description: string;
  /** An SDK client pointed at it. */
  readonly client: DynamoDBClient;
  /** The SDK module the client comes from (the project's), for commands the runtime does not send. */
  readonly sdk: Sdk;
  /** Stops it (and the client). */
  stop(): Promise<void>;
}

/** Starts dynalite in-process, or connects to `endpoint`. */
export async function startEngine(options: { endpoint?: string; dbPath?: string }, io: CliIo): Promise<LocalEngine> {
  const sdk = requireFromProject<Sdk>('@aws-sdk/client-dynamodb', io, 'npm install --save-dev @aws-sdk/client-dynamodb');
  if (options.endpoint) {
    // A real DynamoDB uses the environment's region and credentials; local engines accept any.
    const local = /^https?:\/\/(localhost|127\.|\[::1\])/.test(options.endpoint);
    const client = new sdk.DynamoDBClient(local ? { endpoint: options.endpoint, ...LOCAL_CREDENTIALS } : { endpoint: options.endpoint });
    return { endpoint: options.endpoint, description: `the engine at ${options.endpoint}`, client, sdk, stop: async () => client.destroy() };
  }
  const dynalite = requireFromProject<(o: object) => Server>('dynalite', io, 'npm install --save-dev dynalite, or point at another engine with --endpoint URL');
  progress(io, 'Starting dynalite...');
  const dbPath = options.dbPath ? resolve(io.cwd, options.dbPath) : undefined;
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(dbPath ? { path: dbPath } : {}) });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new sdk.DynamoDBClient({ endpoint, ...LOCAL_CREDENTIALS });
  return {
    endpoint,
    description: `dynalite ${dbPath ? `with data in ${options.dbPath}` : 'in memory'} (${endpoint})`,
    client,
    sdk,
    stop: async () => {
      client.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

type Sdk = typeof import('@aws-sdk/client-dynamodb');

const LOCAL_CREDENTIALS = { region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };

interface Server {
  listen(port: number, host: string, done: () => void): void;
  address(): AddressInfo | string | null;
  close(done: () => void): void;
}

function requireFromProject<T>(name: string, io: CliIo, install: string): T {
  const path = resolveFromProject(name, io);
  if (!path) throw new CliError(`local: needs ${name}, which is not installed here: ${install}`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path) as T;
}
