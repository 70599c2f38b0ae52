"""Single-item writes of an entity with unique attributes (lib/runtime/items/unique-write.ts): each goes as a
one-action transaction with its guard writes (_unique.py), and its own failed condition raises what the
single-item operation raises."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ._errors import SingleTableError, TransactionCanceledError
from ._items import build_delete, build_put, get_item, write_failure
from ._transact import transact_write
from ._unique import touched, touched_by_operator
from ._update import build_update

if TYPE_CHECKING:
    from ._context import TableContext


def unique_put(table: TableContext, entity: str, item: Mapping[str, Any], mode: str, condition: Any) -> None:
    _alone(table, {'type': 'put', 'entity': entity, 'item': item, 'mode': mode, 'condition': condition},
           lambda: build_put(table, entity, item, mode, condition), item)


def unique_update(table: TableContext, entity: str, changes: Mapping[str, Any], remove: list[str] | tuple[str, ...], operators: Mapping[str, Any],
                  condition: Any, read_missing: bool) -> dict[str, Any] | None:
    """The update as a transaction with its guard writes; None when it touches no unique value (it goes as an UpdateItem).
    Raises, before any request, when no guard can be known."""
    model_entity = table.model.entity(entity)
    unique = model_entity.get('unique') or []
    for name in unique:
        # An operator's result is unknown without the item, and so the guard to move.
        if touched_by_operator(operators, name):
            raise SingleTableError('INVALID_VALUE', f'an update operator on the unique attribute {name} leaves its new value to DynamoDB, so the guard of that '
                                   f'value cannot be written; set {name} to its new value instead', entity=entity, attribute=name)
    moved = touched(model_entity, {'type': 'update', 'changes': changes, 'remove': remove})
    if not moved:
        return None
    if read_missing:
        raise SingleTableError('UNIQUE_NEEDS_TRANSACTION', f"an update with read_missing cannot move the guard items of unique {','.join(moved)}: "
                               'give every input of the index keys it moves instead, or write it with transact_write', entity=entity)
    _alone(table, {'type': 'update', 'entity': entity, 'changes': changes, 'remove': list(remove), 'condition': condition, **operators},
           lambda: build_update(table, entity, changes, remove, operators, condition), changes)
    # A transaction returns no item: read it as the update left it.
    return get_item(table, entity, {n: changes.get(n) for n in table.model.entity_keys(entity).table_names}, consistent=True)


def unique_delete(table: TableContext, entity: str, key: Mapping[str, Any], must_exist: bool, version: int | None, condition: Any) -> dict[str, Any] | None:
    before = get_item(table, entity, key, consistent=True)
    _alone(table, {'type': 'delete', 'entity': entity, 'key': key, 'must_exist': must_exist, 'version': version, 'condition': condition},
           lambda: build_delete(table, entity, key, must_exist, version, condition), key)
    return before


def _alone(table: TableContext, action: dict[str, Any], single_request: Any, values: Mapping[str, Any]) -> None:
    """One action as a transaction. Its own failed condition becomes the ConditionFailedError the single-item operation
    raises (VERSION_CONFLICT, the caller's condition, or the item's existence); a taken value is UNIQUE_VIOLATION."""
    try:
        transact_write(table, [action])
    except TransactionCanceledError as error:
        if error.code != 'TRANSACTION_CANCELLED':
            raise
        # The item's own condition failed (a create of an existing item may also find its own value taken).
        own = next((r for r in error.reasons if not r['unique']), None)
        if own is None or not all(r['code'] == 'ConditionalCheckFailed' for r in error.reasons):
            raise
        raise write_failure(table, action['entity'], single_request(), values, own['stored'], action.get('condition') is not None) from error
