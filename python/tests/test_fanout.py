"""The fan-out merge, property-tested over in-memory shards: pages read one after the other from the
state each returns hold every item once, in the index's order, ascending and descending: of string
keys (a composed key), and of a multi-attribute GSI's sort attributes with a number among them,
against the order worked out another way (exact fractions, UTF-8 bytes)."""
from __future__ import annotations

import bisect
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from properties import asserted
from single_table_runtime._fanout import fan_out_query

KEYS = ('SK', 'PK', 'ID')
key_text = st.text(alphabet='ab#é😀', max_size=3)


def reader(shards: dict[int, list[tuple[str, ...]]], descending: bool) -> Any:
    """A Query of one shard's partition: its items in index order from after the start key, at most ``limit``."""
    def fetch(shard: int, start: dict[str, Any] | None, limit: int) -> dict[str, Any]:
        keys = sorted(shards[shard], reverse=descending)
        at = 0
        if start is not None:
            after = tuple(start[a]['S'] for a in KEYS)
            at = len(keys) - bisect.bisect_left(keys[::-1], after) if descending else bisect.bisect_right(keys, after)
        page = keys[at:at + limit]
        out: dict[str, Any] = {'Items': [{a: {'S': v} for a, v in zip(KEYS, k)} for k in page]}
        if at + limit < len(keys):
            out['LastEvaluatedKey'] = {a: {'S': v} for a, v in zip(KEYS, page[-1])}
        return out
    return fetch


@settings(max_examples=60, deadline=None)
@given(items=st.sets(st.tuples(key_text, key_text, key_text), max_size=40), shard_count=st.integers(1, 6),
       limit=st.integers(1, 12), descending=st.booleans())
def test_pages_hold_every_item_once_in_index_order(items: set[tuple[str, ...]], shard_count: int, limit: int, descending: bool) -> None:
    shards: dict[int, list[tuple[str, ...]]] = {s: [] for s in range(shard_count)}
    for i, item in enumerate(sorted(items)):
        shards[i % shard_count].append(item)
    fetch = reader(shards, descending)
    read: list[tuple[str, ...]] = []
    state = None
    with ThreadPoolExecutor(max_workers=shard_count) as executor:
        for _ in range(len(items) + 2):
            page, state = fan_out_query(fetch, executor, shards=list(range(shard_count)), limit=limit, descending=descending, sort_keys=[KEYS[0]],
                                        tie_break_keys=list(KEYS[1:]), state=state)
            assert len(page) <= limit
            read += [tuple(item[a]['S'] for a in KEYS) for item in page]
            if state is None:
                break
    assert read == sorted(items, reverse=descending)
    asserted()


# A multi-attribute GSI's sort attributes: a NUMBER, then a STRING; then the table key.
TYPED = (('round', 'N'), ('bracket', 'S'), ('PK', 'S'), ('SK', 'S'))
# Numbers whose text order is not their order (10 < 9, -1 < -0.5 as text), in DynamoDB's forms, and any decimal.
number_text = st.one_of(st.sampled_from(['-1', '-0.5', '0', '0.25', '1', '9', '10', '10.5', '100', '1E+3', '-1E-130', '9.99E+125',
                                         '12345678901234567890123456789012345678']),
                        st.decimals(allow_nan=False, allow_infinity=False, min_value=-10 ** 6, max_value=10 ** 6).map(str))


def reference_order(item: tuple[str, ...]) -> tuple[Any, ...]:
    """DynamoDB's index order worked out another way: a number as an exact fraction, a string as its UTF-8 bytes."""
    return (Fraction(item[0]), *(text.encode('utf-8') for text in item[1:]))


def typed_reader(shards: dict[int, list[tuple[str, ...]]], descending: bool) -> Any:
    """A Query of one shard: its items in the reference order from after the start key, at most ``limit``."""
    def fetch(shard: int, start: dict[str, Any] | None, limit: int) -> dict[str, Any]:
        keys = sorted(shards[shard], key=reference_order, reverse=descending)
        at = 0
        if start is not None:
            assert start['GameShard'] == {'N': str(shard)}
            at = keys.index(tuple(start[a][kind] for a, kind in TYPED)) + 1
        page = keys[at:at + limit]
        out: dict[str, Any] = {'Items': [{a: {kind: v} for (a, kind), v in zip(TYPED, k)} for k in page]}
        if at + limit < len(keys):
            out['LastEvaluatedKey'] = {**out['Items'][-1], 'GameShard': {'N': str(shard)}}
        return out
    return fetch


@settings(max_examples=60, deadline=None)
@given(items=st.lists(st.tuples(number_text, key_text, key_text, key_text), max_size=40, unique_by=lambda i: i[2:]),
       shard_count=st.integers(1, 5), limit=st.integers(1, 9), descending=st.booleans())
def test_typed_pages_hold_every_item_once_in_the_reference_order(items: list[tuple[str, ...]], shard_count: int, limit: int, descending: bool) -> None:
    shards: dict[int, list[tuple[str, ...]]] = {s: [] for s in range(shard_count)}
    for i, item in enumerate(items):
        shards[i % shard_count].append(item)
    fetch = typed_reader(shards, descending)
    read: list[tuple[str, ...]] = []
    state = None
    with ThreadPoolExecutor(max_workers=shard_count) as executor:
        for _ in range(len(items) + 2):
            page, state = fan_out_query(fetch, executor, shards=list(range(shard_count)), limit=limit, descending=descending,
                                        sort_keys=['round', 'bracket'], number_keys=frozenset({'round'}), tie_break_keys=['PK', 'SK'],
                                        partition_key=lambda shard: {'GameShard': {'N': str(shard)}}, state=state)
            assert len(page) <= limit
            read += [tuple(item[a][kind] for a, kind in TYPED) for item in page]
            if state is None:
                break
            # A position holds each key's text as the shard returned it.
            assert all(p is None or tuple(p) in items for p in state['after'])
    assert read == sorted(items, key=reference_order, reverse=descending)
    asserted()
