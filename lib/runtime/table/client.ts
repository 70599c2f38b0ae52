// `createClient`: every operation bound to one table, for scripts and tests. It holds every
// operation, so a Lambda bundled with it carries all of them; handlers open the table with
// `openTable` and import the functions they call instead. Like `openTable`, it reads a compiled
// model file, never a manifest: tests and scripts that start from one compile it in-process with
// `compileModelFile` (`cdk-single-table/testing`).
import { OpenTableOptions, Table, tableOf } from './context';
import { deployedModel, loadModel } from './load-model';
import type { EntityName, ItemOf, PatternEntities, PatternInput, PatternName, ResultItemOf, TaggedItem } from '../../model/infer';
import type { SingleTableManifest } from '../../model/manifest';
import { batchGet } from '../batch/batch-get';
import type { BatchGetOptions } from '../batch/batch-get';
import { batchWrite } from '../batch/batch-write';
import { deleteItem } from '../items/delete-item';
import type { DeleteItemOptions } from '../items/delete-item';
import { getItem } from '../items/get-item';
import type { GetItemOptions } from '../items/get-item';
import { collectionsOf } from '../items/item-collections';
import { maintainedWrites } from '../items/maintained-writes';
import { putItem } from '../items/put-item';
import type { PutItemOptions } from '../items/put-item';
import { releaseUniqueValues } from '../items/release-unique';
import type { ReleaseUniqueValuesOptions, ReleaseResult } from '../items/release-unique';
import { updateItem } from '../items/update-item';
import type { Paged } from '../query/pages';
import { query } from '../query/query';
import { scan } from '../query/scan';
import type { ScanOptions } from '../query/scan';
import { decodeStream } from '../streams/decode-stream';
import type { StreamChange, DecodeStreamOptions } from '../streams/decode-stream';
import type { StreamEventInput } from '../streams/stream-record';
import { transactGet } from '../transact/transact-get';
import { transactWrite } from '../transact/transact-write';
import type { TransactWriteOptions } from '../transact/transact-write';
import type { AttributeNameOf, BatchGetRequest, BatchWriteRequest, KeyOf, QueryOptions, SelectedItem, TransactWriteAction, UpdateItemOptions } from '../types';

/**
 * Options of `createClient`: those of `openTable` but `maintainedWrites`, which it passes itself. A
 * `model` from `compileModelFile(manifest)` types the client; a `.model.json` import needs the
 * manifest's type given: `createClient<typeof manifest>({ model })`.
 */
export type CreateClientOptions<M extends SingleTableManifest = SingleTableManifest> = Omit<OpenTableOptions<M>, 'maintainedWrites'>;

/** Every operation bound to one table (see `SingleTableClient`); it keeps versions, timestamps and unique values itself. */
export function createClient<M extends SingleTableManifest = SingleTableManifest>(options: CreateClientOptions<M> = {}): SingleTableClient<M> {
  const source = options.model;
  const table = tableOf<M>(source === undefined ? deployedModel() : loadModel(source), { ...options, maintainedWrites }, source !== undefined);
  collectionsOf(table); // checks the itemCollections option now, not at the first write
  const t = table as never;
  return {
    table,
    putItem: (entity, item, o) => putItem(t, entity, item, o),
    getItem: (entity, key, o) => getItem(t, entity, key, o),
    updateItem: (entity, changes, o) => updateItem(t, entity, changes, o),
    deleteItem: (entity, key, o) => deleteItem(t, entity, key, o),
    query: (pattern, input, o) => query(t, pattern, input, o),
    scan: (o) => scan(t, o),
    batchGet: (requests, o) => batchGet(t, requests, o),
    batchWrite: (requests) => batchWrite(t, requests),
    transactWrite: (actions, o) => transactWrite(t, actions, o),
    transactGet: (requests) => transactGet(t, requests),
    decodeStream: (event, o) => decodeStream(t, event, o),
    releaseUniqueValues: (event, o) => releaseUniqueValues(t, event, o),
  };
}

/**
 * Every operation bound to one table, for scripts and tests: the same names, arguments and results
 * as the functions (`putItem(table, ...)` is `client.putItem(...)`), without the table argument.
 */
export interface SingleTableClient<M> {
  /** The table the operations run on (pass it to the functions too). */
  readonly table: Table<M>;
  /** See `putItem`. */
  putItem<E extends EntityName<M>>(entity: E, item: ItemOf<M, E>, options?: PutItemOptions<ItemOf<M, E>>): Promise<void>;
  /** See `getItem`. */
  getItem<E extends EntityName<M>>(entity: E, key: KeyOf<M, E>, options?: GetItemOptions): Promise<ResultItemOf<M, E> | undefined>;
  /** See `updateItem`. */
  updateItem<E extends EntityName<M>>(
    entity: E, changes: KeyOf<M, E> & Partial<ItemOf<M, E>>, options?: UpdateItemOptions<M, E>,
  ): Promise<ResultItemOf<M, E>>;
  /** See `deleteItem`. */
  deleteItem<E extends EntityName<M>>(
    entity: E, key: KeyOf<M, E>, options?: DeleteItemOptions<ItemOf<M, E>>,
  ): Promise<ResultItemOf<M, E> | undefined>;
  /** See `query`. */
  query<P extends PatternName<M>, A extends AttributeNameOf<M, PatternEntities<M, P>> = never>(
    pattern: P, input: PatternInput<M, P>, options?: QueryOptions<M, P, A>,
  ): Paged<SelectedItem<M, PatternEntities<M, P>, A>>;
  /** See `scan`. */
  scan<E extends EntityName<M> = EntityName<M>, A extends AttributeNameOf<M, E> = never>(
    options?: ScanOptions<M, E, A>,
  ): Paged<SelectedItem<M, E, A>>;
  /** See `batchGet`. */
  batchGet(requests: readonly BatchGetRequest<M>[], options?: BatchGetOptions): Promise<(TaggedItem<M, EntityName<M>> | undefined)[]>;
  /** See `batchWrite`. */
  batchWrite(requests: readonly BatchWriteRequest<M>[]): Promise<void>;
  /** See `transactWrite`. */
  transactWrite(actions: readonly TransactWriteAction<M>[], options?: TransactWriteOptions): Promise<void>;
  /** See `transactGet`. */
  transactGet(requests: readonly BatchGetRequest<M>[]): Promise<(TaggedItem<M, EntityName<M>> | undefined)[]>;
  /** See `decodeStream`. */
  decodeStream<E extends EntityName<M> = EntityName<M>>(event: StreamEventInput, options?: DecodeStreamOptions<E>): StreamChange<M, E>[];
  /** See `releaseUniqueValues`. */
  releaseUniqueValues(event: StreamEventInput, options?: ReleaseUniqueValuesOptions): Promise<ReleaseResult>;
}
