// Which shards a query on a sharded GSI reads. RANDOM spreads every partition key value over all
// shards, so a query reads all of them. ATTRIBUTE puts every item with one shard-attribute value on
// one shard per count, so when the query's key condition pins that value, the value's shard under
// each count ever declared holds every match (an item keeps the shard of the count it was written
// under until it is written again); without the value, the query reads all shards. So does every
// query once another strategy or shard attribute was ever declared (`pinnedReads` false): items
// written under it can be on any shard.
import type { QueryPlan } from './plan';
import { encodeSegment } from '../../keys/encoding';
import { shardForValue } from '../../keys/shard';
import type { ShardModel, TableModel } from '../../model/model';

// Per shard model, computed once: the model is frozen.
const everyShardOf = new WeakMap<Pick<ShardModel, 'readCount'>, number[]>();

/** Shard numbers to query for a planned query on a sharded index, ascending. */
export function shardsToQuery(model: TableModel, plan: QueryPlan, input: Readonly<Record<string, unknown>>): number[] {
  const shards = plan.index.shards!;
  const value = shards.pinnedReads ? pinnedValue(plan, shards.attribute!, input) : undefined;
  const chosen = new Set<number>();
  // The entities of a pattern may type the attribute differently, and so encode it differently.
  for (const entity of value === undefined ? [] : plan.pattern.entities) {
    const encoded = encodeSegment(model.entities[entity].attributes[shards.attribute!].type, value, model.escapeChar);
    if (!('segment' in encoded)) return everyShard(shards);
    for (const count of shards.counts) chosen.add(shardForValue(encoded.segment, count));
  }
  return chosen.size ? [...chosen].sort((a, b) => a - b) : everyShard(shards);
}

/**
 * The attribute's value when every item the key condition matches has it: the attribute is part of
 * the partition key, or of a sort key that must equal or begin with a prefix holding it whole
 * (prefixes end at a delimiter, so `CUSTOMER#c1#` never matches `c10`). Range conditions leave it
 * open. On a multi-attribute GSI: a partition attribute, or a sort attribute an EQUALS pattern is given.
 */
function pinnedValue(plan: QueryPlan, attribute: string, input: Readonly<Record<string, unknown>>): unknown {
  const { pattern, index } = plan;
  const condition = pattern.sortKeyCondition;
  if (index.partitionAttributes) {
    if (index.partitionAttributes.some((a) => a.name === attribute)) return input[attribute];
    return condition === 'EQUALS' && index.sortAttributes!.some((a) => a.name === attribute) ? input[attribute] : undefined;
  }
  if (pattern.pk?.attributes.includes(attribute)) return input[attribute];
  if ((condition === 'EQUALS' || condition === 'BEGINS_WITH') && pattern.sk?.attributes.includes(attribute)) return input[attribute];
  return undefined;
}

/** Every shard number of a sharded index, ascending: what a query reads when its input pins no shard. */
export function everyShard(shards: Pick<ShardModel, 'readCount'>): number[] {
  let numbers = everyShardOf.get(shards);
  if (!numbers) {
    numbers = Array.from({ length: shards.readCount }, (_, i) => i);
    everyShardOf.set(shards, numbers);
  }
  return numbers;
}
