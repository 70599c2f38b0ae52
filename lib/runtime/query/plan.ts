// Access-pattern queries as pure plans: pattern + input + options -> key condition, index,
// order, consistency and the Query input of one partition (one shard of a sharded index).
// Everything that can be wrong with the input fails here, before any network call.
import type { AttributeValue, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { attributeKeyCondition } from './attribute-key-condition';
import { AttributeComparison, ComposedPattern, KeyCondition, keyConditionFor, KeyedPattern, PatternKeys, patternKeys } from './key-condition';
import { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, mustBe } from '../../keys/encoding';
import { didYouMean } from '../../model/closest-name';
import { IndexModel, PatternModel, populatesIndex, TableModel } from '../../model/model';
import { checkSize } from '../attributes/item-keys';
import { SingleTableError } from '../table/errors';

/** Options of one query call. */
export interface UntypedQueryOptions {
  /** Most items in the page. @default - DynamoDB's 1 MB page (sharded indexes: 100) */
  readonly limit?: number;
  /** Result order. @default - the pattern's order */
  readonly order?: 'asc' | 'desc';
  /** Strongly consistent read (table and LSIs only). @default - the pattern's setting */
  readonly consistent?: boolean;
  /** The cursor a previous page returned. @default - first page */
  readonly cursor?: string;
}

/** What buildQueryInput and queryBinding read of a query: a QueryPlan, or what a generated module builds for one. */
export interface BoundQuery {
  readonly pattern: Pick<PatternModel, 'index' | 'fetch'>;
  readonly index: Pick<IndexModel, 'name' | 'type' | 'partitionKey' | 'sortKey' | 'shards'>;
  readonly condition: KeyCondition;
  readonly descending: boolean;
  readonly consistent: boolean;
  readonly limit?: number;
  /** Keeps other entities sharing the partition out (only where the index holds the type attribute). */
  readonly typeFilter?: string[];
  /** Adds the read options (filter, projection) to a built Query input. @default - none */
  readonly finish?: (input: QueryCommandInput) => void;
}

/** A validated query, ready to send. */
export interface QueryPlan extends BoundQuery {
  readonly pattern: PatternModel;
  readonly index: IndexModel;
}

const NO_OPTIONS: UntypedQueryOptions = {};

/** Plans a pattern's query; throws on any bad input. */
export function planQuery(
  model: TableModel, patternName: string, input: Readonly<Record<string, unknown>>, options: UntypedQueryOptions = NO_OPTIONS,
): QueryPlan {
  const pattern = Object.hasOwn(model.patterns, patternName) ? model.patterns[patternName] : undefined;
  if (!pattern) {
    throw new SingleTableError('UNKNOWN_PATTERN', `is not declared in the manifest; ${didYouMean(patternName, Object.keys(model.patterns))}known patterns: ${Object.keys(model.patterns).join(', ')}`, { pattern: String(patternName) });
  }
  const { index, keys, typeFilter, shardSuffix } = preparedFor(model, pattern);
  const descending = readOptions(pattern, index, options);
  const consistent = options.consistent ?? pattern.consistentRead;
  const condition = keys ? keyConditionFor(model, pattern as KeyedPattern, input, keys) : attributeKeyCondition(pattern, index, input);
  checkKeySizes(pattern, index, condition, shardSuffix);
  return { pattern, index, condition, descending, consistent, limit: options.limit, typeFilter };
}

/**
 * Checks a query's options against its pattern's index; throws on a bad option. Returns whether it
 * reads in descending order (the option, else the pattern's order); its consistency is
 * `options.consistent ?? pattern.consistentRead`.
 */
export function readOptions(
  pattern: Pick<PatternModel, 'name' | 'consistentRead' | 'order'>, index: Pick<IndexModel, 'name' | 'type'>, options: UntypedQueryOptions,
): boolean {
  const { limit, order } = options;
  if ((options.consistent ?? pattern.consistentRead) && index.type === 'GSI') {
    throw new SingleTableError('CONSISTENT_READ_ON_GSI', `queries GSI ${index.name}, which is only eventually consistent; drop \`consistent\`, or query the table or an LSI`, { pattern: pattern.name });
  }
  const invalid = limit !== undefined && !(Number.isInteger(limit) && limit > 0) ? 'limit ' + mustBe('a positive whole number', limit)
    : order !== undefined && order !== 'asc' && order !== 'desc' && 'order ' + mustBe("'asc' or 'desc'", order);
  if (invalid) throw new SingleTableError('INVALID_QUERY_INPUT', invalid, { pattern: pattern.name });
  return order ? order === 'desc' : pattern.order === 'DESCENDING';
}

/** What every query of a pattern shares: its index, compiled keys, type filter and shard suffix length. */
interface PreparedPattern {
  readonly index: IndexModel;
  /** Undefined on a multi-attribute GSI, which composes no key. */
  readonly keys?: PatternKeys;
  readonly typeFilter?: string[];
  /** A sharded partition key also carries the delimiter and the largest shard number. */
  readonly shardSuffix: number;
}

// Worked out once per pattern (the model is frozen), so planning a query costs one lookup here.
const prepared = new WeakMap<PatternModel, PreparedPattern>();

function preparedFor(model: TableModel, pattern: PatternModel): PreparedPattern {
  let p = prepared.get(pattern);
  if (!p) {
    const index = model.indexes[pattern.index];
    p = {
      index,
      keys: pattern.pk && patternKeys(model, pattern as ComposedPattern),
      typeFilter: typeFilterOf(model, pattern, index),
      shardSuffix: shardSuffixOf(index),
    };
    prepared.set(pattern, p);
  }
  return p;
}

/**
 * DynamoDB refuses a query whose key values exceed the key size limits (a ValidationException),
 * though no stored key could match them; local engines answer with an empty page.
 */
export function checkKeySizes(
  pattern: Pick<PatternModel, 'name'>, index: Pick<IndexModel, 'partitionKey' | 'sortKey' | 'shards'>, condition: KeyCondition, shardSuffix = shardSuffixOf(index),
): void {
  checkSize(pattern, index.partitionKey, condition.pk, MAX_PARTITION_KEY_BYTES, shardSuffix);
  const sk = condition.sk;
  for (const bound of sk ? [sk.lo, sk.hi] : []) if (bound !== undefined) checkSize(pattern, index.sortKey!, bound, MAX_SORT_KEY_BYTES, 0);
}

/** A sharded composed partition key also carries the delimiter and the largest shard number (a multi-attribute GSI's shard is an attribute of its own). */
function shardSuffixOf(index: Pick<IndexModel, 'shards'>): number {
  return index.shards && !index.shards.keyAttribute ? 1 + String(index.shards.readCount - 1).length : 0;
}

/** Identifies pattern, input and order, so a cursor cannot move to another query. Only built when a cursor is. */
export function queryBinding(model: Pick<TableModel, 'fingerprint'>, plan: Pick<BoundQuery, 'index' | 'condition' | 'descending'>): string {
  // The index's name is the pattern's index.
  return JSON.stringify([plan.index.name, plan.condition, plan.descending, model.fingerprint]);
}

/** Keeps other entities sharing the index's partitions out; undefined where none can be there. */
function typeFilterOf(model: TableModel, pattern: PatternModel, index: IndexModel): string[] | undefined {
  // KEYS_ONLY indexes hold no type attribute: results.ts matches keys instead.
  if (index.projection !== 'KEYS_ONLY' && Object.values(model.entities).some((e) => populatesIndex(e, index) && !pattern.entities.includes(e.name))) {
    return pattern.entities.map((e) => model.entities[e].typeValue);
  }
  return undefined;
}

/** The Query input for one partition key value (a shard's, on a sharded index). */
export function buildQueryInput(
  model: Pick<TableModel, 'typeAttribute'>,
  tableName: string,
  plan: BoundQuery,
  partitionKey: string,
  exclusiveStartKey?: Record<string, AttributeValue>,
  limit = plan.limit,
): QueryCommandInput {
  const { index, condition } = plan;
  const names: Record<string, string> = {};
  const values: Record<string, AttributeValue> = {};
  let expression: string;
  if (condition.attributes) {
    expression = attributeKeyExpression(condition.attributes, names, values);
    const shard = index.shards?.keyAttribute;
    if (shard) {
      // A shard's query gives its number (shardQueryInput).
      names['#shard'] = shard;
      values[':shard'] = { N: '0' };
      expression += ' AND #shard = :shard';
    }
  } else {
    names['#pk'] = index.partitionKey;
    values[':pk'] = { S: partitionKey };
    expression = '#pk = :pk';
  }
  if (condition.sk) {
    names['#sk'] = index.sortKey!;
    expression += ' AND ' + condition.sk.expression;
    if (condition.sk.lo !== undefined) values[':lo'] = { S: condition.sk.lo };
    if (condition.sk.hi !== undefined) values[':hi'] = { S: condition.sk.hi };
  }
  // One literal per shape: a property added to a literal later does not fit its in-object slots
  // and costs the input a second allocation.
  const input: QueryCommandInput = index.type === 'TABLE'
    ? {
      TableName: tableName,
      KeyConditionExpression: expression,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: !plan.descending,
    }
    : {
      TableName: tableName,
      IndexName: index.name,
      KeyConditionExpression: expression,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: !plan.descending,
    };
  if (plan.consistent) input.ConsistentRead = true;
  if (limit !== undefined) input.Limit = limit;
  if (exclusiveStartKey) input.ExclusiveStartKey = exclusiveStartKey;
  // LSI: ask for every attribute and DynamoDB fetches the unprojected ones from the table.
  if (plan.pattern.fetch === 'LSI_FETCH') input.Select = 'ALL_ATTRIBUTES';
  if (plan.typeFilter) {
    names['#type'] = model.typeAttribute;
    input.FilterExpression = `#type IN (${plan.typeFilter.map((t, i) => {
      values[`:t${i}`] = { S: t };
      return `:t${i}`;
    }).join(', ')})`;
  }
  plan.finish?.(input);
  return input;
}

/**
 * The Query input of one shard request of a fan-out: the query's input, built once by
 * buildQueryInput, with the shard's value (`:pk`, a composed partition key's; `:shard`, a
 * multi-attribute GSI's shard attribute's), start and limit; the rest is shared.
 */
export function shardQueryInput(
  base: QueryCommandInput,
  placeholder: ':pk' | ':shard',
  value: AttributeValue,
  exclusiveStartKey: Record<string, AttributeValue> | undefined,
  limit: number,
): QueryCommandInput {
  const input: QueryCommandInput = { ...base, ExpressionAttributeValues: { ...base.ExpressionAttributeValues, [placeholder]: value }, Limit: limit };
  if (exclusiveStartKey) input.ExclusiveStartKey = exclusiveStartKey;
  return input;
}

/** A multi-attribute GSI's key condition: its comparisons joined by AND, names `#k<n>`, values `:k<n>` (and `:k<n>b`). */
function attributeKeyExpression(
  comparisons: readonly AttributeComparison[], names: Record<string, string>, values: Record<string, AttributeValue>,
): string {
  return comparisons.map((c, i) => {
    names[`#k${i}`] = c.attribute;
    values[`:k${i}`] = c.values[0];
    if (c.operator === 'begins_with') return `begins_with(#k${i}, :k${i})`;
    if (c.operator !== 'BETWEEN') return `#k${i} ${c.operator} :k${i}`;
    values[`:k${i}b`] = c.values[1];
    return `#k${i} BETWEEN :k${i} AND :k${i}b`;
  }).join(' AND ');
}
