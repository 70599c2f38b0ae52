// The DynamoDB engine of `single-table local`: an embedded one (AWS's DynamoDB Local when java is
// found, dynalite otherwise, or the one asked for), or any endpoint the user names (a DynamoDB Local
// they run, or a real DynamoDB with the environment's region and credentials).
import { resolve } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EngineKind, LOCAL_CLIENT_CONFIG, startEmbeddedEngine } from '../../engine/engine';
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

/** What `local` was asked for. */
export interface EngineChoice {
  readonly engine?: EngineKind;
  readonly endpoint?: string;
  readonly dbPath?: string;
}

/** Starts the embedded engine, or connects to `endpoint`. */
export async function startEngine(options: EngineChoice, io: CliIo): Promise<LocalEngine> {
  const sdk = requireFromProject<Sdk>('@aws-sdk/client-dynamodb', io, 'npm install --save-dev @aws-sdk/client-dynamodb');
  if (options.endpoint) {
    if (options.engine || options.dbPath) throw new CliError('local: --endpoint names a running engine; it does not go with --engine or --db-path');
    // A real DynamoDB uses the environment's region and credentials; local engines accept any.
    const local = /^https?:\/\/(localhost|127\.|\[::1\])/.test(options.endpoint);
    const client = new sdk.DynamoDBClient(local ? { endpoint: options.endpoint, ...LOCAL_CLIENT_CONFIG } : { endpoint: options.endpoint });
    return { endpoint: options.endpoint, description: `the engine at ${options.endpoint}`, client, sdk, stop: async () => client.destroy() };
  }
  if (options.dbPath && options.engine === 'dynamodb-local') throw new CliError('local: --db-path keeps dynalite\'s data; DynamoDB Local runs in memory here');
  const started = Date.now();
  progress(io, `Starting ${options.engine ?? (options.dbPath ? 'dynalite' : 'the embedded engine')}...`);
  let engine;
  try {
    engine = await startEmbeddedEngine({
      engine: options.engine ?? (options.dbPath ? 'dynalite' : 'auto'),
      searchFrom: [io.cwd, __dirname],
      dynalitePath: options.dbPath ? resolve(io.cwd, options.dbPath) : undefined,
    });
  } catch (e) {
    throw new CliError(`local: ${(e as Error).message}`);
  }
  progress(io, `  ${engine.description} ready in ${seconds(Date.now() - started)}`);
  const client = new sdk.DynamoDBClient({ endpoint: engine.endpoint, ...LOCAL_CLIENT_CONFIG });
  return {
    endpoint: engine.endpoint,
    description: engine.description,
    client,
    sdk,
    stop: async () => {
      client.destroy();
      await engine.stop();
    },
  };
}

/** A duration for people: `850 ms`, `4.2 s`. */
export function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

type Sdk = typeof import('@aws-sdk/client-dynamodb');

function requireFromProject<T>(name: string, io: CliIo, install: string): T {
  const path = resolveFromProject(name, io);
  if (!path) throw new CliError(`local: needs ${name}, which is not installed here: ${install}`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path) as T;
}
