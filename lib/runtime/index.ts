// `cdk-single-table/runtime`: what Lambda code imports. Never imports aws-cdk-lib or constructs.
// One function per operation over the table `openTable` opens, its variations as options, so a
// bundler keeps only those a handler calls; `createClient` binds them all to one table. Every
// name here is documented in docs/runtime-reference.md ("Everything the module exports"), which a test checks.

// The manifest: its structs and enums, and the typed literal helper.
export * from '../model/manifest';
export { defineManifest } from '../model/infer';
export type { EntityName, ItemOf, PatternEntities, PatternInput, PatternName, ResultItemOf, TaggedItem, TypedManifest } from '../model/infer';
export type { TableModel } from '../model/model';
export { MODEL_FORMAT, MODEL_FORMAT_VERSION } from '../model/format';
export type { ModelDocument, ModelFile } from '../model/format';

// Opening the table.
export { openTable } from './table/context';
export type { ItemCollectionEstimate, ItemCollectionReporting, OpenTableOptions, Table } from './table/context';
export type { RetryPolicy } from './table/retry';
export { maintainedWrites } from './items/maintained-writes';
export type { MaintainedWrites } from './table/context';

// The operations and their options.
export { putItem } from './items/put-item';
export type { PutItemOptions } from './items/put-item';
export type { PutMode } from './items/requests';
export { getItem } from './items/get-item';
export type { GetItemOptions } from './items/get-item';
export { updateItem } from './items/update-item';
export type { UntypedUpdateItemOptions, UpdateOperators } from './items/update-options';
export { deleteItem } from './items/delete-item';
export type { DeleteItemOptions } from './items/delete-item';
export { query } from './query/query';
export type { UntypedQueryOptions } from './query/plan';
export { scan } from './query/scan';
export type { ScanOptions } from './query/scan';
export type { Paged, PagingOptions, QueryPage } from './query/pages';
export type { UntypedReadOptions } from './query/read-options';
export { batchGet } from './batch/batch-get';
export type { BatchGetOptions } from './batch/batch-get';
export { batchWrite } from './batch/batch-write';
export { transactWrite } from './transact/transact-write';
export type { TransactWriteOptions } from './transact/transact-write';
export { transactGet } from './transact/transact-get';
export { decodeStream } from './streams/decode-stream';
export type { DecodeStreamOptions, StreamChange, StreamDecoder, StreamKeyOf } from './streams/decode-stream';
export type { StreamAttributeValue, StreamEventInput, StreamEventName, StreamImage, StreamRecordData, StreamRecordInput } from './streams/stream-record';
export { releaseUniqueValues } from './items/release-unique';
export type { ReleaseResult, ReleaseUniqueValuesOptions, UniqueValueRef } from './items/release-unique';
export { where } from './expressions/where';
export type { Where } from './expressions/where';
export type { AttributeOperator, Condition, SizeComparison } from './expressions/condition';
export { createClient } from './table/client';
export type { CreateClientOptions, SingleTableClient } from './table/client';
export type * from './types';

// Errors.
export { ConditionFailedError, SingleTableError, UnprocessedError } from './table/errors';
export type { ErrorContext, RuntimeErrorCode } from './table/errors';
export { TransactionCanceledError } from './transact/send';
export type { CancellationReason } from './transact/send';
