// Iteration over every page of a paged read (query, fan-out query, scan), each page read when the
// previous one is used up, resuming from the cursor each page returns: the pages are the ones the
// read would return called cursor after cursor, so an iteration stopped after a page resumes from
// that page's cursor.
import type { QueryPage } from './types';

/** The items of every page, in order (`for await`); `pages()` gives the pages with their cursors. */
export interface PagedItems<T> extends AsyncIterable<T> {
  /** The pages, each with the cursor that resumes after it (none on the last). */
  pages(): AsyncIterable<QueryPage<T>>;
}

/** Pages of `read` from `cursor` (the first page when undefined) until a page has no cursor. */
export function paged<T>(read: (cursor: string | undefined) => Promise<QueryPage<T>>, cursor?: string): PagedItems<T> {
  async function* pages(): AsyncGenerator<QueryPage<T>> {
    let next = cursor;
    do {
      // A page may be empty and still have a cursor: a filter can leave out every item DynamoDB read.
      const page = await read(next);
      yield page;
      next = page.cursor;
    } while (next !== undefined);
  }
  return {
    pages,
    async* [Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.items;
    },
  };
}
