// The context every operation takes: the model, the table name, the SDK client and the options.
// Built once per container, at cold start, from the compiled model file; the operations
// (./ops/*.ts) are plain functions over it, so a handler's bundle holds only those it calls.
import { TABLE_NAME_ENV } from './environment';
import { SingleTableError } from './errors';
import { checkFingerprint } from './fingerprint-check';
import type { ItemCollectionReporting } from './item-collections';
import { loadModel } from './load-model';
import type { MaintainedWrites } from './maintained-writes';
import type { RetryPolicy } from './retry';
import { DynamoDBClient } from './sdk';
import type { EntityModel, TableModel } from '../manifest/model';
import type { SingleTableManifest } from '../manifest/structs';
import type { ModelFile } from '../model/format';

/** Options of `openTable` (and of `createClient`). */
export interface ClientOptions {
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
 * Opens the table of a compiled model file (written by `single-table generate`): checks the file's
 * format and, against the stack's SINGLE_TABLE_FINGERPRINT, that the table was deployed from the
 * same manifest. Call it once, outside the handler.
 *
 *     import type { manifest } from './manifest';
 *     import model from './manifest.model.json';
 *     const table = openTable<typeof manifest>(model);
 */
export function openTable<M = SingleTableManifest>(document: ModelFile, options: ClientOptions = {}): TableContext<M> {
  return contextOf<M>(loadModel(document), options);
}

/** The context of a loaded model: table name, fingerprint check, SDK client, and the maintained-write hooks when given. */
export function contextOf<M>(model: TableModel, options: ClientOptions): TableContext<M> {
  return {
    model,
    ...connect(model.fingerprint, options),
    strip: new Set([...model.keyAttributes, model.typeAttribute]),
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
      `keeps ${kept.join(', ')}: its writes need openTable(model, { maintainedWrites })`, { entity: entityName });
  }
  return table.maintained;
}

/** What every context holds besides its model: the table name, the SDK client and the options, once the fingerprint is checked. */
export function connect(fingerprint: string, options: ClientOptions): Pick<TableContext, 'tableName' | 'dynamodb' | 'options'> {
  const tableName = options.tableName ?? process.env[TABLE_NAME_ENV];
  if (!tableName) throw new SingleTableError('TABLE_NAME_MISSING', `pass \`tableName\` in the options or set the ${TABLE_NAME_ENV} environment variable`);
  checkFingerprint(fingerprint);
  return { tableName, dynamodb: options.client ?? new DynamoDBClient({}), options };
}
