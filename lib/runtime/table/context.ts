// The open table every operation takes: the model, the table name, the SDK client and the options.
// Opened once per container, at cold start, from the compiled model file; the operations
// (items/, query/, batch/, transact/, streams/) are plain functions over it, so a handler's
// bundle holds only those it calls. The types of the options live here too, with the contract of
// the maintained-write hooks an option carries, so the writes that implement them import this
// file and nothing here imports them.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { ConditionFailedError, SingleTableError } from './errors';
import { checkFingerprint } from './fingerprint-check';
import { deployedModel, loadModel } from './load-model';
import type { RetryPolicy } from './retry';
import { DynamoDBClient } from './sdk';
import { TABLE_NAME_ENV } from '../../model/environment';
import type { ModelFile } from '../../model/format';
import type { SingleTableManifest } from '../../model/manifest';
import { EntityModel, TableModel, writtenKeyAttributes } from '../../model/model';
import type { UpdateOperators, UntypedUpdateItemOptions } from '../items/update-options';

type Values = Readonly<Record<string, unknown>>;

/** Options of `openTable` (and of `createClient`); `M` is the manifest's type, which a typed `model` carries. */
export interface OpenTableOptions<M = SingleTableManifest> {
  /**
   * The compiled model, for tests and scripts (a `.model.json` that `single-table generate` writes,
   * or `compileModelFile(manifest)` of `cdk-single-table/testing`, which also carries the manifest's
   * type); checked against SINGLE_TABLE_FINGERPRINT when that is set.
   * @default - the model the stack deployed, from the file SINGLE_TABLE_MODEL names (`SingleTable.connect` sets it)
   */
  readonly model?: ModelFile<M>;
  /** The SDK client. @default - a new DynamoDBClient with the environment's region and credentials */
  readonly client?: DynamoDBClient;
  /** The table name. @default - the TABLE_NAME environment variable */
  readonly tableName?: string;
  /** Retries of throttled requests and unprocessed batch items. @default - 8 attempts, 25 ms doubling to 2 s, full jitter */
  readonly retry?: RetryPolicy;
  /** Most shard queries in flight at once on a sharded index. @default - all shards */
  readonly shardConcurrency?: number;
  /** Item collection size estimates of writes on a table with LSIs: `'emf'` log lines, `'off'`, or a function. @default 'emf' */
  readonly itemCollections?: ItemCollectionReporting;
  /**
   * The hooks single-item writes need for entities with a version, timestamps or unique attributes:
   * pass `maintainedWrites` (exported by this module) when the handler writes such an entity; those
   * writes refuse to run without them. Other handlers leave them out, and with them their code.
   * @default - none: the model may have no versioned, timestamped or unique entity
   */
  readonly maintainedWrites?: MaintainedWrites;
}

/** The table-wide facts of a model that generated functions read; `localIndexesEnabled` only where it is true. */
export type AccessModel = Pick<TableModel, 'fingerprint' | 'delimiter' | 'escapeChar' | 'typeAttribute' | 'keyAttributes'> & Partial<Pick<TableModel, 'localIndexesEnabled'>>;

/**
 * An open table, as `openTable` (the runtime's, or a generated access module's) returns it and
 * every operation takes it. `M` is the manifest's type (`typeof manifest` of a `defineManifest`
 * literal): it types entity names, items and pattern inputs, and costs nothing at run time.
 */
export interface Table<M = SingleTableManifest> {
  /** The compiled model (a generated module's table loads it when a runtime operation first reads it). */
  readonly model: TableModel;
  /**
   * The model's table-wide facts, among them the fingerprint of its manifest: what a generated
   * module's functions read, after checking that fingerprint against their module's.
   */
  readonly access: AccessModel;
  /** The table it reads and writes. */
  readonly tableName: string;
  /** The SDK client it sends with. */
  readonly dynamodb: DynamoDBClient;
  /** The options it was opened with. */
  readonly options: OpenTableOptions<unknown>;
  /** Attributes results leave out: key attributes and the type attribute (storage details). */
  readonly strip: ReadonlySet<string>;
  /** The hooks of versioned, timestamped and unique entities' writes (`maintainedWrites`); set whenever the model has such an entity. */
  readonly maintained?: MaintainedWrites;
  /** Carries the manifest's type; never set. */
  readonly manifestType?: M;
}

/**
 * Opens the table, once per container, outside the handler. In a function `SingleTable.connect`
 * connected, the model is the one the stack deployed (`SINGLE_TABLE_MODEL`, a file the construct
 * ships with the function) and the table name TABLE_NAME: call it with the manifest's type only.
 * Tests and scripts pass `model`, a compiled model file (`single-table generate`).
 *
 *     import type { manifest } from './manifest';
 *     const table = openTable<typeof manifest>();
 */
export function openTable<M = SingleTableManifest>(options: OpenTableOptions<M> = {}): Table<M> {
  const { model } = options;
  return tableOf<M>(model === undefined ? deployedModel() : loadModel(model), options, model !== undefined);
}

/**
 * The table of a loaded model: table name, SDK client, and the maintained-write hooks when given;
 * a model the code carries (`carried`) is checked against the deployed manifest's fingerprint.
 */
export function tableOf<M>(model: TableModel, options: OpenTableOptions<unknown>, carried: boolean): Table<M> {
  return {
    model,
    access: model,
    ...connect(carried ? model.fingerprint : undefined, options),
    strip: new Set([...writtenKeyAttributes(model), model.typeAttribute]),
    maintained: options.maintainedWrites,
  };
}

/**
 * The hooks a write of `entity` needs. Throws MAINTAINED_WRITES_MISSING, before any request, when
 * the entity keeps a version, timestamps or unique values and the table was opened without
 * `maintainedWrites`: the write would skip them (a lost update, a stale updatedAt, a value held
 * twice). Checked by the writes, not by openTable, so a handler that only reads such entities
 * carries none of their code.
 */
export function maintainedFor(table: Pick<Table<unknown>, 'model' | 'maintained'>, entityName: string): MaintainedWrites | undefined {
  // What the entity keeps: none for a plain entity (or an unknown one, which the write refuses by name).
  const { version, timestamps, unique }: Partial<EntityModel> = table.model.entities[entityName] ?? {};
  const kept = [version && `version ${version}`, timestamps && 'timestamps', unique && `unique ${unique}`].filter(Boolean);
  if (kept.length && !table.maintained) {
    throw new SingleTableError('MAINTAINED_WRITES_MISSING',
      `keeps ${kept.join(', ')}: its writes need openTable({ maintainedWrites })`, { entity: entityName });
  }
  return table.maintained;
}

/** What every table holds besides its model: the table name, the SDK client and the options, once the fingerprint (if any) is checked. */
export function connect(fingerprint: string | undefined, options: OpenTableOptions<unknown>): Pick<Table, 'tableName' | 'dynamodb' | 'options'> {
  const tableName = options.tableName ?? process.env[TABLE_NAME_ENV];
  if (!tableName) throw new SingleTableError('TABLE_NAME_MISSING', `pass \`tableName\` in the options or set the ${TABLE_NAME_ENV} environment variable`);
  if (fingerprint !== undefined) checkFingerprint(fingerprint);
  return { tableName, dynamodb: options.client ?? new DynamoDBClient({}), options };
}

/** One item collection's size estimate, as a write on a table with LSIs returned it. */
export interface ItemCollectionEstimate {
  /** The table written to. */
  readonly tableName: string;
  /** The collection's partition key value (as stored, e.g. `CUSTOMER#ann`). */
  readonly partitionKey?: string;
  /** The estimate's lower bound, in GB. */
  readonly lowerBoundGB: number;
  /** The estimate's upper bound, in GB; DynamoDB rejects writes that take a collection past 10 GB. */
  readonly upperBoundGB: number;
}

/**
 * What the runtime does with the size estimates writes return on a table with LSIs:
 * - `'emf'`: one CloudWatch Embedded Metric Format line per estimate on stdout (the metric the
 *   construct's item collection alarm watches), and a warning from 8 GB;
 * - `'off'`: writes do not ask for estimates, and nothing is logged;
 * - a function: called with each estimate (the write has succeeded; an error it throws is logged,
 *   never thrown to the writer).
 */
export type ItemCollectionReporting = 'emf' | 'off' | ((estimate: ItemCollectionEstimate) => void);

/** What of a write's input tells its condition's parts apart. */
export interface ConditionalWriteInput {
  readonly ConditionExpression?: string;
  readonly ExpressionAttributeValues?: Record<string, AttributeValue>;
  readonly ReturnValuesOnConditionCheckFailure?: string;
}

/** The options of a single-item write as the unique path reads them. */
export interface UniqueWriteOptions extends Pick<UntypedUpdateItemOptions, 'readMissing'>, UpdateOperators {
  readonly mode?: string;
  readonly condition?: unknown;
  readonly remove?: readonly string[];
  readonly mustExist?: boolean;
  readonly version?: number;
}

/** A condition of a single-item write, as a command input holds it. */
export interface ConditionParts {
  readonly ConditionExpression: string;
  readonly ExpressionAttributeNames: Record<string, string>;
  readonly ExpressionAttributeValues?: Record<string, AttributeValue>;
  /** Set where the stored item tells a version conflict apart. */
  readonly ReturnValuesOnConditionCheckFailure?: 'ALL_OLD';
}

/** A put as the hooks shape it: the item with the attributes the runtime keeps, and a versioned entity's condition. */
export interface MaintainedPut {
  readonly item: Values;
  /** A versioned entity: the condition of the put in `mode` (undefined: the mode's own existence condition). */
  readonly condition?: (mode: string) => ConditionParts;
}

/** An update as the hooks shape it. */
export interface MaintainedUpdate {
  /** The input with the next version and updatedAt. */
  readonly input: Values;
  /** A versioned entity: the item exists at the version the update read. */
  readonly condition?: ConditionParts;
  /** Attributes the runtime sets, which no update operator may change. */
  readonly owned: readonly string[];
}

/** How a refused write is worded: the reason, and VERSION_CONFLICT with the versions expected and stored. */
export type FailureWording = (why: string, code?: 'VERSION_CONFLICT') => ConditionFailedError;

/**
 * Hooks of single-item writes (put, update, delete) for entities with a version, timestamps or
 * unique attributes: `openTable` refuses a model with such an entity without them.
 */
export interface MaintainedWrites extends VersionTimestampHooks {
  /**
   * The write of an entity with unique attributes as a transaction with its guard writes;
   * undefined when the write touches no unique value and goes as the single-item operation.
   */
  readonly unique: UniqueWrite;
}

/** The write of an entity with unique attributes (items/unique-write.ts), as the hooks hold it. */
export type UniqueWrite = (
  table: Table<unknown>, op: 'put' | 'update' | 'delete', entity: string, values: Record<string, unknown>, options: UniqueWriteOptions,
) => Promise<unknown> | undefined;

/** The hooks of the version and timestamps an entity keeps; transactions take them themselves. */
export interface VersionTimestampHooks {
  /**
   * A put's item with the next version (1 for a create) and the timestamps, and its version
   * condition, stamped `now` (ISO-8601 UTC; the current time when not given).
   */
  put(model: TableModel, entity: EntityModel, item: Values, now?: string): MaintainedPut;
  /** An update's input with the next version and updatedAt (`now`, default the current time), and its version condition. */
  update(model: TableModel, entity: EntityModel, given: Values, now?: string): MaintainedUpdate;
  /** The condition of a delete at the version the caller read. */
  deleteAt(model: TableModel, entity: EntityModel, version: number): ConditionParts;
  /** A batch put's item with the timestamps. */
  stamp(entity: EntityModel, item: Values): Values;
  /** VERSION_CONFLICT when the version is what refused the write; undefined otherwise. */
  conflict(
    entity: EntityModel, input: ConditionalWriteInput, stored: Record<string, AttributeValue>, creates: boolean, fail: FailureWording,
  ): ConditionFailedError | undefined;
}
