// The context every operation takes: the model, the table name, the SDK client and the options.
// Built once per container, at cold start, from the compiled model file; the operations
// (items/, query/, batch/, transact/, streams/) are plain functions over it, so a handler's
// bundle holds only those it calls.
import { SingleTableError } from './errors';
import { checkFingerprint } from './fingerprint-check';
import { deployedModel, loadModel } from './load-model';
import type { RetryPolicy } from './retry';
import { DynamoDBClient } from './sdk';
import type { SingleTableManifest } from '../../manifest/structs';
import { TABLE_NAME_ENV } from '../../model/environment';
import type { ModelFile } from '../../model/format';
import type { EntityModel, TableModel } from '../../model/model';
import { writtenKeyAttributes } from '../../model/model';
import type { ItemCollectionReporting } from '../items/item-collections';
import type { MaintainedWrites } from '../items/maintained-writes';

/** Options of `openTable` (and of `createClient`). */
export interface ClientOptions {
  /**
   * The compiled model, for tests and scripts (a `.model.json` that `single-table generate` writes);
   * checked against SINGLE_TABLE_FINGERPRINT when that is set.
   * @default - the model the stack deployed, from the file SINGLE_TABLE_MODEL names (`SingleTable.connect` sets it)
   */
  readonly model?: ModelFile;
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

/**
 * One table as the operations see it. `M` is the manifest's type (`typeof manifest` of a
 * `defineManifest` literal): it types entity names, items and pattern inputs, and costs nothing
 * at run time.
 */
export interface TableContext<M = SingleTableManifest> {
  /** The compiled model. */
  readonly model: TableModel;
  /** The table it reads and writes. */
  readonly tableName: string;
  /** The SDK client it sends with. */
  readonly dynamodb: DynamoDBClient;
  /** The options it was opened with. */
  readonly options: ClientOptions;
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
export function openTable<M = SingleTableManifest>(options: ClientOptions = {}): TableContext<M> {
  const { model } = options;
  return contextOf<M>(model === undefined ? deployedModel() : loadModel(model), options, model !== undefined);
}

/**
 * The context of a loaded model: table name, SDK client, and the maintained-write hooks when given;
 * a model the code carries (`carried`) is checked against the deployed manifest's fingerprint.
 */
export function contextOf<M>(model: TableModel, options: ClientOptions, carried: boolean): TableContext<M> {
  return {
    model,
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
export function maintainedFor(table: Pick<TableContext<unknown>, 'model' | 'maintained'>, entityName: string): MaintainedWrites | undefined {
  // What the entity keeps: none for a plain entity (or an unknown one, which the write refuses by name).
  const { version, timestamps, unique }: Partial<EntityModel> = table.model.entities[entityName] ?? {};
  const kept = [version && `version ${version}`, timestamps && 'timestamps', unique && `unique ${unique}`].filter(Boolean);
  if (kept.length && !table.maintained) {
    throw new SingleTableError('MAINTAINED_WRITES_MISSING',
      `keeps ${kept.join(', ')}: its writes need openTable({ maintainedWrites })`, { entity: entityName });
  }
  return table.maintained;
}

/** What every context holds besides its model: the table name, the SDK client and the options, once the fingerprint (if any) is checked. */
export function connect(fingerprint: string | undefined, options: ClientOptions): Pick<TableContext, 'tableName' | 'dynamodb' | 'options'> {
  const tableName = options.tableName ?? process.env[TABLE_NAME_ENV];
  if (!tableName) throw new SingleTableError('TABLE_NAME_MISSING', `pass \`tableName\` in the options or set the ${TABLE_NAME_ENV} environment variable`);
  if (fingerprint !== undefined) checkFingerprint(fingerprint);
  return { tableName, dynamodb: options.client ?? new DynamoDBClient({}), options };
}
