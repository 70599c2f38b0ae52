// Every page of a one-partition pattern query as one async iteration (`for await`).
import type { PatternEntities, PatternInput } from '../../manifest/infer';
import type { TableContext } from '../context';
import { paged, PagedItems } from '../pages';
import type { PartitionPatternName } from '../pattern-kinds';
import type { AttributeNameOf, PatternReadOptions, SelectedItem } from '../types';
import { queryWith } from './query-with';

/** The results of every page of `queryWith` (filter and attributes included), from `options.cursor` on; `.pages()` gives the pages with their cursors. */
export function queryAll<M, P extends PartitionPatternName<M>, A extends AttributeNameOf<M, PatternEntities<M, P>> = never>(
  table: TableContext<M>,
  pattern: P,
  input: PatternInput<M, P>,
  options: PatternReadOptions<M, P, A> = {},
): PagedItems<SelectedItem<M, PatternEntities<M, P>, A>> {
  return paged((cursor) => queryWith<M, P, A>(table, pattern, input, { ...options, cursor } as never), options.cursor);
}
