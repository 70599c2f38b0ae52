"""Scan by entity (lib/runtime/query/scan.ts): a filter on the type attribute keeps the asked
entities, parallel segments are read at once on threads, and one cursor (the Node.js runtime's
format) holds every segment's position."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable

from ._cursor import decode_cursor, encode_cursor, js_json
from ._errors import SingleTableError, did_you_mean
from ._pages import Page
from ._results import to_results
from ._send import with_retry

if TYPE_CHECKING:
    from ._context import TableContext

CURSOR_NAME = 'scan'


def _whole(n: Any, least: float, most: float) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and least <= n <= most


def plan_scan(table: TableContext, entities: Any, segments: Any, segment: Any, limit: Any, consistent: bool, filter: Any,
              attributes: Any) -> Callable[[str | None], Page]:
    """Checks a scan's options (before any request); returns the reader of one page from a cursor, tagged by entity."""
    model = table.model

    def bad(message: str) -> SingleTableError:
        return SingleTableError('INVALID_QUERY_INPUT', f'scan: {message}')

    if segments is not None and not _whole(segments, 1, 1_000_000):
        raise bad(f'segments must be a whole number from 1 to 1000000, got {segments}')
    if segment is not None and segments is None:
        raise bad(f'segment {segment} needs segments, the number of segments the table is split into')
    if segment is not None and not _whole(segment, 0, segments - 1):  # type: ignore[operator]
        raise bad(f'segment must be a whole number from 0 to {segments - 1} (segments - 1), got {segment}')  # type: ignore[operator]
    if limit is not None and not _whole(limit, 1, math.inf):
        raise bad(f'limit must be a positive whole number, got {limit}')
    names = list(model.entities) if entities is None else list(dict.fromkeys(model.entity(e)['name'] for e in entities))
    if not names:
        raise bad('entities is empty; name at least one entity, or leave it out to scan every entity')
    index = model.table_index
    keys = (index['partitionKey'], index['sortKey'])
    request: dict[str, Any] = {'TableName': table.table_name}
    if consistent:
        request['ConsistentRead'] = True
    if entities is not None:
        types = []
        values = {}
        for i, e in enumerate(names):
            values[f':t{i}'] = {'S': model.entities[e]['typeValue']}
            types.append(f':t{i}')
        request['FilterExpression'] = ' OR '.join(f"#type IN ({', '.join(types[i:i + 100])})" for i in range(0, len(types), 100))
        request['ExpressionAttributeNames'] = {'#type': model.type_attribute}
        request['ExpressionAttributeValues'] = values
    keep = None
    if attributes is not None or filter is not None:
        from ._conditions import Refs, compile_condition
        refs = Refs(request)
        models = [model.entities[e] for e in names]
        if attributes is not None:
            if not isinstance(attributes, (list, tuple)) or not attributes:
                raise SingleTableError('INVALID_QUERY_INPUT', f'attributes must be a non-empty list of attribute names, got {attributes!r}')
            for a in attributes:
                if not isinstance(a, str) or not any(a in e['attributes'] for e in models):
                    known = list(dict.fromkeys(n for e in models for n in e['attributes']))
                    raise SingleTableError('UNKNOWN_ATTRIBUTE', f"attributes names {a!r}, which none of {', '.join(names)} declares; "
                                           f"{did_you_mean(str(a), known)}declared attributes: {', '.join(known)}", attribute=str(a))
            projected = list(dict.fromkeys([*keys, model.type_attribute, *attributes]))
            request['ProjectionExpression'] = ', '.join(refs.name(a) for a in projected)
            keep = frozenset(attributes)
        if filter is not None:
            expression = compile_condition(models, filter, refs, 'filter')
            existing = request.get('FilterExpression')
            request['FilterExpression'] = f'({existing}) AND ({expression})' if existing else expression
        refs.apply_to(request)
    every = [{}] if segments is None else [{'Segment': i, 'TotalSegments': segments} for i in range(segments)]
    parts = every if segment is None else [every[segment]]
    binding = js_json([segments, segment, model.fingerprint])
    return lambda cursor: _scan_page(table, request, parts, keys, names, keep, binding, limit, cursor)


def _scan_page(table: TableContext, request: dict[str, Any], parts: list[dict[str, Any]], keys: tuple[str, str], names: list[str],
               keep: frozenset[str] | None, binding: str, limit: int | None, cursor: str | None) -> Page:
    model = table.model
    position: list[Any] = [0] * len(parts)
    if cursor is not None:
        position = decode_cursor(CURSOR_NAME, binding, cursor)
        fits = all(p in (0, 1) or (isinstance(p, list) and len(p) == 2 and all(isinstance(k, str) for k in p)) for p in position) \
            if isinstance(position, list) and len(position) == len(parts) else False
        if not fits:
            raise SingleTableError('INVALID_CURSOR', 'the cursor is not one this scan issued; start again without a cursor', pattern=CURSOR_NAME)
    active = [i for i in range(len(parts)) if position[i] != 1]
    share = None if limit is None else math.ceil(limit / max(len(active), 1))

    def read(i: int) -> dict[str, Any]:
        segment_request = {**request, **parts[i]}
        at = position[i]
        if isinstance(at, list):
            segment_request['ExclusiveStartKey'] = {keys[0]: {'S': at[0]}, keys[1]: {'S': at[1]}}
        if share is not None:
            segment_request['Limit'] = share
        return with_retry(table.retry, lambda: table.client.scan(**segment_request))

    pages = list(table.executor.map(read, active)) if len(active) > 1 else [read(i) for i in active]
    items = []
    following = list(position)
    for i, page in zip(active, pages):
        if limit is not None and len(items) >= limit:
            continue
        raw_items = page.get('Items', [])
        last = None
        for raw in raw_items:
            if limit is not None and len(items) >= limit:
                break
            items.extend(to_results(model, names, [raw], 'table', False, keep))
            last = raw
        lek = page.get('LastEvaluatedKey')
        if raw_items and last is not raw_items[-1]:
            following[i] = [last[keys[0]]['S'], last[keys[1]]['S']]  # type: ignore[index]
        else:
            following[i] = [lek[keys[0]]['S'], lek[keys[1]]['S']] if lek else 1
    more = any(p != 1 for p in following)
    return Page(items, encode_cursor(CURSOR_NAME, binding, following) if more else None)
