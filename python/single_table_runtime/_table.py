"""The table handle: one method per operation over the compiled model, the table name and a boto3
DynamoDB client (the low-level client: items travel as AttributeValues, composed here)."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, Iterator, Literal, Mapping, Sequence, Union

from . import _items as item_ops
from ._context import TableContext
from ._errors import SingleTableError
from ._model import Model, deployed_model, load_model
from ._pages import Page, collect_pages, iterate_pages
from ._query import pattern_page, plan_query
from ._results import Result
from ._send import RetryPolicy
from ._values import from_item

if TYPE_CHECKING:
    from ._release_unique import ReleaseResult
    from ._streams import StreamChange

TABLE_NAME_ENV = 'TABLE_NAME'
FINGERPRINT_ENV = 'SINGLE_TABLE_FINGERPRINT'
ENDPOINT_ENV = 'AWS_ENDPOINT_URL_DYNAMODB'

Order = Literal['asc', 'desc']
"""A query's order: ascending or descending sort keys."""
PutMode = Literal['upsert', 'create', 'replace']
"""How a put treats an existing item: overwrite it, fail if it exists, fail if it does not."""
Pages = Union[int, Literal['all']]
"""How many pages one query or scan call reads and returns as one page: a number, or every page."""
Condition = Mapping[str, Any]
"""A condition or filter as data, as the Node.js runtime's ``where`` takes it: ``{'attr': 'status', 'eq': 'OPEN'}``."""


class Table(TableContext):
    """One table as the operations see it; made by ``open_table``."""

    # ---- single items ----------------------------------------------------------------------------

    def put(self, entity: str, item: Mapping[str, Any], *, mode: PutMode = 'upsert', condition: Condition | None = None) -> None:
        """Writes a whole item: ``upsert`` overwrites, ``create`` fails if it exists, ``replace`` fails if it does not."""
        if self.model.entity(entity).get('unique'):
            from ._unique_write import unique_put  # a transaction with the guards of its unique values
            return unique_put(self, entity, item, mode, condition)
        request = item_ops.build_put(self, entity, item, mode, condition)
        item_ops.send_write(self, entity, 'put_item', request, item, condition)

    def get(self, entity: str, key: Mapping[str, Any], *, consistent: bool = False) -> dict[str, Any] | None:
        """Reads an item by its table key; None when there is none."""
        return item_ops.get_item(self, entity, key, consistent)

    def delete(self, entity: str, key: Mapping[str, Any], *, must_exist: bool = False, version: int | None = None,
               condition: Condition | None = None) -> dict[str, Any] | None:
        """Deletes an item; returns what it held, None when there was none."""
        if self.model.entity(entity).get('unique'):
            from ._unique_write import unique_delete  # a transaction with the release of its unique values' guards
            return unique_delete(self, entity, key, must_exist, version, condition)
        request = item_ops.build_delete(self, entity, key, must_exist, version, condition)
        out = item_ops.send_write(self, entity, 'delete_item', request, key, condition)
        return from_item(out['Attributes'], self.model.strip) if 'Attributes' in out else None

    def update(self, entity: str, changes: Mapping[str, Any], *, remove: Sequence[str] = (), add: Mapping[str, Any] | None = None,
               append: Mapping[str, Any] | None = None, prepend: Mapping[str, Any] | None = None, delete_from_set: Mapping[str, Any] | None = None,
               set_if_missing: Mapping[str, Any] | None = None, condition: Condition | None = None, read_missing: bool = False) -> dict[str, Any]:
        """Sets ``changes`` (the table key attributes included) on an existing item, removes ``remove``, applies the
        operators, and recomputes the index keys it moves; returns the item as the update left it."""
        from ._update import update_item
        operators = {'add': add, 'append': append, 'prepend': prepend, 'delete_from_set': delete_from_set, 'set_if_missing': set_if_missing}
        if self.model.entity(entity).get('unique'):
            from ._unique_write import unique_update  # a transaction with the guard writes, when it changes a unique value
            moved = unique_update(self, entity, changes, remove, operators, condition, read_missing)
            if moved is not None:
                return moved
        return update_item(self, entity, changes, remove, operators, condition, read_missing)

    # ---- queries ---------------------------------------------------------------------------------

    def query(self, pattern: str, values: Mapping[str, Any] | None = None, *, limit: int | None = None, order: Order | None = None,
              consistent: bool | None = None, cursor: str | None = None, filter: Condition | None = None, attributes: Sequence[str] | None = None,
              pages: Pages = 1) -> Page:
        """Runs an access pattern: one page of typed results (``pages`` of them merged, or ``'all'``), merged over every
        shard of a sharded index, with a cursor when there may be more."""
        read = self._pattern_reader(pattern, values, limit, order, consistent, filter, attributes)
        return collect_pages(read, cursor, pages)

    def query_pages(self, pattern: str, values: Mapping[str, Any] | None = None, *, limit: int | None = None, order: Order | None = None,
                    consistent: bool | None = None, cursor: str | None = None, filter: Condition | None = None,
                    attributes: Sequence[str] | None = None) -> Iterator[Page]:
        """Every page of a pattern from ``cursor`` on, each read when the previous one is used up (the input is checked at the call)."""
        read = self._pattern_reader(pattern, values, limit, order, consistent, filter, attributes)
        return iterate_pages(read, cursor)

    def query_all(self, pattern: str, values: Mapping[str, Any] | None = None, *, limit: int | None = None, order: Order | None = None,
                  consistent: bool | None = None, cursor: str | None = None, filter: Condition | None = None,
                  attributes: Sequence[str] | None = None) -> Iterator[Result]:
        """Every result of a pattern, page after page from ``cursor`` on (``limit`` is each page's size)."""
        for page in self.query_pages(pattern, values, limit=limit, order=order, consistent=consistent, cursor=cursor, filter=filter,
                                     attributes=attributes):
            yield from page.items

    def _pattern_reader(self, pattern: str, values: Mapping[str, Any] | None, limit: int | None, order: Order | None, consistent: bool | None,
                        filter: Condition | None, attributes: Sequence[str] | None) -> Callable[[str | None], Page]:
        values = {} if values is None else values
        plan = plan_query(self, pattern, values, limit, order, consistent)
        if filter is not None or attributes is not None:
            from ._conditions import read_plan
            read_plan(self, plan, filter, attributes)
        return lambda cursor: pattern_page(self, pattern, values, plan, cursor)

    def scan(self, *, entities: Sequence[str] | None = None, segments: int | None = None, segment: int | None = None, limit: int | None = None,
             consistent: bool = False, cursor: str | None = None, filter: Condition | None = None, attributes: Sequence[str] | None = None,
             pages: Pages = 1) -> Page:
        """One page of the table's items of ``entities`` (every entity by default; ``pages`` of them merged, or ``'all'``),
        segments read in parallel, with a cursor while some segment has more."""
        from ._scan import plan_scan
        return collect_pages(plan_scan(self, entities, segments, segment, limit, consistent, filter, attributes), cursor, pages)

    def scan_pages(self, *, entities: Sequence[str] | None = None, segments: int | None = None, segment: int | None = None,
                   limit: int | None = None, consistent: bool = False, cursor: str | None = None, filter: Condition | None = None,
                   attributes: Sequence[str] | None = None) -> Iterator[Page]:
        """Every page of a scan from ``cursor`` on, each read when the previous one is used up (the options are checked at the call)."""
        from ._scan import plan_scan
        return iterate_pages(plan_scan(self, entities, segments, segment, limit, consistent, filter, attributes), cursor)

    # ---- batches, transactions, streams ----------------------------------------------------------

    def batch_get(self, requests: Sequence[Mapping[str, Any]], *, consistent: bool = False) -> list[Result | None]:
        """Reads many items (``{'entity': ..., 'key': {...}}``); results in request order, None where there is none."""
        from ._transact import batch_get
        return batch_get(self, requests, consistent)

    def batch_write(self, requests: Sequence[Mapping[str, Any]]) -> None:
        """Writes many puts (``{'type': 'put', 'entity', 'item'}``) and deletes (``{'type': 'delete', 'entity', 'key'}``);
        what DynamoDB leaves unprocessed is retried, and what stays so raises UnprocessedError listing it."""
        from ._transact import batch_write
        batch_write(self, requests)

    def transact_write(self, actions: Sequence[Mapping[str, Any]], *, token: str | None = None) -> None:
        """Applies up to 100 actions atomically (``put``, ``update``, ``delete``, ``condition_check``), unique-value guards included."""
        from ._transact import transact_write
        transact_write(self, actions, token)

    def transact_get(self, requests: Sequence[Mapping[str, Any]]) -> list[Result | None]:
        """Reads up to 100 items atomically; results in request order, None where there is none."""
        from ._transact import transact_get
        return transact_get(self, requests)

    def release_unique_values(self, event: Mapping[str, Any], *, any_remove: bool = False) -> ReleaseResult:
        """Frees the unique values of the items a stream event's REMOVE records took away by time to live (every REMOVE
        with ``any_remove``): a ``ReleaseResult`` of the values ``released``, ``kept`` and ``skipped``."""
        from ._release_unique import release_unique_values
        return release_unique_values(self, event, any_remove)

    def decode_stream(self, event: Mapping[str, Any], *, entities: Sequence[str] | None = None,
                      event_names: Sequence[Literal['INSERT', 'MODIFY', 'REMOVE']] | None = None) -> list[StreamChange]:
        """A DynamoDB stream event's records as typed changes (sends nothing)."""
        from ._streams import decode_stream
        return decode_stream(self.model, dict(event), entities, event_names)


def open_table(model: Model | Mapping[str, Any] | str | os.PathLike[str] | None = None, *, table_name: str | None = None, client: Any = None, retry: RetryPolicy | None = None,
               shard_concurrency: int | None = None) -> Table:
    """Opens the table of a compiled model file (a dict, or its path; default: the file SINGLE_TABLE_MODEL names).

    The table name defaults to TABLE_NAME. When SINGLE_TABLE_FINGERPRINT is set (the stack sets it), the
    model must be the one the table was deployed from. Call it once, outside the handler.
    """
    loaded = deployed_model() if model is None else model if isinstance(model, Model) else load_model(model)
    name = table_name or os.environ.get(TABLE_NAME_ENV)
    if not name:
        raise SingleTableError('TABLE_NAME_MISSING', f'pass `table_name` or set the {TABLE_NAME_ENV} environment variable')
    deployed = os.environ.get(FINGERPRINT_ENV)
    if deployed and deployed != loaded.fingerprint:
        raise SingleTableError('MANIFEST_MISMATCH', f'this function was given manifest {loaded.fingerprint}, its table deployed from manifest {deployed} '
                               f'({FINGERPRINT_ENV}); deploy both from the same manifest')
    if client is None:
        import boto3
        # The endpoint variable boto3 honours from 1.28 on, honoured on older ones too (local engines, tests).
        client = boto3.client('dynamodb', endpoint_url=os.environ.get(ENDPOINT_ENV) or None)
    return Table(loaded, name, client, retry or RetryPolicy(), shard_concurrency)
