// Query of an access pattern by name: on the table, an LSI or a GSI, and on a write-sharded GSI
// over every shard the input can be on, merged in index order behind one cursor (read-index.ts).
// Read options (filter, attributes) apply to every request; paging options say how many pages
// an `await` reads, and iteration reads them all (./pages.ts).
import { paged, Paged } from './pages';
import type { PatternEntities, PatternInput, PatternName } from '../../model/infer';
import type { Table } from '../table/context';
import type { AttributeNameOf, QueryOptions, SelectedItem } from '../types';
import { optionedPage } from './optioned-page';
import { patternPage } from './pattern-page';
import { readAnyPattern } from './read-index';

/**
 * Runs an access pattern: `await` it for one page of typed results (and a cursor when there may
 * be more), or iterate it with `for await` for every page.
 */
export function query<M, P extends PatternName<M>, A extends AttributeNameOf<M, PatternEntities<M, P>> = never>(
  table: Table<M>,
  pattern: P,
  input: PatternInput<M, P>,
  options: QueryOptions<M, P, A> = {},
): Paged<SelectedItem<M, PatternEntities<M, P>, A>> {
  const values = input as Readonly<Record<string, unknown>>;
  const optioned = options.filter !== undefined || options.attributes !== undefined;
  return paged((cursor) => {
    const at = cursor === options.cursor ? options : { ...options, cursor };
    return optioned ? optionedPage(table, pattern, values, at, readAnyPattern) : patternPage(table, pattern, values, at, readAnyPattern);
  }, options) as never;
}
