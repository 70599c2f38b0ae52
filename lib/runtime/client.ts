// `createClient`: resolves the manifest once (at cold start), then each call builds its command
// with the pure builders and sends it here, the one place that talks to DynamoDB. Resolution runs
// no validation rules: the stack validated this manifest at synth, and the fingerprint check below
// proves the function runs that manifest (resolve.ts).
// The Lambda runtime provides the SDK (an optional dependency of the package).
// eslint-disable-next-line import/no-extraneous-dependencies
import {
  AttributeValue,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  ItemCollectionMetrics,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
  UpdateItemCommandInput,
  WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { batchGetItems, BatchEntry, batchWriteItems, keyId } from './batch';
import { decodeCursor, encodeCursor } from './cursor';
import { TABLE_NAME_ENV } from './environment';
import { SingleTableError } from './errors';
import { fanOutQuery, FanOutState, FanOutStateError } from './fanout';
import { shardsToQuery } from './fanout-shards';
import { checkFingerprint } from './fingerprint-check';
import { reportItemCollections, withItemCollectionRequest } from './item-collections';
import { buildDelete, buildGet, buildPut, itemToWrite, keyFromInput, PutMode } from './items';
import { tableKeyNames } from './keys';
import { buildQueryInput, planQuery, QueryOptions, QueryPlan, queryBinding, shardQueryInput } from './query';
import { EntityItem, toEntityItems, toItem } from './results';
import { RetryPolicy, withThrottlingRetry } from './retry';
import type { SingleTableClient } from './types';
import { buildUpdate, UpdateOptions, updateReadingMissing } from './update';
import { entityOf, valuesText } from './values';
import { shardedKey } from '../keys/shard';
import type { TypedManifest } from '../manifest/infer';
import { TABLE_INDEX, TableModel } from '../manifest/model';
import { resolveModel } from '../manifest/resolve';
import type { SingleTableManifest } from '../manifest/structs';

/** Options of `createClient`. */
export interface ClientOptions {
  /** The SDK client. @default - a new DynamoDBClient with the environment's region and credentials */
  readonly client?: DynamoDBClient;
  /** The table name. @default - the TABLE_NAME environment variable */
  readonly tableName?: string;
  /** Retries of throttled requests and unprocessed batch items. @default - 8 attempts, 25 ms doubling to 2 s, full jitter */
  readonly retry?: RetryPolicy;
  /** Most shard queries in flight at once on a sharded index. @default - all shards */
  readonly shardConcurrency?: number;
}

type Item = Record<string, AttributeValue>;
type WriteOutput = { Attributes?: Item; ItemCollectionMetrics?: ItemCollectionMetrics };
type Values = Readonly<Record<string, unknown>>;

/** Creates the runtime client of a manifest (typed when it comes from `defineManifest`). */
export function createClient<M>(manifest: TypedManifest<M> | SingleTableManifest, options: ClientOptions = {}): SingleTableClient<M> {
  const tableName = options.tableName ?? process.env[TABLE_NAME_ENV];
  if (!tableName) throw new SingleTableError('TABLE_NAME_MISSING', `pass \`tableName\` to createClient or set the ${TABLE_NAME_ENV} environment variable`);
  const model = resolveModel(manifest);
  checkFingerprint(model.fingerprint);
  return new RuntimeClient(model, tableName, options) as unknown as SingleTableClient<M>;
}

class RuntimeClient {
  public readonly dynamodb: DynamoDBClient;
  private readonly retry: RetryPolicy;
  private readonly strip: ReadonlySet<string>;
  private readonly pk: string;
  private readonly sk: string;

  constructor(public readonly model: TableModel, public readonly tableName: string, private readonly options: ClientOptions) {
    this.dynamodb = options.client ?? new DynamoDBClient({});
    this.retry = options.retry ?? {};
    this.strip = new Set([...model.keyAttributes, model.typeAttribute]);
    this.pk = model.indexes[TABLE_INDEX].partitionKey;
    this.sk = model.indexes[TABLE_INDEX].sortKey!;
  }

  public async put(entity: string, item: Values, options: { mode?: PutMode } = {}): Promise<void> {
    const input = withItemCollectionRequest(this.model, buildPut(this.model, this.tableName, entity, item, options.mode));
    await this.write(entity, input.ConditionExpression, () => this.dynamodb.send(new PutItemCommand(input)));
  }

  public async get(entity: string, key: Values, options: { consistent?: boolean } = {}) {
    const input = buildGet(this.model, this.tableName, entity, key, options.consistent);
    const out = await this.send(() => this.dynamodb.send(new GetItemCommand(input)));
    return toItem(out.Item, this.strip);
  }

  public async update(entity: string, changes: Values, options: UpdateOptions = {}) {
    const send = (update: UpdateItemCommandInput) => {
      const input = withItemCollectionRequest(this.model, update);
      return this.write(entity, input.ConditionExpression, () => this.dynamodb.send(new UpdateItemCommand(input)));
    };
    const out = options.readMissing
      ? await updateReadingMissing(this.model, this.tableName, entity, changes, options.remove, {
        get: async (input) => (await this.send(() => this.dynamodb.send(new GetItemCommand(input)))).Item,
        update: send,
      })
      : await send(buildUpdate(this.model, this.tableName, entity, changes, options.remove));
    return toItem(out.Attributes, this.strip);
  }

  public async delete(entity: string, key: Values, options: { mustExist?: boolean } = {}) {
    const input = withItemCollectionRequest(this.model, buildDelete(this.model, this.tableName, entity, key, options.mustExist));
    const out = await this.write(entity, input.ConditionExpression, () => this.dynamodb.send(new DeleteItemCommand(input)));
    return toItem(out.Attributes, this.strip);
  }

  public async query(patternName: string, input: Values, options: QueryOptions = {}): Promise<{ items: EntityItem[]; cursor?: string }> {
    const plan = planQuery(this.model, patternName, input, options);
    const position = options.cursor === undefined ? undefined : decodeCursor(patternName, queryBinding(this.model, plan), options.cursor);
    const page = plan.index.shards
      ? await this.fanOut(plan, shardsToQuery(this.model, plan, input), position as FanOutState | undefined)
      : await this.queryOne(plan, position as Item | undefined);
    let items = page.items;
    const equal = plan.condition.excludeEqual;
    if (equal !== undefined) items = items.filter((i) => i[plan.index.sortKey!]?.S !== equal);
    if (plan.pattern.fetch === 'BATCH_GET') items = await this.hydrate(items);
    return {
      items: toEntityItems(this.model, plan.pattern, items, this.strip),
      cursor: page.next === undefined ? undefined : encodeCursor(patternName, queryBinding(this.model, plan), page.next),
    };
  }

  public async batchGet(requests: readonly { entity: string; key: Values }[], options: { consistent?: boolean } = {}) {
    const ids: string[] = [];
    const entries = new Map<string, BatchEntry<Item, { entity: string; key: Values }>>();
    for (const r of requests) {
      const key = keyFromInput(this.model, entityOf(this.model, r.entity), r.key);
      const id = this.idOf(key);
      ids.push(id);
      entries.set(id, { id, request: key, source: r });
    }
    const found = await batchGetItems(this.dynamodb, this.tableName, [...entries.values()], (k) => this.idOf(k), this.retry, options.consistent);
    return ids.map((id, i) => {
      const item = found.get(id);
      return item && { entity: requests[i].entity, item: toItem(item, this.strip)! };
    });
  }

  public async batchWrite(requests: readonly ({ type: 'put'; entity: string; item: Values } | { type: 'delete'; entity: string; key: Values })[]) {
    const entries: BatchEntry<WriteRequest, (typeof requests)[number]>[] = [];
    const seen = new Set<string>();
    for (const r of requests) {
      const entity = entityOf(this.model, r.entity);
      if (r.type !== 'put' && r.type !== 'delete') {
        throw new SingleTableError('INVALID_VALUE', `a batch write has type ${JSON.stringify((r as { type: unknown }).type)}; use 'put' or 'delete'`, { entity: entity.name });
      }
      const request: WriteRequest = r.type === 'put'
        ? { PutRequest: { Item: itemToWrite(this.model, entity, r.item) } }
        : { DeleteRequest: { Key: keyFromInput(this.model, entity, r.key) } };
      const id = this.writeId(request);
      if (seen.has(id)) {
        const key = valuesText(r.type === 'put' ? r.item : r.key, tableKeyNames(entity));
        throw new SingleTableError('DUPLICATE_BATCH_KEY', `writes the item ${key} twice in one batch; DynamoDB rejects that, keep one request per item`, { entity: r.entity });
      }
      seen.add(id);
      entries.push({ id, request, source: r });
    }
    const collections = this.model.localIndexesEnabled ? (m: ItemCollectionMetrics[]) => reportItemCollections(this.tableName, m) : undefined;
    await batchWriteItems(this.dynamodb, this.tableName, entries, (w) => this.writeId(w), this.retry, collections);
  }

  private async queryOne(plan: QueryPlan, start: Item | undefined): Promise<{ items: Item[]; next?: unknown }> {
    const input = buildQueryInput(this.model, this.tableName, plan, plan.condition.pk, start);
    const out = await this.send(() => this.dynamodb.send(new QueryCommand(input)));
    return { items: out.Items ?? [], next: out.LastEvaluatedKey };
  }

  /** A sharded GSI: one query per shard read with the same sort-key condition, merged by fanOutQuery. */
  private async fanOut(plan: QueryPlan, shards: number[], state: FanOutState | undefined): Promise<{ items: Item[]; next?: unknown }> {
    const index = plan.index;
    const base = buildQueryInput(this.model, this.tableName, plan, plan.condition.pk);
    const result = await fanOutQuery(async (shard, start, limit) => {
      const input = shardQueryInput(base, shardedKey(plan.condition.pk, shard, this.model.delimiter), start, limit);
      const out = await this.send(() => this.dynamodb.send(new QueryCommand(input)));
      return { items: out.Items ?? [], lastEvaluatedKey: out.LastEvaluatedKey };
    }, {
      shards,
      limit: plan.limit ?? 100,
      descending: plan.descending,
      sortKey: index.sortKey ?? this.pk,
      sorted: index.sortKey !== undefined,
      tieBreakKeys: [this.pk, this.sk],
      partitionKey: { attribute: index.partitionKey, valueOf: (shard) => shardedKey(plan.condition.pk, shard, this.model.delimiter) },
      concurrency: this.options.shardConcurrency,
      state,
    }).catch((e: unknown) => {
      // A cursor whose shard positions do not fit (an older runtime's, or another shard layout) is a bad cursor.
      if (e instanceof FanOutStateError) throw new SingleTableError('INVALID_CURSOR', e.message, { pattern: plan.pattern.name, cause: e });
      throw e;
    });
    return { items: result.items, next: result.state };
  }

  /** Full items for index entries that lack attributes, in the query's order. */
  private async hydrate(entries: Item[]): Promise<Item[]> {
    if (entries.length === 0) return entries;
    const unique = new Map<string, BatchEntry<Item, Item>>();
    for (const e of entries) {
      const key = { [this.pk]: e[this.pk], [this.sk]: e[this.sk] };
      const id = this.idOf(key);
      unique.set(id, { id, request: key, source: key });
    }
    const found = await batchGetItems(this.dynamodb, this.tableName, [...unique.values()], (k) => this.idOf(k), this.retry);
    // An entry whose item was deleted since the index was read has nothing to return.
    return entries.map((e) => found.get(this.idOf(e))).filter((i): i is Item => i !== undefined);
  }

  private idOf(key: Item): string {
    return keyId(key, this.pk, this.sk);
  }

  private writeId(request: WriteRequest): string {
    return this.idOf((request.PutRequest?.Item ?? request.DeleteRequest?.Key)!);
  }

  private send<T>(run: () => Promise<T>): Promise<T> {
    return withThrottlingRetry(this.retry, run);
  }

  /** Sends a conditional write; a failed condition becomes CONDITION_FAILED naming the entity. */
  private async write(entity: string, condition: string | undefined, run: () => Promise<WriteOutput>): Promise<WriteOutput> {
    try {
      const out = await this.send(run);
      if (out.ItemCollectionMetrics) reportItemCollections(this.tableName, [out.ItemCollectionMetrics]);
      return out;
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') {
        const why = condition?.startsWith('attribute_not_exists') ? 'an item with this key already exists' : 'there is no item with this key';
        throw new SingleTableError('CONDITION_FAILED', why, { entity, cause: error });
      }
      throw error;
    }
  }
}
