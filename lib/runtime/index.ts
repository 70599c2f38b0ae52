// `cdk-single-table/runtime`: what Lambda code imports. Never imports aws-cdk-lib or constructs.
export * from '../manifest/structs';
export type { TableModel } from '../manifest/model';
export * from '../manifest/infer';
export { createClient } from './client';
export type { ClientOptions } from './client';
export { SingleTableError, UnprocessedError } from './errors';
export type { RuntimeErrorCode } from './errors';
export type { ItemCollectionEstimate, ItemCollectionReporting } from './item-collections';
export type { PutMode } from './items';
export type { QueryOptions } from './query';
export type { RetryPolicy } from './retry';
export type { UpdateOptions } from './update';
export type * from './types';
