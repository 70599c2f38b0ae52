"""The plan of one access-pattern query: what its requests are built from."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._keys import PatternKeys


class Plan:
    """A pattern's query as planned from its input and options; a filter or attributes complete it (_conditions.read_plan)."""

    __slots__ = ('keys', 'condition', 'descending', 'consistent', 'limit', 'fetch', 'projection', 'decode_keys', 'keep', 'filter')

    def __init__(self, keys: PatternKeys, condition: dict[str, Any], descending: bool, consistent: bool, limit: int | None, fetch: str) -> None:
        self.keys = keys
        self.condition = condition
        self.descending = descending
        self.consistent = consistent
        self.limit = limit
        self.fetch = fetch
        self.projection: list[str] | None = None
        self.decode_keys = False
        self.keep: frozenset[str] | None = None
        self.filter: Any = None
