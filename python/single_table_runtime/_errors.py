"""Typed runtime errors, with the same stable codes as the Node.js runtime's SingleTableError.

Every failure the runtime detects itself is raised before any network call and names the entity or
pattern, the attribute and the rule it broke; ``code`` is stable so callers branch on it.
"""
from __future__ import annotations

import json
from typing import Any, Iterable


class SingleTableError(Exception):
    """An error raised by the runtime, with a stable ``code`` (the Node.js runtime's codes)."""

    def __init__(self, code: str, message: str, *, entity: str | None = None, pattern: str | None = None,
                 attribute: str | None = None) -> None:
        where = ', '.join(part for part in (
            entity and f'entity {entity}', pattern and f'pattern {pattern}', attribute and f'attribute {attribute}') if part)
        super().__init__(f"[{code}] {where + ': ' if where else ''}{message}")
        self.code = code
        self.entity = entity
        self.pattern = pattern
        self.attribute = attribute


def closest_name(name: str, names: Iterable[str]) -> str | None:
    """The name among ``names`` closest to ``name`` by edit distance (Levenshtein, ignoring case), when it is at
    most a third of the name's length away (at least one edit), as the Node.js runtime chooses it; else None."""
    a = str(name).lower()
    best = None
    within = max(1, len(a) // 3)
    for candidate in names:
        b = candidate.lower()
        row = list(range(len(b) + 1))
        for i in range(1, len(a) + 1):
            diagonal = row[0]
            row[0] = i
            for j in range(1, len(b) + 1):
                above = row[j]
                row[j] = min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1]))
                diagonal = above
        if row[len(b)] <= within:
            best = candidate
            within = row[len(b)] - 1
    return best


def did_you_mean(name: str, names: Iterable[str]) -> str:
    """``did you mean 'orderId'? `` for a name close to one of ``names``, else the empty string: a prefix for a fix."""
    closest = closest_name(name, names)
    return '' if closest is None else f"did you mean '{closest}'? "


class UnprocessedError(SingleTableError):
    """A batch that still had requests not known to be processed after every retry.

    ``unprocessed`` lists them as the caller passed them: those DynamoDB handed back, and every
    request of a call that failed without an answer (it may have been applied). Nothing is dropped.
    """

    def __init__(self, operation: str, unprocessed: list[Any], attempts: int, cause: BaseException | None = None) -> None:
        reason = f' (last error: {type(cause).__name__}: {cause})' if cause is not None else ''
        super().__init__('UNPROCESSED', f'{operation} left {len(unprocessed)} request(s) unprocessed after {attempts} attempt(s)'
                         f'{reason}: {json.dumps(unprocessed, default=str)}')
        self.unprocessed = unprocessed


class TransactionCanceledError(SingleTableError):
    """A cancelled transaction: ``reasons`` holds one entry per action (code, message, unique value held)."""

    def __init__(self, code: str, message: str, reasons: list[dict[str, Any]], **where: Any) -> None:
        super().__init__(code, message, **where)
        self.reasons = reasons
