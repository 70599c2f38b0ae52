// DynamoDB Local for one manifest, started before a file's tests and stopped after them, and a new
// table per test with both ways of reaching it: createClient's object and openTable's table.
import { Engine, startEngine, synthesizedTemplate } from './engine';
import type { SingleTableManifest } from '../../lib/model/manifest';
import { createClient, openTable } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';

/** Registers the engine's start and stop for the calling test file; `fresh()` creates an empty table. */
export function clientTables<M extends SingleTableManifest>(manifest: M) {
  const document = compileModelFile(manifest);
  let engine: Engine | undefined;
  beforeAll(async () => {
    engine = await startEngine(synthesizedTemplate(manifest));
  });
  afterAll(() => engine?.stop());
  return {
    engine: () => engine!,
    fresh: async () => {
      const tableName = await engine!.createTable();
      const options = { client: engine!.client, tableName };
      return { db: createClient({ ...options, model: document }), table: openTable({ ...options, model: document }) };
    },
  };
}
