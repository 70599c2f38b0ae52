// `cdk-single-table/runtime`: what Lambda code imports. Never imports aws-cdk-lib or constructs.
// Each operation is its own function over the table context (`openTable`), so a bundler keeps
// only those a handler calls; `createClient` bundles them all.
export * from '../manifest/structs';
export type { TableModel } from '../manifest/model';
export * from '../manifest/infer';
export type { ModelDocument, ModelFile } from '../model/format';
export { MODEL_FORMAT, MODEL_FORMAT_VERSION } from '../model/format';
export { openTable } from './context';
export type { ClientOptions, TableContext } from './context';
export { putItem } from './ops/put-item';
export type { PutOptions } from './ops/put-item';
export { getItem } from './ops/get-item';
export type { GetOptions } from './ops/get-item';
export { updateItem } from './ops/update-item';
export { deleteItem } from './ops/delete-item';
export type { DeleteOptions } from './ops/delete-item';
export { query } from './ops/query';
export { queryShards } from './ops/query-shards';
export { batchGet } from './ops/batch-get';
export type { BatchGetOptions } from './ops/batch-get';
export { batchWrite } from './ops/batch-write';
export { transactWrite } from './ops/transact-write';
export type { TransactWriteOptions } from './ops/transact-write';
export { transactGet } from './ops/transact-get';
export { TransactionCanceledError } from './transact-send';
export type { CancellationReason } from './transact-send';
export type { PartitionPatternName, ShardedPatternName } from './pattern-kinds';
export { createClient } from './client';
export { SingleTableError, UnprocessedError } from './errors';
export type { RuntimeErrorCode } from './errors';
export type { ItemCollectionEstimate, ItemCollectionReporting } from './item-collections';
export type { PutMode } from './items';
export type { QueryOptions } from './query';
export type { RetryPolicy } from './retry';
export type { UpdateOptions } from './update';
export type * from './types';
