// Every page of a pattern query over its shards (or its one partition) as one async iteration.
import type { PatternEntities, PatternInput, PatternName } from '../../manifest/infer';
import type { TableContext } from '../context';
import { paged, PagedItems } from '../pages';
import type { AttributeNameOf, PatternReadOptions, SelectedItem } from '../types';
import { queryShardsWith } from './query-shards-with';

/** The results of every page of `queryShardsWith` (filter and attributes included), from `options.cursor` on; `.pages()` gives the pages with their cursors. */
export function queryShardsAll<M, P extends PatternName<M>, A extends AttributeNameOf<M, PatternEntities<M, P>> = never>(
  table: TableContext<M>,
  pattern: P,
  input: PatternInput<M, P>,
  options: PatternReadOptions<M, P, A> = {},
): PagedItems<SelectedItem<M, PatternEntities<M, P>, A>> {
  return paged((cursor) => queryShardsWith<M, P, A>(table, pattern, input, { ...options, cursor } as never), options.cursor);
}
