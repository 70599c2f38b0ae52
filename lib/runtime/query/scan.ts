// Scan of the table by entity: a filter on the type attribute keeps the asked entities, parallel
// segments (Segment / TotalSegments) are read at once, and one cursor holds every segment's
// position, so a scan resumes where it stopped, segment by segment.
import type { AttributeValue, ScanCommandInput } from '@aws-sdk/client-dynamodb';
import { decodeCursor, encodeCursor } from './cursor';
import { paged, Paged, PagingOptions, QueryPage } from './pages';
import { optionedRead, UntypedReadOptions } from './read-options';
import { EntityItem, keptOnly, ResultShape, toEntityItems } from './results';
import type { EntityName } from '../../model/infer';
import { TABLE_INDEX, TableModel } from '../../model/model';
import { entityOf } from '../attributes/values';
import type { Table } from '../table/context';
import { SingleTableError } from '../table/errors';
import { ScanCommand } from '../table/sdk';
import { send } from '../table/send';
import type { AttributeNameOf, ReadOptions, SelectedItem } from '../types';

type Item = Record<string, AttributeValue>;

/** Options of `scan`; `filter` and `attributes` apply as on queries. */
export type ScanOptions<M = unknown, E extends EntityName<M> = EntityName<M>, A extends string = string> = ReadOptions<M, E, A> & {
  /** The entities to return; the scan filters on the type attribute. @default - every entity */
  readonly entities?: readonly E[];
  /** Splits the table into this many segments (TotalSegments), read in parallel. @default - one sequential scan */
  readonly segments?: number;
  /** Reads only this segment of `segments` (0 to segments - 1), for one worker of a parallel scan. @default - every segment */
  readonly segment?: number;
  /**
   * Most items in the page, spread over the segments read. With a filter (the type filter
   * included), DynamoDB counts the items it reads, not those it returns, so a page can hold fewer.
   * @default - one DynamoDB page (1 MB read) of each segment
   */
  readonly limit?: number;
  /** Strongly consistent reads. @default false */
  readonly consistent?: boolean;
  /** The cursor a previous page returned, with the same `segments` and `segment`. @default - the start */
  readonly cursor?: string;
} & Pick<PagingOptions, 'pages'>;

/**
 * Where each segment read stands: the table key of the last item it read or returned, 0 before
 * its first read, 1 once it has nothing more.
 */
type Position = ([string, string] | 0 | 1)[];

const CURSOR_NAME = 'scan';

/**
 * Scans the table's items of `entities`, tagged by entity: `await` it for one page (`cursor` is set
 * while some segment has more), or iterate it with `for await` for every page.
 */
export function scan<M, E extends EntityName<M> = EntityName<M>, A extends AttributeNameOf<M, E> = never>(
  table: Table<M>,
  options: ScanOptions<M, E, A> = {},
): Paged<SelectedItem<M, E, A>> {
  return paged((cursor) => scanPage(table, cursor === options.cursor ? options : { ...options, cursor }), options) as never;
}

/** One page of a scan from `options.cursor`. */
async function scanPage(table: Table<unknown>, options: ScanOptions): Promise<QueryPage<EntityItem>> {
  const plan = planScan(table.model, table.tableName, options as never);
  const binding = JSON.stringify([options.segments, options.segment, table.model.fingerprint]);
  const position = options.cursor === undefined
    ? plan.segments.map((): 0 => 0)
    : checkPosition(decodeCursor(CURSOR_NAME, binding, options.cursor), plan.segments.length);
  const active = plan.segments.map((_, i) => i).filter((i) => position[i] !== 1);
  const limit = options.limit === undefined ? undefined : Math.ceil(options.limit / Math.max(active.length, 1));
  const pages = await Promise.all(active.map(async (i) => {
    const input: ScanCommandInput = { ...plan.input, ...plan.segments[i] };
    const at = position[i];
    if (Array.isArray(at)) input.ExclusiveStartKey = { [plan.keys[0]]: { S: at[0] }, [plan.keys[1]]: { S: at[1] } };
    if (limit !== undefined) input.Limit = limit;
    return send(table, () => table.dynamodb.send(new ScanCommand(input)));
  }));

  const items: EntityItem[] = [];
  const next: Position = [...position];
  active.forEach((i, n) => {
    const { Items = [], LastEvaluatedKey } = pages[n];
    if (options.limit !== undefined && items.length >= options.limit) return; // not taken from: read again from where it was
    let last: Item | undefined;
    for (const raw of Items) {
      if (options.limit !== undefined && items.length >= options.limit) break;
      items.push(...keptOnly(toEntityItems(table.model, plan.entities, [raw], table.strip, plan.shape), plan.shape.keep));
      last = raw;
    }
    // Stopped inside the page: the segment resumes after the last item taken, not after the page.
    next[i] = last !== Items[Items.length - 1] ? keyOf(last!, plan.keys) : LastEvaluatedKey ? keyOf(LastEvaluatedKey, plan.keys) : 1;
  });
  const more = next.some((p) => p !== 1);
  return { items, cursor: more ? encodeCursor(CURSOR_NAME, binding, next) : undefined };
}

interface ScanPlan {
  readonly entities: readonly string[];
  /** Segment / TotalSegments of each segment read ({} for a sequential scan). */
  readonly segments: Pick<ScanCommandInput, 'Segment' | 'TotalSegments'>[];
  /** The table's partition and sort key attributes. */
  readonly keys: [string, string];
  readonly input: ScanCommandInput;
  readonly shape: ResultShape;
}

/** Checks the options and builds what every segment's Scan shares; throws before any network call. */
function planScan(model: TableModel, tableName: string, options: ScanOptions<unknown, string>): ScanPlan {
  const bad = (message: string) => new SingleTableError('INVALID_QUERY_INPUT', `scan: ${message}`);
  const whole = (n: unknown, min: number, max: number) => typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;
  const { segments, segment, limit } = options;
  // DynamoDB allows up to 1,000,000 segments.
  if (segments !== undefined && !whole(segments, 1, 1_000_000)) throw bad(`segments must be a whole number from 1 to 1000000, got ${segments}`);
  if (segment !== undefined && segments === undefined) throw bad(`segment ${segment} needs segments, the number of segments the table is split into`);
  if (segment !== undefined && !whole(segment, 0, segments! - 1)) throw bad(`segment must be a whole number from 0 to ${segments! - 1} (segments - 1), got ${segment}`);
  if (limit !== undefined && !whole(limit, 1, Infinity)) throw bad(`limit must be a positive whole number, got ${limit}`);
  const entities = options.entities === undefined ? Object.keys(model.entities) : [...new Set(options.entities.map((e) => entityOf(model, e).name))];
  if (entities.length === 0) throw bad('entities is empty; name at least one entity, or leave it out to scan every entity');

  const table = model.indexes[TABLE_INDEX];
  const input: ScanCommandInput = { TableName: tableName };
  if (options.consistent) input.ConsistentRead = true;
  const names: Record<string, string> = {};
  const values: Record<string, AttributeValue> = {};
  if (options.entities !== undefined) {
    // Entities left out are filtered out by DynamoDB; left in, items outside the model are dropped on return.
    names['#type'] = model.typeAttribute;
    const types = entities.map((e, i) => {
      values[`:t${i}`] = { S: model.entities[e].typeValue };
      return `:t${i}`;
    });
    // IN takes at most 100 operands.
    const groups: string[] = [];
    for (let i = 0; i < types.length; i += 100) groups.push(`#type IN (${types.slice(i, i + 100).join(', ')})`);
    input.FilterExpression = groups.join(' OR ');
  }
  if (Object.keys(names).length) input.ExpressionAttributeNames = names;
  if (Object.keys(values).length) input.ExpressionAttributeValues = values;
  let shape: ResultShape = { index: TABLE_INDEX, decodeKeys: false };
  if (options.attributes !== undefined || options.filter !== undefined) {
    const read = optionedRead(model, table, entities, options as UntypedReadOptions, {});
    read.finish(input);
    shape = read.shape ?? shape;
  }
  const all = segments === undefined ? [{}] : Array.from({ length: segments }, (_, i) => ({ Segment: i, TotalSegments: segments }));
  return { entities, segments: segment === undefined ? all : [all[segment]], keys: [table.partitionKey, table.sortKey!], input, shape };
}

function keyOf(item: Item, keys: [string, string]): [string, string] {
  return [item[keys[0]].S!, item[keys[1]].S!];
}

function checkPosition(position: unknown, segments: number): Position {
  const fits = (p: unknown) => p === 0 || p === 1 || (Array.isArray(p) && p.length === 2 && p.every((k) => typeof k === 'string'));
  if (!Array.isArray(position) || position.length !== segments || !position.every(fits)) {
    throw new SingleTableError('INVALID_CURSOR', 'the cursor is not one this scan issued; start again without a cursor', { pattern: CURSOR_NAME });
  }
  return position as Position;
}
