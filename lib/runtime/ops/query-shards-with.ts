// `queryShards` with read options (filter, attributes). Every shard query carries the filter; the
// fan-out merges what the shards return and resumes each shard after the last item it gave, so a
// filter leaves the merged order, the page and its cursor exact (a shard whose page the filter
// emptied waits at its LastEvaluatedKey: fanout.ts).
import type { PatternEntities, PatternInput, PatternName } from '../../manifest/infer';
import type { TableContext } from '../context';
import type { AttributeNameOf, PatternReadOptions, QueryPage, SelectedItem } from '../types';
import { optionedPage } from './optioned-page';
import { readAnyPattern } from './query-shards';

/** `queryShards` with `filter` and `attributes`: one merged page of typed results, and a cursor when there may be more. */
export function queryShardsWith<M, P extends PatternName<M>, A extends AttributeNameOf<M, PatternEntities<M, P>> = never>(
  table: TableContext<M>,
  pattern: P,
  input: PatternInput<M, P>,
  options: PatternReadOptions<M, P, A> = {},
): Promise<QueryPage<SelectedItem<M, PatternEntities<M, P>, A>>> {
  return optionedPage(table, pattern, input, options as never, readAnyPattern) as never;
}
