// The result of a paged read (query, scan): awaited, it reads one page, or `pages` of them merged;
// iterated (`for await`), it reads page after page, each when the previous one is used up, from
// the cursor each page returns. Nothing is sent until it is awaited or iterated.
import { SingleTableError } from '../table/errors';

/** The paging options of a query or scan. */
export interface PagingOptions {
  /** The cursor a previous page returned. @default - the first page */
  readonly cursor?: string;
  /**
   * How many pages an `await` reads and returns as one page (their items in order, the last one's
   * cursor): a number, or `'all'` for every page. Iterating reads one page per step whatever this is.
   * @default 1
   */
  readonly pages?: number | 'all';
}

/** One page of results; `cursor` is set when there may be more. */
export interface QueryPage<T> {
  readonly items: T[];
  readonly cursor?: string;
}

/** A paged read: `await` it for one page (or `pages` merged), or iterate it with `for await` for every page from the cursor on. */
export interface Paged<T> extends Promise<QueryPage<T>>, AsyncIterable<QueryPage<T>> {}

/** The paged read of `read` (one page from a cursor, the first when undefined), from `options.cursor` on. */
export function paged<T>(read: (cursor: string | undefined) => Promise<QueryPage<T>>, options: PagingOptions): Paged<T> {
  let all: Promise<QueryPage<T>> | undefined;
  const awaited = () => (all ??= collect(read, options));
  return {
    then: (ok, fail) => awaited().then(ok, fail),
    catch: (fail) => awaited().catch(fail),
    finally: (done) => awaited().finally(done),
    [Symbol.toStringTag]: 'Paged',
    async* [Symbol.asyncIterator]() {
      let cursor = options.cursor;
      do {
        // A page may be empty and still have a cursor: a filter can leave out every item DynamoDB read.
        const page = await read(cursor);
        yield page;
        cursor = page.cursor;
      } while (cursor !== undefined);
    },
  };
}

async function collect<T>(read: (cursor: string | undefined) => Promise<QueryPage<T>>, { cursor, pages = 1 }: PagingOptions): Promise<QueryPage<T>> {
  if (pages !== 'all' && !(Number.isInteger(pages) && pages > 0)) {
    throw new SingleTableError('INVALID_QUERY_INPUT', `pages must be a positive whole number or 'all', got ${JSON.stringify(pages)}`);
  }
  let { items, cursor: next } = await read(cursor);
  for (let n = 1; next !== undefined && n !== pages; n++) {
    const page = await read(next);
    items = items.concat(page.items);
    next = page.cursor;
  }
  return next === undefined ? { items } : { items, cursor: next };
}
