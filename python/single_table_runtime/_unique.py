"""Unique attributes (lib/runtime/items/: unique.ts, unique-write.ts, release-unique.ts;
lib/runtime/transact/: plan.ts, run.ts). The value an item holds in a unique attribute is claimed by a guard item
whose key is made from the entity, the attribute and the value (and the scope's partition prefix
for a value unique per tenant); the guard names its owner, the table key of the item holding it.

A guard is deleted or given to another item only on the condition that it is absent or names an
item giving the value up: a guard naming another item (two items stored the value before it was
unique) is left in place. A value moving between items of one transaction, or two items swapping
values, is one put of the guard naming its new owner. Single-item writes of an entity with unique
attributes go as a one-action transaction with their guard writes."""
from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any, Mapping, NamedTuple

from ._encoding import MAX_PARTITION_KEY_BYTES, Invalid, encode_string, encode_value
from ._errors import SingleTableError, TransactionCanceledError
from ._keys import check_size
from ._values import attribute_of, checked_value, from_attribute_value

if TYPE_CHECKING:
    from ._table import Table

GUARD_OWNER_ATTRIBUTE = 'unique:owner'
OPERATORS = ('add', 'append', 'prepend', 'delete_from_set', 'set_if_missing')


def guard_mark(escape_char: str) -> str:
    """The reserved first segment of every guard partition key, and every guard's sort key."""
    return escape_char + 'unique'


def guard_key(table: Table, entity: dict[str, Any], attribute: str, value: Any, key_values: Mapping[str, Any]) -> dict[str, Any] | None:
    """The table key of the guard of ``value`` in ``attribute`` (lib/keys/unique-guard.ts), or None without a value.
    ``key_values`` hold the item's table key attributes, a scoped attribute's scope among them."""
    model = table.model
    esc, d = model.escape_char, model.delimiter
    encoded = encode_value(attribute_of(entity, attribute)['type'], value, esc)
    if encoded is None:
        return None
    if isinstance(encoded, Invalid):
        raise SingleTableError('INVALID_VALUE', f'{encoded.error} (a unique attribute)', entity=entity['name'], attribute=attribute)
    mark = guard_mark(esc)
    parts = [mark, encode_string(entity['typeValue'], esc), encode_string(attribute, esc), encoded]
    scope = (entity.get('uniqueScope') or {}).get(attribute)
    if scope is not None:
        template = entity['keys']['table']['pk']
        at = next(i for i, s in enumerate(template['segments']) if s.get('attribute') == scope)
        scoped = encode_value(template['segments'][at]['kind'], key_values.get(scope), esc)
        if scoped is None or isinstance(scoped, Invalid):
            raise SingleTableError('MISSING_ATTRIBUTE' if scoped is None else 'INVALID_VALUE',
                                   f"{'is missing' if scoped is None else scoped.error} (the scope of the unique values of {attribute})",
                                   entity=entity['name'], attribute=scope)
        parts = [*(s['literal'] for s in template['segments'][:at]), scoped, *parts]
    pk = d.join(parts)  # type: ignore[arg-type]
    check_size(entity, attribute, pk, MAX_PARTITION_KEY_BYTES)
    index = model.table_index
    return {index['partitionKey']: {'S': pk}, index['sortKey']: {'S': mark}}


def touched(entity: dict[str, Any], action: Mapping[str, Any]) -> list[str]:
    """The unique attributes an action can change, so the item's current values must be read first."""
    unique = entity.get('unique') or []
    kind = action['type']
    if kind == 'put':
        return [] if action.get('mode') == 'create' else unique
    if kind == 'delete':
        return unique
    if kind == 'update':
        return [u for u in unique if (action.get('changes') or {}).get(u) is not None or u in (action.get('remove') or [])]
    return []


def touched_by_operator(operators: Mapping[str, Any], name: str) -> str | None:
    """The update operator that sets ``name`` (DynamoDB computes its value), if one does."""
    return next((op for op in OPERATORS if operators.get(op) is not None and name in operators[op]), None)


class GuardWrite(NamedTuple):
    """A guard one action gives up (``claims`` False: the value it drops) or takes (the value it gets)."""
    key: dict[str, Any]
    owner: dict[str, Any]
    claims: bool
    attribute: str
    value: Any
    sent: dict[str, Any]


def guard_writes(table: Table, entity: dict[str, Any], owner: dict[str, Any], key_values: Mapping[str, Any], before: dict[str, Any] | None,
                 after: Mapping[str, Any] | None, attributes: list[str], sent: dict[str, Any]) -> list[GuardWrite]:
    """The guards of one item's change of unique values: ``before`` the item as read (None: none), ``after`` its values after
    the write (None: deleted). Unchanged values keep their guards."""
    pk = table.model.table_index['partitionKey']
    out = []
    for attribute in attributes:
        old = from_attribute_value(before[attribute]) if before and attribute in before else None
        new = after.get(attribute) if after is not None else None
        old_key = guard_key(table, entity, attribute, old, key_values) if old is not None else None
        new_key = guard_key(table, entity, attribute, new, key_values) if after is not None else None
        if (old_key or {}).get(pk) == (new_key or {}).get(pk):
            continue
        if old_key:
            out.append(GuardWrite(old_key, owner, False, attribute, old, sent))
        if new_key:
            out.append(GuardWrite(new_key, owner, True, attribute, new, sent))
    return out


def held_by(table: Table, owners: list[dict[str, Any]]) -> dict[str, Any]:
    """The condition that a guard is absent or names one of ``owners`` as the holder of its value."""
    index = table.model.table_index
    pk, sk = index['partitionKey'], index['sortKey']
    if not owners:
        return {'ConditionExpression': 'attribute_not_exists(#k)', 'ExpressionAttributeNames': {'#k': pk}}
    values: dict[str, Any] = {}
    held = []
    for i, owner in enumerate(owners):
        values[f':p{i}'] = owner[pk]
        values[f':s{i}'] = owner[sk]
        held.append(f'(#o.#k = :p{i} AND #o.#s = :s{i})')
    return {'ConditionExpression': ' OR '.join(['attribute_not_exists(#k)', *held]),
            'ExpressionAttributeNames': {'#k': pk, '#s': sk, '#o': GUARD_OWNER_ATTRIBUTE}, 'ExpressionAttributeValues': values}


def guard_requests(table: Table, writes: list[GuardWrite], kept: set[str]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """One request per guard the actions touch, and what it stands for. A guard one action gives up and another takes is
    one put naming its new owner, on the condition that it is absent or names the item giving it up (DynamoDB takes one
    action per item in a transaction). Two actions taking one value are refused. ``kept``: guards (by partition key) an
    action gives up that name another item, left in place."""
    model = table.model
    pk = model.table_index['partitionKey']
    by_guard: dict[str, list[GuardWrite]] = {}
    for w in writes:
        by_guard.setdefault(w.key[pk]['S'], []).append(w)
    out = []
    for guard_id, group in by_guard.items():
        claims = [w for w in group if w.claims]
        released = [w.owner for w in group if not w.claims]
        if len(claims) > 1:
            a, b = claims[0].sent, claims[1].sent
            raise SingleTableError('UNIQUE_VIOLATION', f"actions {a['action']} and {b['action']} both take {claims[1].attribute} = "
                                   f'{_json(claims[1].value)}; one transaction can give a value to one item', entity=b['entity'], attribute=claims[1].attribute)
        first = claims[0] if claims else group[0]
        sent = {**first.sent, 'guard': (first.attribute, first.value)}
        if claims:
            item = {**first.key, model.type_attribute: {'S': guard_mark(model.escape_char)}, GUARD_OWNER_ATTRIBUTE: {'M': first.owner}}
            out.append(({'Put': {'TableName': table.table_name, 'Item': item, **held_by(table, released)}}, sent))
        elif guard_id not in kept:
            out.append(({'Delete': {'TableName': table.table_name, 'Key': first.key, **held_by(table, released)}}, {**sent, 'releases': guard_id}))
    return out


def releases_refused(error: TransactionCanceledError, sent: list[dict[str, Any]]) -> list[str]:
    """The guards (by partition key) whose release failed: each names another item."""
    cause = error.__cause__
    raw = getattr(cause, 'response', {}).get('CancellationReasons', [])
    return [s['releases'] for s, r in zip(sent, raw) if 'releases' in s and r.get('Code') == 'ConditionalCheckFailed']


def _json(value: Any) -> str:
    import json
    return json.dumps(value, default=str, ensure_ascii=False)


# ---- single-item writes of entities with unique attributes ---------------------------------------

def unique_put(table: Table, entity: str, item: Mapping[str, Any], mode: str, condition: Any) -> None:
    from ._items import build_put
    _alone(table, {'type': 'put', 'entity': entity, 'item': item, 'mode': mode, 'condition': condition},
           lambda: build_put(table, entity, item, mode, condition), item)


def unique_update(table: Table, entity: str, changes: Mapping[str, Any], remove: list[str] | tuple[str, ...], operators: Mapping[str, Any],
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
    from ._update import build_update
    _alone(table, {'type': 'update', 'entity': entity, 'changes': changes, 'remove': list(remove), 'condition': condition, **operators},
           lambda: build_update(table, entity, changes, remove, operators, condition), changes)
    # A transaction returns no item: read it as the update left it.
    return table.get(entity, {n: changes.get(n) for n in table.model.entity_keys(entity).table_names}, consistent=True)


def unique_delete(table: Table, entity: str, key: Mapping[str, Any], must_exist: bool, version: int | None, condition: Any) -> dict[str, Any] | None:
    from ._items import build_delete
    before = table.get(entity, key, consistent=True)
    _alone(table, {'type': 'delete', 'entity': entity, 'key': key, 'must_exist': must_exist, 'version': version, 'condition': condition},
           lambda: build_delete(table, entity, key, must_exist, version, condition), key)
    return before


def _alone(table: Table, action: dict[str, Any], single_request: Any, values: Mapping[str, Any]) -> None:
    """One action as a transaction. Its own failed condition becomes the ConditionFailedError the single-item operation
    raises (VERSION_CONFLICT, the caller's condition, or the item's existence); a taken value is UNIQUE_VIOLATION."""
    from ._items import write_failure
    from ._transact import transact_write
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


# ---- releasing the values of items removed outside the runtime ----------------------------------

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


def release_unique_values(table: Table, event: Mapping[str, Any], any_remove: bool = False) -> ReleaseResult:
    """Releases the unique values the items of a stream event's REMOVE records held, for the records of DynamoDB's time to
    live (every REMOVE record with ``any_remove``). Each guard is deleted in a transaction of two checks: the guard still
    names the removed item's key as its owner, and the item with that key does not hold the value (it may have been
    written again since). Either failing keeps the guard. Raises INVALID_STREAM_RECORD, before anything is sent, for such
    a record without the old image."""
    from ._streams import _image, decode_record
    from ._transact import _send_transaction
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
