"""A pattern's query plan for its most common inputs, compiled once per pattern.

``plan_query`` checks any input and works out any sort-key condition through the general path
(_keys.key_condition). Most queries give exactly the partition key's attributes (a partition, or a
``BEGINS_WITH`` pattern read from its sort key's literal floor), or every attribute of an
``EQUALS`` pattern's keys, with the pattern's own order and consistency. For those, the plan is a
set comparison, one key composition and a dict. Any other input (another condition, an option, a
value to escape or refuse, a key too long) makes it return None, and the general path then plans
the query or raises its error, so the plan is always the one the general path makes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ._encoding import MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, _escapable
from ._keys import compose
from ._query_plan import Plan

if TYPE_CHECKING:
    from ._keys import PatternKeys
    from ._model import Model

FastPlan = Callable[[Any, Any], 'Plan | None']


def compile_fast_plan(model: Model, keys: PatternKeys) -> FastPlan | None:
    """The pattern's plan for its common inputs, or None when it has no such case."""
    pattern = keys.pattern
    index = keys.index
    strong = bool(pattern['consistentRead'])
    if 'pk' not in pattern or (strong and index['type'] == 'GSI'):
        return None
    condition = pattern['sortKeyCondition']
    pk_names = frozenset(pattern['pk']['attributes'])
    esc = model.escape_char
    pk_parts = keys.pk
    pk_limit = MAX_PARTITION_KEY_BYTES - keys.shard_suffix
    descending = pattern['order'] == 'DESCENDING'
    fetch = pattern['fetch']
    sk_parts = keys.sk
    pk_segments = [s for s in pattern['pk']['segments'] if 'attribute' in s]
    pk_string = pk_segments[0]['attribute'] if len(pk_segments) == 1 and pk_segments[0]['kind'] == 'STRING' else None
    pk_head, pk_tail = pk_parts[0], pk_parts[1][0][2] if pk_parts[1] else ''
    search = _escapable(esc).search
    if condition == 'NONE' or sk_parts is None:
        names, sk_condition = pk_names, None
    elif condition == 'BEGINS_WITH' and sk_parts[1] and not pk_names & set(pattern['sk']['attributes']):
        # No sort-key attribute given: the literal floor (which ends at a delimiter) as a prefix, or no condition.
        floor = sk_parts[0]
        if len(floor) * 4 > MAX_SORT_KEY_BYTES:
            return None
        names, sk_condition = pk_names, ({'expression': 'begins_with(#sk, :lo)', 'lo': floor} if floor else None)
    elif condition == 'EQUALS' and pattern.get('skCoverage') in (None, 'KEY'):
        names, sk_condition = pk_names | frozenset(pattern['sk']['attributes']), 'equals'
    else:
        return None

    only = next(iter(names)) if len(names) == 1 else None
    if pk_string is not None and pk_string == only and sk_condition != 'equals':
        # The most common query: one STRING attribute for the partition key, and no sort-key input.
        condition_sk = sk_condition

        def partition_plan(values: Any, limit: Any) -> Plan | None:
            if values.__class__ is not dict or len(values) != 1 or not (limit is None or (limit.__class__ is int and limit > 0)):
                return None
            v = values.get(only)
            # A string that needs no escape is the segment itself.
            if v.__class__ is not str or not v or (min(v) <= esc or not v.isascii()) and search(v) is not None:
                return None
            pk = pk_head + v + pk_tail
            if len(pk) * 4 > pk_limit:
                return None
            # The floor's condition is shared: plans never change theirs.
            return Plan(keys, {'pk': pk} if condition_sk is None else {'pk': pk, 'sk': condition_sk}, descending, strong, limit, fetch)
        return partition_plan

    def fast_plan(values: Any, limit: Any) -> Plan | None:
        if values.__class__ is not dict or not (limit is None or (limit.__class__ is int and limit > 0)):
            return None
        if (values.keys() != names) if only is None else (len(values) != 1 or only not in values):
            return None
        if pk_string is not None:
            v = values[pk_string]
            if v.__class__ is not str or not v or (min(v) <= esc or not v.isascii()) and search(v) is not None:
                return None
            pk = pk_head + v + pk_tail
        else:
            pk = compose(pk_parts, values, esc)
        if pk.__class__ is not str or len(pk) * 4 > pk_limit:  # type: ignore[arg-type]
            return None
        if sk_condition is None:
            return Plan(keys, {'pk': pk}, descending, strong, limit, fetch)
        if sk_condition == 'equals':
            sk = compose(sk_parts, values, esc)  # type: ignore[arg-type]
            if sk.__class__ is not str or len(sk) * 4 > MAX_SORT_KEY_BYTES:  # type: ignore[arg-type]
                return None
            return Plan(keys, {'pk': pk, 'sk': {'expression': '#sk = :lo', 'lo': sk}}, descending, strong, limit, fetch)
        return Plan(keys, {'pk': pk, 'sk': sk_condition}, descending, strong, limit, fetch)
    return fast_plan
