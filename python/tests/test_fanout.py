"""The fan-out merge, property-tested over in-memory shards: pages read one after the other from the
state each returns hold every item once, in the index's order, ascending and descending."""
from __future__ import annotations

import bisect
from concurrent.futures import ThreadPoolExecutor
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
