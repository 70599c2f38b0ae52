// What `single-table local` does once the engine runs: create the table (from the template, or the model), put
// the sample items and run every access pattern through the runtime client, next to the units the
// cost model expects for each write and each query.
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { MeasuredUnits, recordCapacity } from './capacity';
import { LocalEngine } from './engine';
import { FoundTemplate } from './template';
import { createTableInputFromTemplate } from '../../engine/create-table';
import { readUnits } from '../../manifest/sizes';
import { modelDocument } from '../../model/document';
import { FetchMode, IndexType, TABLE_INDEX, TableModel, writtenKeyAttributes } from '../../model/model';
import { entitySizes, EntitySizes } from '../../reports/cost-sizes';
import { writeCost, WriteKind } from '../../reports/cost-writes';
import { checkSamples } from '../../reports/html/samples';
import type { createClient as CreateClient } from '../../runtime/table/client';
import { CliError, CliIo, progress } from '../io';

/** Where the table comes from: its name in the output, and its CreateTable input. */
export interface TableSource {
  readonly name: string;
  createInput(tableName: string): CreateTableCommandInput;
}

/** The table a synthesized template declares. */
export function fromTemplate(found: FoundTemplate): TableSource {
  return { name: found.name, createInput: (tableName) => createTableInputFromTemplate(found.template, tableName) };
}

/** Sample items per entity and one input per access pattern. */
export interface LocalData {
  readonly items: { readonly [entity: string]: readonly Record<string, unknown>[] };
  readonly queries: { readonly [pattern: string]: Record<string, unknown> };
}

/** One write and what the cost model expects it to cost. */
export interface LocalWrite {
  readonly entity: string;
  readonly item: Record<string, unknown>;
  readonly expectedWriteUnits: number;
  /** What the engine reported consuming (undefined when it reports no capacity). */
  readonly measured?: MeasuredUnits;
}

/** One pattern's results and what the cost model expects its reads to cost. */
export interface LocalQuery {
  readonly pattern: string;
  readonly index: string;
  readonly input?: Record<string, unknown>;
  readonly items: { entity: string; item: Record<string, unknown> }[];
  readonly expectedReadUnits: number;
  /** What the engine reported consuming over every page and follow-up fetch. */
  readonly measured?: MeasuredUnits;
  /** Why the pattern did not run (no input in the data file). */
  readonly skipped?: string;
  /** The runtime's error, when the query failed. */
  readonly error?: string;
}

/** Everything a local run did. */
export interface LocalRun {
  readonly engine: string;
  readonly table: string;
  /** What the table was created from: a template file, or the manifest. */
  readonly from: string;
  readonly tableCreated: boolean;
  readonly writes: LocalWrite[];
  readonly queries: LocalQuery[];
  /** The key attributes of every stored item (table and index keys, type), as the table holds them. */
  readonly keys: Record<string, string>[];
}

/** Creates the table, loads the items, runs the patterns. */
export async function runLocal(
  model: TableModel,
  data: LocalData,
  source: TableSource,
  engine: LocalEngine,
  tableName: string,
  io: CliIo,
): Promise<LocalRun> {
  const tableCreated = await ensureTable(source, engine, tableName, io);
  // Loaded only here: the runtime needs @aws-sdk/client-dynamodb, which the other commands never touch.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createClient } = require('../../runtime/table/client') as { createClient: typeof CreateClient };
  const client = createClient({ model: modelDocument(model), client: engine.client, tableName });
  const capacity = recordCapacity(engine.client);

  const writes: LocalWrite[] = [];
  const total = Object.values(data.items).reduce((n, items) => n + items.length, 0);
  progress(io, `Putting ${total} sample items...`);
  for (const [entity, items] of Object.entries(data.items)) {
    for (const item of items) {
      await client.putItem(entity as never, item as never);
      const expectedWriteUnits = writeCost(model, sizesOf(model, entity, item), WriteKind.PUT).totalUnits;
      writes.push({ entity, item, expectedWriteUnits, measured: capacity.take() });
    }
  }

  const queries: LocalQuery[] = [];
  for (const pattern of Object.values(model.patterns)) {
    const input = data.queries[pattern.name];
    if (!input) {
      queries.push({ pattern: pattern.name, index: pattern.index, items: [], expectedReadUnits: 0, skipped: 'no input for it in the data file' });
      continue;
    }
    progress(io, `Running ${pattern.name}...`);
    const items: { entity: string; item: Record<string, unknown> }[] = [];
    let cursor: string | undefined;
    capacity.take();
    try {
      do {
        const page = await client.query(pattern.name as never, input as never, { cursor });
        items.push(...page.items.map((r: { entity: string; item: Record<string, unknown> }) => ({ entity: r.entity, item: r.item })));
        cursor = page.cursor;
      } while (cursor);
    } catch (e) {
      // One failing pattern is reported with the others instead of hiding their results.
      queries.push({ pattern: pattern.name, index: pattern.index, input, items: [], expectedReadUnits: 0, error: (e as Error).message });
      continue;
    }
    const expectedReadUnits = expectedReads(model, pattern.name, items);
    queries.push({ pattern: pattern.name, index: pattern.index, input, items, expectedReadUnits, measured: capacity.take() });
  }
  const keys = await storedKeys(engine, tableName, model);
  return { engine: engine.description, table: tableName, from: source.name, tableCreated, writes, queries, keys };
}

/** Every stored item's key attributes, read back with a Scan: what the table really holds. */
async function storedKeys(engine: LocalEngine, tableName: string, model: TableModel): Promise<Record<string, string>[]> {
  const names = [model.typeAttribute, ...writtenKeyAttributes(model)];
  const rows: Record<string, string>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await engine.client.send(new engine.sdk.ScanCommand({ TableName: tableName, ExclusiveStartKey: start as never }));
    for (const item of page.Items ?? []) {
      const row: Record<string, string> = {};
      for (const name of names) {
        const value = item[name];
        if (value) row[name] = value.S ?? value.N ?? (value.B ? `<${value.B.length} bytes>` : JSON.stringify(value));
      }
      rows.push(row);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  const pk = model.indexes[TABLE_INDEX].partitionKey;
  const sk = model.indexes[TABLE_INDEX].sortKey ?? '';
  return rows.sort((a, b) => (a[pk] ?? '').localeCompare(b[pk] ?? '') || (a[sk] ?? '').localeCompare(b[sk] ?? ''));
}

/**
 * Refuses a data file that does not fit the manifest, before anything is synthesized or started:
 * every error names the file, and the item's position and entity (or the pattern).
 */
export function checkData(model: TableModel, data: LocalData, file: string): void {
  const isMap = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isMap(data) || !isMap(data.items) || !isMap(data.queries)) {
    throw new CliError(`${file}: the data must be exported as \`localData\` = { items: { Entity: [item, ...] }, queries: { pattern: input } }`);
  }
  for (const [entity, items] of Object.entries(data.items)) {
    if (!Array.isArray(items)) throw new CliError(`${file}: items.${entity} must be a list of items, got ${typeof items}`);
  }
  try {
    checkSamples(model, data);
  } catch (e) {
    throw new CliError(`${file}: ${(e as Error).message}`);
  }
}

/** Creates the table unless it exists (a kept dynalite folder, or a real table); true if created. */
async function ensureTable(source: TableSource, engine: LocalEngine, tableName: string, io: CliIo): Promise<boolean> {
  const { sdk, client } = engine;
  try {
    await client.send(new sdk.DescribeTableCommand({ TableName: tableName }));
    return false;
  } catch (e) {
    if ((e as Error).name !== 'ResourceNotFoundException') throw e;
  }
  progress(io, `Creating table ${tableName} from ${source.name}...`);
  await client.send(new sdk.CreateTableCommand(source.createInput(tableName)));
  await sdk.waitUntilTableExists({ client, maxWaitTime: 300 }, { TableName: tableName });
  return true;
}

function sizesOf(model: TableModel, entity: string, item: Record<string, unknown>): EntitySizes {
  return entitySizes(model, { [entity]: item }).find((s) => s.entity === entity)!;
}

/**
 * Read units the cost model expects for what a query returned: the entries' bytes rounded up per
 * 4 KB (half when eventually consistent), each shard queried on its own (entries assumed evenly
 * spread), plus a whole-item read per entry when the pattern fetches.
 */
function expectedReads(model: TableModel, patternName: string, items: { entity: string; item: Record<string, unknown> }[]): number {
  const pattern = model.patterns[patternName];
  const index = model.indexes[pattern.index];
  let entryBytes = 0;
  let fetchUnits = 0;
  for (const { entity, item } of items) {
    const sizes = sizesOf(model, entity, item);
    entryBytes += index.type === IndexType.TABLE ? sizes.itemBytes : sizes.entryBytes[index.name];
    if (pattern.fetch !== FetchMode.NONE) fetchUnits += readUnits(sizes.itemBytes, pattern.fetch === FetchMode.LSI_FETCH && pattern.consistentRead);
  }
  const queries = index.shards?.readCount ?? 1;
  return queries * readUnits(entryBytes / queries, pattern.consistentRead) + fetchUnits;
}
