// `cdk-single-table/runtime`: what Lambda code imports. Never imports aws-cdk-lib or constructs.
// One function per operation over the table `openTable` opens, its variations as options, so a
// bundler keeps only those a handler calls; `createClient` binds them all to one table. Every
// name here is documented in docs/runtime.md ("Everything the module exports"), which a test checks.

// The manifest: its structs and enums, and the typed literal helper.
export * from '../manifest/structs';
export { defineManifest } from '../manifest/infer';
export type { EntityName, ItemOf, PatternEntities, PatternInput, PatternName, ResultItemOf, TaggedItem, TypedManifest } from '../manifest/infer';
export type { TableModel } from '../manifest/model';
export { MODEL_FORMAT, MODEL_FORMAT_VERSION } from '../model/format';
export type { ModelDocument, ModelFile } from '../model/format';

// Opening the table.
export { openTable } from './context';
export type { ClientOptions, TableContext } from './context';
export type { ItemCollectionEstimate, ItemCollectionReporting } from './item-collections';
export type { RetryPolicy } from './retry';
export { maintainedWrites } from './maintained-writes';
export type { MaintainedWrites } from './maintained-writes';

// The operations and their options.
export { putItem } from './ops/put-item';
export type { PutOptions } from './ops/put-item';
export type { PutMode } from './items';
export { getItem } from './ops/get-item';
export type { GetOptions } from './ops/get-item';
export { updateItem } from './ops/update-item';
export type { UpdateOperators, UpdateOptions } from './update';
export { deleteItem } from './ops/delete-item';
export type { DeleteOptions } from './ops/delete-item';
export { query } from './ops/query';
export type { QueryOptions } from './query';
export { scan } from './ops/scan';
export type { ScanOptions } from './ops/scan';
export type { Paged, PagingOptions } from './pages';
export type { ReadOptions } from './read-options';
export { batchGet } from './ops/batch-get';
export type { BatchGetOptions } from './ops/batch-get';
export { batchWrite } from './ops/batch-write';
export { transactWrite } from './ops/transact-write';
export type { TransactWriteOptions } from './ops/transact-write';
export { transactGet } from './ops/transact-get';
export { decodeStream } from './ops/decode-stream';
export type { StreamChange, StreamDecodeOptions, StreamDecoder, StreamKeyOf } from './ops/decode-stream';
export type { StreamAttributeValue, StreamEventInput, StreamEventName, StreamImage, StreamRecordData, StreamRecordInput } from './stream-record';
export { releaseUniqueValues } from './ops/release-unique';
export type { ReleaseOptions, ReleaseResult, UniqueValueRef } from './ops/release-unique';
export { where } from './expressions/where';
export type { Where } from './expressions/where';
export type { AttributeOperator, Condition, SizeComparison } from './expressions/condition';
export { createClient } from './client';
export type { CreateClientOptions } from './client';
export type * from './types';

// Errors.
export { SingleTableError, UnprocessedError } from './errors';
export type { ErrorContext, RuntimeErrorCode } from './errors';
export { ConditionFailedError } from './write-failure';
export { TransactionCanceledError } from './transact-send';
export type { CancellationReason } from './transact-send';
