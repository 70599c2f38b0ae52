// Every access pattern run on the sample items, in memory: the Query the runtime would send for the
// sample input (planned by the runtime's own planner, so the view cannot drift from what is sent),
// the entries its key condition selects, and what the cost model says the pattern costs.
import type { QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { IndexEntry, IndexTable } from './index-tables';
import { shardedKey } from '../../keys/shard';
import { PatternModel, TableModel } from '../../model/model';
import { compareUtf8 } from '../../runtime/query/fanout-order';
import { KeyCondition } from '../../runtime/query/key-condition';
import { buildQueryInput, planQuery, QueryPlan } from '../../runtime/query/plan';
import { PatternReadCost } from '../cost-reads';
import { keyCondition } from '../pattern-table';

/** One access pattern with its example query on the samples. */
export interface PatternExample {
  readonly pattern: PatternModel;
  /** The key condition with templates in place of values, as the design document prints it. */
  readonly template: string;
  /** The sample input. */
  readonly input: Record<string, unknown>;
  /** Whether the input was made up from the manifest rather than taken from the sample data. */
  readonly generatedInput: boolean;
  /** The Query input for the first partition key value. @default - the input was refused (see error) */
  readonly query?: QueryCommandInput;
  /** The key condition with the values in place, as DynamoDB evaluates it. @default - refused input */
  readonly keyCondition?: string;
  /** Every partition key value queried: one, or one per shard of a sharded index. */
  readonly partitionKeys: readonly string[];
  /** The entries the query returns, in the order it returns them. */
  readonly results: readonly IndexEntry[];
  /** Why the runtime refuses the input. @default - it accepts it */
  readonly error?: string;
  /** The cost model's read figures for the pattern. */
  readonly cost?: PatternReadCost;
}

/** The example of every pattern, in model order. */
export function patternExamples(
  model: TableModel,
  tables: readonly IndexTable[],
  queries: { readonly [pattern: string]: Record<string, unknown> },
  generated: ReadonlySet<string>,
  costs: readonly PatternReadCost[],
): PatternExample[] {
  return Object.values(model.patterns).map((pattern) => {
    const input = queries[pattern.name];
    const base = {
      pattern,
      template: keyCondition(model, pattern, model.indexes[pattern.index]),
      input,
      generatedInput: generated.has(pattern.name),
      cost: costs.find((c) => c.pattern === pattern.name),
    };
    let plan: QueryPlan;
    try {
      plan = planQuery(model, pattern.name, input);
    } catch (e) {
      return { ...base, partitionKeys: [], results: [], error: (e as Error).message };
    }
    const partitionKeys = partitionKeysOf(model, plan);
    const query = buildQueryInput(model, 'table', plan, partitionKeys[0]);
    const table = tables.find((t) => t.index.name === plan.index.name)!;
    return { ...base, query, keyCondition: conditionText(query), partitionKeys, results: resultsOf(plan, table, partitionKeys) };
  });
}

/** The partition key values a query reads: the key, or the key of every shard readers fan out over. */
function partitionKeysOf(model: TableModel, plan: QueryPlan): string[] {
  const shards = plan.index.shards;
  // A multi-attribute GSI keys its shard on an attribute of its own: the partition key values are the same.
  if (!shards || shards.keyAttribute) return [plan.condition.pk];
  return Array.from({ length: shards.readCount }, (_, s) => shardedKey(plan.condition.pk, s, model.delimiter));
}

/** `GSI2PK = "ORDER#OPEN#0" AND GSI2SK BETWEEN "..." AND "..."`: names and values in place. */
function conditionText(query: QueryCommandInput): string {
  const names = query.ExpressionAttributeNames ?? {};
  const values = query.ExpressionAttributeValues ?? {};
  return query.KeyConditionExpression!
    .replace(/#\w+/g, (n) => names[n] ?? n)
    // A multi-attribute key compares numbers too (`round = 1`).
    .replace(/:\w+/g, (v) => (values[v]?.S !== undefined ? JSON.stringify(values[v].S) : values[v]?.N ?? v));
}

function resultsOf(plan: QueryPlan, table: IndexTable, partitionKeys: readonly string[]): IndexEntry[] {
  const keys = new Set(partitionKeys);
  const results = table.partitions
    .filter((p) => keys.has(p.pk))
    .flatMap((p) => p.entries)
    .filter((e) => plan.pattern.entities.includes(e.entity) && sortKeyMatches(plan.condition, e.sk));
  // A sharded query merges its shards by sort key; within one partition the order is DynamoDB's.
  results.sort((a, b) => compareUtf8(a.sk ?? '', b.sk ?? ''));
  return plan.descending ? results.reverse() : results;
}

/** Evaluates the runtime's sort-key condition on one sort key value, as DynamoDB would. */
export function sortKeyMatches(condition: KeyCondition, sk: string | undefined): boolean {
  const c = condition.sk;
  if (!c) return true;
  if (sk === undefined) return false;
  if (condition.excludeEqual !== undefined && sk === condition.excludeEqual) return false;
  const atLeast = (bound: string | undefined) => bound === undefined || compareUtf8(sk, bound) >= 0;
  const atMost = (bound: string | undefined) => bound === undefined || compareUtf8(sk, bound) <= 0;
  if (c.expression.startsWith('begins_with')) return sk.startsWith(c.lo!);
  if (c.expression.includes(' = ')) return sk === c.lo;
  if (c.expression.includes(' < ')) return compareUtf8(sk, c.hi!) < 0;
  return atLeast(c.lo) && atMost(c.hi);
}
