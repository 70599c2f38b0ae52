// Query for a generated access module, with the same checks, request, results and cursors as
// `query`. A pattern of one partition of an index whose entries carry the type attribute
// runs here (queryPattern): its request is the fixed part the generator wrote (buildQueryInput's,
// see lib/generate/access-module.ts) with the key values filled in. The others (sharded, fetched,
// keys decoded) read through their slice reader (readPattern, ./slice-read.ts). The key condition
// is the pattern's own function: `partitionCondition` for a pattern without a sort-key condition,
// `sortKeyCondition` (the runtime's full key condition) for the others, whose request also gets
// its sort-key part, bounds checked, and the filter of its results from `sortKeyRequest`; so a
// handler whose patterns have none carries none of the range code.
import type { AttributeValue, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import type { SliceReader } from './slice-read';
import { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES } from '../../keys/encoding';
import { composeParts, partsSource, partsTemplate, TemplateParts } from '../../keys/template';
import type { SortKeyCondition } from '../../model/manifest';
import type { IndexModel, PatternModel, SortKeyCoverage } from '../../model/model';
import { checkSize, keyError } from '../attributes/item-keys';
import { fromItem } from '../attributes/marshall';
import { decodeCursor, encodeCursor } from '../query/cursor';
import { checkNames, KeyCondition, keyConditionFor, KeyedPattern, keysOf, NamedPattern, PatternKeys, plainKey } from '../query/key-condition';
import { paged, Paged, PagingOptions } from '../query/pages';
import { checkKeySizes, UntypedQueryOptions, queryBinding, readOptions } from '../query/plan';
import { OptionedRead, optionedRead, UntypedReadOptions } from '../query/read-options';
import { EntityItem, keptOnly, toEntityItems } from '../query/results';
import type { AccessModel, Table } from '../table/context';
import { QueryCommand } from '../table/sdk';
import { send } from '../table/send';

type Input = Readonly<Record<string, unknown>>;
type Page = Promise<{ items: EntityItem[]; cursor?: string }>;

/** The options of a generated query: the runtime's `query` options, untyped (the module types them from the manifest). */
export type PatternOptions = UntypedQueryOptions & UntypedReadOptions & PagingOptions;

/** The index a generated query reads: the facts of it that the request, the checks and the fan-out read (one per index in a module). */
export type IndexSlot = Pick<IndexModel, 'name' | 'type' | 'partitionKey' | 'sortKey' | 'shards'>;

/** What every generated query reads of its pattern. */
interface PatternBase extends Pick<PatternModel, 'name'>, Partial<Pick<PatternModel, 'order' | 'consistentRead'>> {
  /** The index it queries. */
  readonly slot: IndexSlot;
  /** Its key condition from the input (`name`: the pattern's, which its errors name). */
  readonly condition: (model: AccessModel, input: Input, name: string) => KeyCondition;
}

/** What the query of a pattern of one partition reads of it. */
export interface PatternAccess extends PatternBase {
  /** Entity name by type value, of the entities it returns. */
  readonly types: Readonly<Record<string, string>>;
  /**
   * Its request from the table name, the partition key value and the order: what buildQueryInput
   * writes for it (index, key condition, names, type filter) without consistency, limit and start,
   * as one literal.
   */
  readonly request: (tableName: string, pk: string, forward: boolean) => QueryCommandInput;
  /** Adds a sort-key condition to the request, and says what its results leave out: `sortKeyRequest`, on a pattern that has one. @default - none */
  readonly withSortKey?: typeof sortKeyRequest;
}

/** What the query of a sharded, fetched or key-decoded pattern reads of it. */
export interface SlicedPatternAccess extends PatternBase {
  /** The type values a filter keeps, where other entities share the index. @default - no filter */
  readonly typeFilter?: string[];
  /** Reads a page through the pattern's slice of the model. */
  readonly read: SliceReader;
}

/**
 * The key condition of a pattern without a sort-key condition: the partition key, composed from
 * its template's parts. `sortKey` is the source of the index's sort key template, which the error
 * of an unused input names.
 */
export function partitionCondition(parts: TemplateParts, sortKey?: string): PatternBase['condition'] {
  const source = partsSource(parts);
  // The parts' attributes are every third part from the second; no literal part is an attribute's name.
  const used = (input: string) => parts.indexOf(input) % 3 === 1;
  let pattern: NamedPattern | undefined;
  // plainKey reads query inputs only (puts compose through composeParts), so V8 keeps its property
  // reads specialized to them.
  return (model, input, name) => {
    const plain = plainKey(parts, input, model.escapeChar);
    if (plain !== undefined) return { pk: plain };
    pattern ??= { name, sortKeyCondition: 'NONE' as SortKeyCondition, pk: { source }, sk: sortKey ? { source: sortKey } : undefined };
    checkNames(pattern, input, used);
    const pk = composeParts(parts, input, model.escapeChar);
    if (typeof pk !== 'string') throw keyError({ pattern: name }, pk, `is needed for the partition key ${source}`);
    return { pk };
  };
}

/**
 * The key condition of a pattern with a sort-key condition (see keyConditionFor), its key templates
 * given as their parts: the sources and attributes that the condition's errors name follow from them.
 */
export function sortKeyCondition(
  condition: `${SortKeyCondition}`, pk: TemplateParts, sk?: TemplateParts, skCoverage?: `${SortKeyCoverage}`,
): PatternBase['condition'] {
  let keyed: KeyedPattern | undefined;
  let keys: PatternKeys | undefined;
  return (model, input, name) => {
    keyed ??= {
      name,
      sortKeyCondition: condition as SortKeyCondition,
      skCoverage: skCoverage as SortKeyCoverage,
      pk: partsTemplate(pk),
      sk: sk && partsTemplate(sk),
    };
    keys ??= keysOf(pk, sk, model.delimiter);
    return keyConditionFor(model, keyed, input, keys);
  };
}

/**
 * The sort-key part of a request, as buildQueryInput writes it for a condition with a sort key,
 * its bounds checked against DynamoDB's sort key size limit (as checkKeySizes checks them).
 * Returns what the results leave out: for `<` with a literal floor, the floor's own key (BETWEEN
 * is inclusive); undefined when they keep every item of the pattern's entities.
 */
export function sortKeyRequest(request: QueryCommandInput, pattern: PatternBase, condition: KeyCondition): LeftOut | undefined {
  const sk = condition.sk!;
  const attribute = pattern.slot.sortKey!;
  const values = request.ExpressionAttributeValues!;
  if (sk.lo !== undefined) values[':lo'] = { S: checkSize(pattern, attribute, sk.lo, MAX_SORT_KEY_BYTES, 0) };
  if (sk.hi !== undefined) values[':hi'] = { S: checkSize(pattern, attribute, sk.hi, MAX_SORT_KEY_BYTES, 0) };
  request.ExpressionAttributeNames = { ...request.ExpressionAttributeNames, '#sk': attribute };
  request.KeyConditionExpression += ' AND ' + sk.expression;
  const equal = condition.excludeEqual;
  return equal === undefined ? undefined : (item) => item[attribute]?.S === equal;
}

/** Whether a returned item is left out of the results. */
type LeftOut = (item: Record<string, AttributeValue>) => boolean;

/** What a call without options gets (one object, not one per call). */
const NO_OPTIONS: PatternOptions = {};

/**
 * The read options (filter, attributes) of a query, checked as `query` checks them, against the
 * pattern's entities and index as the whole model declares them (which the table then loads);
 * undefined without either.
 */
function optioned(table: Table<unknown>, pattern: PatternBase, options: UntypedReadOptions): OptionedRead | undefined {
  if (options.filter === undefined && options.attributes === undefined) return undefined;
  const { model } = table;
  const declared = model.patterns[pattern.name];
  return optionedRead(model, model.indexes[pattern.slot.name], declared.entities, options, { pattern: pattern.name }, declared);
}

/** The pattern's defaults: ascending, eventually consistent (readOptions reads these two only). */
type Defaults = Pick<PatternModel, 'name' | 'order' | 'consistentRead'>;

/** The checks a sliced read runs before it reads: options, key condition, key sizes, read options, and the cursor's position. */
function prepare(table: Table<unknown>, pattern: SlicedPatternAccess, input: Input, options: PatternOptions) {
  const descending = readOptions(pattern as Defaults, pattern.slot, options);
  const condition = pattern.condition(table.access, input, pattern.name);
  checkKeySizes(pattern, pattern.slot, condition);
  const read = optioned(table, pattern, options);
  // The slice reader puts the pattern of its slice in its plan; the attributes asked for may decide the fetch.
  const plan = {
    index: pattern.slot,
    condition,
    descending,
    consistent: (options.consistent ?? pattern.consistentRead) === true,
    limit: options.limit,
    typeFilter: pattern.typeFilter,
    finish: read?.finish,
    fetch: read?.fetch,
  };
  const start = options.cursor === undefined ? undefined : decodeCursor(pattern.name, queryBinding(table.access, plan), options.cursor);
  return { plan, start, keep: read?.shape?.keep };
}

/**
 * The Query request of a pattern of one partition, checked, with what its results and cursor read
 * (the index, the key condition, the order): everything queryPattern does before it sends. The
 * checks run in the order the generic query runs them: options, key condition, key sizes, cursor.
 */
export function patternRequest(table: Table<unknown>, pattern: PatternAccess, input: Input, options = NO_OPTIONS) {
  const descending = readOptions(pattern as Defaults, pattern.slot, options);
  const condition = pattern.condition(table.access, input, pattern.name);
  // One partition: never a sharded index, so the key is the whole partition key value.
  const pk = checkSize(pattern, pattern.slot.partitionKey, condition.pk, MAX_PARTITION_KEY_BYTES, 0);
  const read = optioned(table, pattern, options);
  const request = pattern.request(table.tableName, pk, !descending);
  const leftOut = condition.sk && pattern.withSortKey!(request, pattern, condition);
  const bound = { request, index: pattern.slot, condition, descending, leftOut, shape: read?.shape };
  if (options.consistent ?? pattern.consistentRead) request.ConsistentRead = true;
  if (options.limit !== undefined) request.Limit = options.limit;
  if (options.cursor !== undefined) {
    request.ExclusiveStartKey = decodeCursor(pattern.name, queryBinding(table.access, bound), options.cursor) as Record<string, AttributeValue>;
  }
  // Last, as buildQueryInput adds them: the projection and the filter.
  read?.finish(request);
  return bound;
}

/** Runs an access pattern of one partition: one page of typed results, and a cursor when there may be more. */
export async function queryPattern(table: Table<unknown>, pattern: PatternAccess, input: Input, options?: PatternOptions): Page {
  const bound = patternRequest(table, pattern, input, options);
  const out = await send(table, () => table.dynamodb.send(new QueryCommand(bound.request)));
  let items: EntityItem[] = [];
  const { shape, leftOut } = bound;
  if (shape) {
    // With `attributes`, results are made as the runtime's query makes them (a keys-only index's entries have no type attribute).
    const entries = (out.Items ?? []).filter((raw) => !leftOut?.(raw));
    items = keptOnly(toEntityItems(table.model, table.model.patterns[pattern.name].entities, entries, table.strip, shape), shape.keep);
  } else {
    for (const raw of out.Items ?? []) {
      const type = raw[table.access.typeAttribute]?.S ?? '';
      // Left out: another entity's item, and what the sort-key condition leaves out.
      if (!Object.hasOwn(pattern.types, type) || leftOut?.(raw)) continue;
      items.push({ entity: pattern.types[type], item: fromItem(raw, table.strip) });
    }
  }
  const cursor = out.LastEvaluatedKey && encodeCursor(pattern.name, queryBinding(table.access, bound), out.LastEvaluatedKey);
  return { items, cursor };
}

/** Runs a sharded, fetched or key-decoded access pattern through its slice reader. */
export async function readPattern(table: Table<unknown>, pattern: SlicedPatternAccess, input: Input, options = NO_OPTIONS): Page {
  const { plan, start, keep } = prepare(table, pattern, input, options);
  const page = await pattern.read(table, plan, input, start, pattern.name);
  const cursor = page.next === undefined ? undefined : encodeCursor(pattern.name, queryBinding(table.access, plan), page.next);
  return { items: keptOnly(page.items, keep), cursor };
}

/**
 * A generated module's `query`: as the runtime's, `await` it for one page (or `pages` of them),
 * iterate it with `for await` for every page; each page read by `read` (queryPattern or readPattern).
 * The pattern is looked up (`find`) when a page is read, so an unknown name rejects, as the runtime's does.
 */
export function pagedQuery<P>(
  table: Table<unknown>, find: () => P, input: Input, options: PatternOptions = NO_OPTIONS,
  read: (table: Table<unknown>, pattern: P, input: Input, options: PatternOptions) => Page,
): Paged<EntityItem> {
  return paged(async (cursor) => read(table, find(), input, cursor === options.cursor ? options : { ...options, cursor }), options);
}
