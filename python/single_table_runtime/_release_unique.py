"""Releasing the unique values of items removed outside the runtime (lib/runtime/items/release-unique.ts): the
guards (_unique.py) of the values a stream event's REMOVE records held are deleted, each only while it still
names the removed item and that item does not hold the value again."""
from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any, Mapping, NamedTuple

from ._errors import SingleTableError, TransactionCanceledError
from ._streams import _image, decode_record
from ._transact import _send_transaction
from ._unique import GUARD_OWNER_ATTRIBUTE, guard_key
from ._values import attribute_of, checked_value

if TYPE_CHECKING:
    from ._context import TableContext


class UniqueValue(NamedTuple):
    """One unique value of a removed item; ``reason`` says why a skipped one has no guard."""
    entity: str
    key: dict[str, Any]
    attribute: str
    value: Any
    sequence_number: str | None
    reason: str | None = None


class ReleaseResult(NamedTuple):
    """``released``: the values now free. ``kept``: values whose guard stayed, because the item with that key holds the
    value again, or the guard is gone or names another item. ``skipped``: values no guard can exist for under the manifest."""
    released: list[UniqueValue]
    kept: list[UniqueValue]
    skipped: list[UniqueValue]


def release_unique_values(table: TableContext, event: Mapping[str, Any], any_remove: bool = False) -> ReleaseResult:
    """Releases the unique values the items of a stream event's REMOVE records held, for the records of DynamoDB's time to
    live (every REMOVE record with ``any_remove``). Each guard is deleted in a transaction of two checks: the guard still
    names the removed item's key as its owner, and the item with that key does not hold the value (it may have been
    written again since). Either failing keeps the guard. Raises INVALID_STREAM_RECORD, before anything is sent, for such
    a record without the old image."""
    model = table.model
    index = model.table_index
    pk, sk = index['partitionKey'], index['sortKey']
    work: list[tuple[UniqueValue, dict[str, Any]]] = []
    skipped: list[UniqueValue] = []
    # Every guard is worked out before the first request, so a bad record sends nothing.
    for record in event.get('Records', []):
        if record.get('eventName') != 'REMOVE':
            continue
        change = decode_record(model, record)
        entity = model.entities[change.entity] if change else None
        if change is None or entity is None or not entity.get('unique') or not (any_remove or change.expired):
            continue
        old_item = change.old_item
        if old_item is None:
            raise SingleTableError('INVALID_STREAM_RECORD', "a REMOVE record without the old image: the unique values the item held are unknown; set the "
                                   "table's stream to NEW_AND_OLD_IMAGES (or OLD_IMAGE)", entity=entity['name'])
        # The owner a guard names is the item's key as stored, which the record holds.
        stored = _image(record['dynamodb']['Keys'])
        owner = {pk: stored[pk], sk: stored[sk]}
        # The scope of scoped values is the item's own attribute.
        values = {**change.keys, **old_item}
        for attribute in entity['unique']:
            value = old_item.get(attribute)
            if value is None:
                continue
            ref = UniqueValue(entity['name'], change.keys, attribute, value, change.sequence_number)
            try:
                guard = guard_key(table, entity, attribute, value, values)
                if guard is None:
                    continue
                held = checked_value(entity['name'], attribute, attribute_of(entity, attribute)['type'], value)
            except SingleTableError as error:
                # The runtime writes no guard for such a value, so there is none to release.
                skipped.append(ref._replace(reason=str(error)))
                continue
            work.append((ref, {
                # One token per value: a resend of an attempt whose answer was lost is the same request.
                'ClientRequestToken': str(uuid.uuid4()),
                'TransactItems': [
                    {'ConditionCheck': {'TableName': table.table_name, 'Key': owner, 'ConditionExpression': 'attribute_not_exists(#a) OR #a <> :v',
                                        'ExpressionAttributeNames': {'#a': attribute}, 'ExpressionAttributeValues': {':v': held}}},
                    {'Delete': {'TableName': table.table_name, 'Key': guard, 'ConditionExpression': '#o.#pk = :pk AND #o.#sk = :sk',
                                'ExpressionAttributeNames': {'#o': GUARD_OWNER_ATTRIBUTE, '#pk': pk, '#sk': sk},
                                'ExpressionAttributeValues': {':pk': owner[pk], ':sk': owner[sk]}}},
                ],
            }))
    released: list[UniqueValue] = []
    kept: list[UniqueValue] = []
    for ref, request in work:
        sent = [{'action': 0, 'entity': ref.entity, 'key': ref.key}, {'action': 0, 'entity': ref.entity, 'key': ref.key, 'guard': (ref.attribute, ref.value)}]
        try:
            _send_transaction(table, sent, lambda request=request: table.client.transact_write_items(**request))
            released.append(ref)
        except TransactionCanceledError as error:
            # A failed check is the answer (the value is held); anything else is raised, and a retry of the whole event is
            # safe: the values released before come back as kept.
            if not error.reasons or not all(r['code'] == 'ConditionalCheckFailed' for r in error.reasons):
                raise
            kept.append(ref)
    return ReleaseResult(released, kept, skipped)
