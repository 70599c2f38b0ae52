// Which patterns `query` and `queryShards` take, from the manifest literal: a pattern on a GSI
// declared with `sharding` fans out over its shards (queryShards); every other pattern reads one
// partition (query). An untyped manifest allows every name to both; the runtime then checks.
import type { LiteralOf, PatternName } from '../manifest/infer';

type GlobalIndexesOf<M> = LiteralOf<M> extends { readonly globalIndexes?: infer G } ? NonNullable<G> : {};
type PatternIndexOf<M, P> = LiteralOf<M> extends { readonly accessPatterns?: infer AP }
  ? NonNullable<AP>[P & keyof NonNullable<AP>] extends { readonly index: infer I extends string } ? I : 'table'
  : 'table';
type IsSharded<M, P> = PatternIndexOf<M, P> extends keyof GlobalIndexesOf<M>
  ? GlobalIndexesOf<M>[PatternIndexOf<M, P>] extends { readonly sharding: object } ? true : false
  : false;

/** Patterns that query a write-sharded GSI: run them with `queryShards`. */
export type ShardedPatternName<M> = string extends PatternName<M>
  ? string
  : { [P in PatternName<M>]: IsSharded<M, P> extends true ? P : never }[PatternName<M>];

/** Patterns that read one partition: run them with `query`. */
export type PartitionPatternName<M> = string extends PatternName<M> ? string : Exclude<PatternName<M>, ShardedPatternName<M>>;
