"""Fan-out query over the shards of a write-sharded GSI partition key (lib/runtime/query/fanout.ts): one
query per shard on threads, merged in index order (sort key, then the table key) by a k-way merge;
the limit applies to the merged page, and the state (the cursor's position, in the Node.js
runtime's format) resumes every shard exactly after the last item it contributed.

The sort key is one string attribute (a composed key) or the tuple of a multi-attribute GSI's sort
attributes, strings and numbers. Strings compare by code point in Python, which is the UTF-8 byte
order DynamoDB sorts keys in; numbers compare as Decimals, exact for every number DynamoDB holds.
A position holds each key's text as DynamoDB returned it (a number's digits as they are).
"""
from __future__ import annotations

import heapq
import math
import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Callable

from ._errors import SingleTableError
from ._encoding import must_be

if TYPE_CHECKING:
    from concurrent.futures import Executor

Item = dict[str, Any]
# heapq's max-heap functions, public from Python 3.14 and in its C module under these names before.
_MAX_HEAP = tuple(getattr(heapq, name, None) or getattr(heapq, '_' + name) for name in ('heapify_max', 'heapreplace_max', 'heappop_max'))
# (shard, exclusive start key or None, limit) -> DynamoDB's Query output
Fetch = Callable[[int, 'Item | None', int], dict[str, Any]]
# A key attribute as the merge reads it: its name, and whether it holds a number (N) rather than a string (S).
KeyAttribute = tuple[str, bool]


def page_size(items: int, part: float) -> int:
    """Items to ask of a shard expected to hold ``part`` of the next ``items``: the share plus three standard deviations, plus one."""
    share = items * part
    return min(items, math.ceil(share + 3 * math.sqrt(share)) + 1)


def _key(item: Item, attribute: str, number: bool = False) -> str:
    value = item.get(attribute, {}).get('N' if number else 'S')
    if value is None:
        raise ValueError(f"fan-out query: item has no {'number' if number else 'string'} key attribute '{attribute}'; "
                         'every item of an index query carries the index and table keys')
    return value


def _typed(item: Item, typed: list[KeyAttribute]) -> tuple[Any, ...]:
    """An item's key tuple where some keys are numbers: each number a Decimal, which orders as DynamoDB orders numbers."""
    try:
        return tuple([Decimal(item[a]['N']) if number else item[a]['S'] for a, number in typed])
    except KeyError:
        return tuple([Decimal(_key(item, a, number)) if number else _key(item, a) for a, number in typed])


class _Shard:
    def __init__(self, slot: int, shard: int, start: list[str] | None, key_attributes: list[str], typed: list[KeyAttribute] | None,
                 sort_width: int, partition_key: Callable[[int], Item] | None) -> None:
        self.slot = slot
        self.shard = shard
        self.start = start
        self.key_attributes = key_attributes
        self.typed = typed
        self.sort_width = sort_width
        self.buffer: list[Item] = []
        self.next = 0
        self.more = True
        self.resume: Item | None = None
        self.passed: Item | None = None
        self.taken = 0
        self.asked = 0
        self.got = 0
        if start is not None:
            key: Item = partition_key(shard) if partition_key else {}
            for (attribute, number), value in zip(typed or [(a, False) for a in key_attributes], start):
                key[attribute] = {'N': value} if number else {'S': value}
            self.resume = key

    @property
    def has_head(self) -> bool:
        return self.next < len(self.buffer)

    def head_key(self) -> tuple[Any, ...]:
        item = self.buffer[self.next]
        if self.typed is not None:
            return _typed(item, self.typed)
        try:
            return tuple([item[a]['S'] for a in self.key_attributes])
        except KeyError:
            return tuple([_key(item, a) for a in self.key_attributes])  # names the attribute the item lacks

    def take(self) -> Item:
        self.passed = self.buffer[self.next]
        self.next += 1
        self.taken += 1
        return self.passed

    def fill(self, fetch: Fetch, limit: int, descending: bool, floor: tuple[Any, ...] | None) -> None:
        """Reads until the shard has a head or nothing more; items sorting before ``floor`` are read past."""
        while True:
            page = fetch(self.shard, self.resume, limit)
            self.asked += limit
            items = page.get('Items', [])
            self.got += len(items)
            self.buffer = self.buffer[self.next:] + items
            self.next = 0
            self.resume = page.get('LastEvaluatedKey')
            self.more = self.resume is not None
            if floor is not None:
                width = self.sort_width
                while self.has_head and ((self.head_key()[:width] > floor) if descending else (self.head_key()[:width] < floor)):
                    self.passed = self.buffer[self.next]
                    self.next += 1
            if self.has_head or not self.more:
                return

    def position(self) -> list[str] | None:
        if self.passed is None:
            return self.start
        if self.typed is not None:
            return [_key(self.passed, a, number) for a, number in self.typed]
        return [_key(self.passed, a) for a in self.key_attributes]


# A number's text as DynamoDB writes it: a sign, digits with at most one point (at least one digit), an exponent.
_NUMBER_TEXT = re.compile(r'[+-]?([0-9]*)(?:\.([0-9]*))?(?:[eE][+-]?[0-9]+)?')


def _number_text(text: str) -> bool:
    m = _NUMBER_TEXT.fullmatch(text)
    return m is not None and bool(m[1] or m[2])


def check_state(state: Any, shards: list[int], key_count: int, pattern: str | None, numbers: tuple[bool, ...] = ()) -> None:
    """Raises INVALID_CURSOR unless ``state`` is one a fan-out over ``shards`` returned: per shard a position of ``key_count``
    strings (those ``numbers`` marks numbers' text) or None, and the shard of the last item."""
    def whole(n: Any, least: int) -> bool:
        return isinstance(n, int) and not isinstance(n, bool) and n >= least

    def is_key(p: Any) -> bool:
        return (isinstance(p, list) and len(p) == key_count and all(isinstance(v, str) for v in p)
                and all(_number_text(v) for v, number in zip(p, numbers) if number))

    after = state.get('after') if isinstance(state, dict) else None
    if not isinstance(after, list) or len(after) != len(shards):
        reason = f"the state holds {len(after) if isinstance(after, list) else 'no'} shard positions but the query fans out over {len(shards)} shards"
    elif not all(p is None or is_key(p) for p in after) or not whole(state.get('last'), 0) or state['last'] >= len(after) or not is_key(after[state['last']]):
        reason = 'the state is not one a fan-out query returned'
    else:
        return
    raise SingleTableError('INVALID_CURSOR', f'fan-out query: {reason}; start again without a state', pattern=pattern)


def fan_out_query(fetch: Fetch, executor: Executor, *, shards: list[int], limit: int, descending: bool, sort_keys: list[str],
                  tie_break_keys: list[str], partition_key: Callable[[int], Item] | None = None, sorted_index: bool = True,
                  number_keys: frozenset[str] = frozenset(), concurrency: int | None = None, state: Any = None,
                  pattern: str | None = None) -> tuple[list[Item], dict[str, Any] | None]:
    """One merged page over ``shards`` and the state that resumes after it (None when no shard has more).

    Items merge by ``sort_keys`` (the index's sort key, or a multi-attribute GSI's sort attributes; those in
    ``number_keys`` hold numbers), then ``tie_break_keys`` (the table key). ``partition_key`` gives a shard's index
    partition key attributes, which make its start key complete."""
    if concurrency is not None and not (isinstance(concurrency, int) and concurrency >= 1):
        raise SingleTableError('INVALID_VALUE', 'shard_concurrency ' + must_be('a whole number of at least 1', concurrency), pattern=pattern)
    key_attributes = [*sort_keys, *tie_break_keys]
    # A composed key's attributes are all strings, compared as they are; numbers make the keys typed.
    typed = [(a, a in number_keys) for a in key_attributes] if number_keys else None
    if state is not None:
        check_state(state, shards, len(key_attributes), pattern, tuple(n for _, n in typed) if typed else ())
    # Items written behind the merge position since the last page sort before items already returned: read past them.
    floor = None
    if state is not None and sorted_index:
        at = state['after'][state['last']][:len(sort_keys)]
        floor = tuple([Decimal(v) if number else v for v, (_, number) in zip(at, typed)]) if typed else tuple(at)
    cursors = [_Shard(i, shard, state['after'][i] if state is not None else None, key_attributes, typed, len(sort_keys), partition_key)
               for i, shard in enumerate(shards)]
    first = page_size(limit, 1 / len(cursors))
    _each(executor, cursors, concurrency, lambda c: c.fill(fetch, first, descending, floor))

    # A heap of the shards' heads (key tuples compare in C; the keys hold the table key, so no two are equal): the
    # shard at the top gives its head, and its next head replaces it in one step.
    heapify, replace, pop = _MAX_HEAP if descending else (heapq.heapify, heapq.heapreplace, heapq.heappop)
    heap = [(c.head_key(), c.slot, c) for c in cursors if c.has_head]
    heapify(heap)
    items: list[Item] = []
    last = -1
    while len(items) < limit and heap:
        c = heap[0][2]
        items.append(c.take())
        last = c.slot
        if not c.has_head and c.more and len(items) < limit:
            remaining = limit - len(items)
            active = sum(1 for s in cursors if s.has_head or s.more)
            part = max(1 / active, c.taken / len(items))
            c.fill(fetch, min(limit, math.ceil(page_size(remaining, part) * c.asked / max(c.got, 1))), descending, floor)
        if c.has_head:
            replace(heap, (c.head_key(), c.slot, c))
        else:
            pop(heap)
    if not any(c.has_head or c.more for c in cursors):
        return items, None
    return items, {'after': [c.position() for c in cursors], 'last': last}


def _each(executor: Executor, cursors: list[_Shard], concurrency: int | None, run: Callable[[_Shard], None]) -> None:
    if len(cursors) == 1:
        run(cursors[0])
        return
    bound = concurrency or len(cursors)
    for start in range(0, len(cursors), bound):
        *others, own = cursors[start:start + bound]
        futures = [executor.submit(run, c) for c in others]
        run(own)  # the calling thread reads a shard too rather than only wait: one thread fewer to wake
        for future in futures:
            future.result()
