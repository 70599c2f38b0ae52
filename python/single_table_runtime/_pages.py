"""Pages of results, as queries and scans return them: one page, pages read one after another and merged
into one, or handed out page after page."""
from __future__ import annotations

from typing import Any, Callable, Iterator, NamedTuple

from ._errors import SingleTableError
from ._results import Result


class Page(NamedTuple):
    """One page of results; ``cursor`` is set when there may be more."""
    items: list[Result]
    cursor: str | None = None


def collect_pages(read: Callable[[str | None], Page], cursor: str | None, pages: Any) -> Page:
    """``pages`` pages from ``cursor`` merged into one (their items in order, the last one's cursor); ``'all'`` reads every page."""
    if pages != 'all' and not (isinstance(pages, int) and not isinstance(pages, bool) and pages > 0):
        raise SingleTableError('INVALID_QUERY_INPUT', f"pages must be a positive whole number or 'all', got {pages!r}")
    page = read(cursor)
    if pages == 1 or page.cursor is None:
        return page
    items = list(page.items)
    n = 1
    while page.cursor is not None and n != pages:
        page = read(page.cursor)
        items.extend(page.items)
        n += 1
    return Page(items, page.cursor)


def iterate_pages(read: Callable[[str | None], Page], cursor: str | None) -> Iterator[Page]:
    """Page after page from ``cursor``, each read when asked for (a page may be empty and still have a cursor: a filter can leave out every item read)."""
    while True:
        page = read(cursor)
        yield page
        cursor = page.cursor
        if cursor is None:
            return
