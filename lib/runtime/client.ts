// `createClient`: every operation as methods of one object, for scripts, tests and code that
// prefers it. It holds every operation, so a handler bundled with it carries all of them, the
// fan-out and batches included; Lambda handlers import the operations they call instead
// (./ops, `openTable`), and esbuild drops the rest. Given a manifest rather than a compiled model
// file, it also resolves the manifest at start (no validation rules: the stack validated it at
// synth, and the fingerprint check proves the function runs that manifest).
import { clientWrites } from './client-writes';
import { contextOf, ClientOptions } from './context';
import { collectionsOf } from './item-collections';
import { isModelDocument, loadModel } from './load-model';
import { maintainedWrites } from './maintained-writes';
import { batchGet } from './ops/batch-get';
import { batchWrite } from './ops/batch-write';
import { decodeStreamEvent } from './ops/decode-stream';
import { getItem } from './ops/get-item';
import { queryShardsAll } from './ops/query-shards-all';
import { queryShardsWith } from './ops/query-shards-with';
import { releaseUniqueValues } from './ops/release-unique';
import { scan, scanAll } from './ops/scan';
import { transactGet } from './ops/transact-get';
import { transactWrite } from './ops/transact-write';
import type { SingleTableClient } from './types';
import type { TypedManifest } from '../manifest/infer';
import { resolveModel } from '../manifest/resolve';
import type { SingleTableManifest } from '../manifest/structs';
import type { ModelFile } from '../model/format';

export type { ClientOptions } from './context';

/**
 * Creates the runtime client of a compiled model file, or of a manifest (typed when it comes
 * from `defineManifest`; pass the type as `createClient<typeof manifest>(model)` for a model file).
 */
export function createClient<M>(source: TypedManifest<M> | SingleTableManifest | ModelFile, options: ClientOptions = {}): SingleTableClient<M> {
  const model = isModelDocument(source) ? loadModel(source) : resolveModel(source as SingleTableManifest);
  const table = contextOf<M>(model, { ...options, maintainedWrites }); // it holds every write, so it keeps versions, timestamps and unique values itself
  collectionsOf(table); // checks the itemCollections option now, not at the first write
  const writes = clientWrites(table); // entities with unique attributes write in transactions
  const client: SingleTableClient<M> = {
    model,
    tableName: table.tableName,
    dynamodb: table.dynamodb,
    put: (entity, item, o) => writes.put(entity, item, o),
    get: (entity, key, o) => getItem(table, entity, key, o),
    update: (entity, changes, o) => writes.update(entity, changes, o) as never,
    delete: (entity, key, o) => writes.delete(entity, key, o) as never,
    query: (pattern, input, o) => queryShardsWith(table, pattern, input, o),
    queryAll: (pattern, input, o) => queryShardsAll(table, pattern, input, o),
    scan: (o) => scan(table, o),
    scanAll: (o) => scanAll(table, o),
    batchGet: (requests, o) => batchGet(table, requests, o),
    batchWrite: (requests) => batchWrite(table, requests),
    transactWrite: (actions, o) => transactWrite(table, actions, o),
    transactGet: (requests) => transactGet(table, requests),
    decodeStream: (event, o) => decodeStreamEvent(table, event, o),
    releaseUniqueValues: (event, o) => releaseUniqueValues(table, event, o),
  };
  return client;
}
