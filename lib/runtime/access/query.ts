// Query for a generated access module, with the same checks, request, results and cursors as
// `queryShards`. A pattern of one partition of an index whose entries carry the type attribute
// runs here (queryPattern): its request is the fixed part the generator wrote (buildQueryInput's,
// see lib/model/access-module.ts) with the key values filled in. The others (sharded, fetched,
// keys decoded) read through their slice reader (readPattern, ./slice-read.ts). The key condition
// is the pattern's own function: `partitionCondition` for a pattern without a sort-key condition,
// `sortKeyCondition` (the runtime's full key condition) for the others, whose request also gets
// its sort-key part from `sortKeyRequest`; so a handler whose patterns have none carries none of
// the range code.
import type { AttributeValue, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '../sdk';
import type { AccessModel, AccessTable } from './table';
import { composeParts, partsSource, partsTemplate, TemplateParts } from '../../keys/template';
import type { IndexModel, PatternModel, SortKeyCoverage } from '../../manifest/model';
import type { SortKeyCondition } from '../../manifest/structs';
import { decodeCursor, encodeCursor } from '../cursor';
import { checkNames, composeError, KeyCondition, keyConditionFor, KeyedPattern, keysOf, PatternKeys } from '../key-condition';
import { fromItem } from '../marshall';
import type { SliceReader } from './slice-read';
import { checkKeySizes, QueryOptions, queryBinding, readOptions } from '../query';
import type { EntityItem } from '../results';
import { send } from '../send';

type Input = Readonly<Record<string, unknown>>;
type Page = Promise<{ items: EntityItem[]; cursor?: string }>;

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
  /** Adds a sort-key condition to the request: `sortKeyRequest`, on a pattern that has one. @default - none */
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
  // partsTemplate's attributes, written out: the one-partition query of a put + query handler is
  // byte-counted, and this is its only use of the parts' attributes.
  const attributes = parts.filter((_, i) => i % 3 === 1) as string[];
  const used = (input: string) => attributes.includes(input);
  let pattern: KeyedPattern | undefined;
  return (model, input, name) => {
    pattern ??= {
      name,
      sortKeyCondition: 'NONE' as SortKeyCondition,
      pk: { source: partsSource(parts), attributes },
      sk: sortKey ? { source: sortKey, attributes: [] } : undefined,
    };
    checkNames(pattern, input, used);
    const pk = composeParts(parts, input, model.escapeChar);
    if (typeof pk !== 'string') throw composeError(pattern, pk, `is needed for the partition key ${pattern.pk.source}`);
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

/** The sort-key part of a request: as buildQueryInput writes it for a condition with a sort key. */
export function sortKeyRequest(request: QueryCommandInput, sk: NonNullable<KeyCondition['sk']>, attribute: string): void {
  request.ExpressionAttributeNames = { ...request.ExpressionAttributeNames, '#sk': attribute };
  request.KeyConditionExpression += ' AND ' + sk.expression;
  if (sk.lo !== undefined) request.ExpressionAttributeValues![':lo'] = { S: sk.lo };
  if (sk.hi !== undefined) request.ExpressionAttributeValues![':hi'] = { S: sk.hi };
}

/** The checks every query runs before sending: options, key condition, key sizes, and the cursor's position. */
function prepare(table: AccessTable<unknown>, pattern: PatternBase & { readonly typeFilter?: string[] }, input: Input, options: QueryOptions) {
  // The pattern's defaults: ascending, eventually consistent (readOptions reads these two only).
  const { consistent, descending } = readOptions(pattern as Pick<PatternModel, 'name' | 'order' | 'consistentRead'>, pattern.slot, options);
  const condition = pattern.condition(table.model, input, pattern.name);
  checkKeySizes(pattern, pattern.slot, condition);
  // The slice reader puts the pattern of its slice in its plan.
  const plan = { index: pattern.slot, condition, descending, consistent, limit: options.limit, typeFilter: pattern.typeFilter };
  return { plan, start: options.cursor === undefined ? undefined : decodeCursor(pattern.name, queryBinding(table.model, plan), options.cursor) };
}

/**
 * The Query request of a pattern of one partition, checked, and the plan its results and cursor
 * read: everything queryPattern does before it sends.
 */
export function patternRequest(table: AccessTable<unknown>, pattern: PatternAccess, input: Input, options: QueryOptions = {}) {
  const { plan, start } = prepare(table, pattern, input, options);
  const { condition } = plan;
  const request = pattern.request(table.tableName, condition.pk, !plan.descending);
  if (condition.sk) pattern.withSortKey!(request, condition.sk, pattern.slot.sortKey!);
  if (plan.consistent) request.ConsistentRead = true;
  if (plan.limit !== undefined) request.Limit = plan.limit;
  if (start) request.ExclusiveStartKey = start as Record<string, AttributeValue>;
  return { request, plan };
}

/** Runs an access pattern of one partition: one page of typed results, and a cursor when there may be more. */
export async function queryPattern(table: AccessTable<unknown>, pattern: PatternAccess, input: Input, options?: QueryOptions): Page {
  const { request, plan } = patternRequest(table, pattern, input, options);
  const out = await send(table, () => table.dynamodb.send(new QueryCommand(request)));
  const items: EntityItem[] = [];
  const equal = plan.condition.excludeEqual;
  for (const raw of out.Items ?? []) {
    const type = raw[table.model.typeAttribute]?.S ?? '';
    // Left out: another entity's item, and the `<` floor's own key (BETWEEN is inclusive).
    if (!Object.hasOwn(pattern.types, type)) continue;
    if (equal !== undefined && raw[pattern.slot.sortKey!]?.S === equal) continue;
    items.push({ entity: pattern.types[type], item: fromItem(raw, table.strip) });
  }
  return { items, cursor: out.LastEvaluatedKey && encodeCursor(pattern.name, queryBinding(table.model, plan), out.LastEvaluatedKey) };
}

/** Runs a sharded, fetched or key-decoded access pattern through its slice reader. */
export async function readPattern(table: AccessTable<unknown>, pattern: SlicedPatternAccess, input: Input, options: QueryOptions = {}): Page {
  const { plan, start } = prepare(table, pattern, input, options);
  const page = await pattern.read(table, plan, input, start, pattern.name);
  return { items: page.items, cursor: page.next === undefined ? undefined : encodeCursor(pattern.name, queryBinding(table.model, plan), page.next) };
}
