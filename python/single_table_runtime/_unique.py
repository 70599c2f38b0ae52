"""Unique attributes (lib/runtime/items/unique.ts; lib/runtime/transact/: plan.ts, run.ts). The value
an item holds in a unique attribute is claimed by a guard item whose key is made from the entity,
the attribute and the value (and the scope's partition prefix for a value unique per tenant); the
guard names its owner, the table key of the item holding it.

A guard is deleted or given to another item only on the condition that it is absent or names an
item giving the value up: a guard naming another item (two items stored the value before it was
unique) is left in place. A value moving between items of one transaction, or two items swapping
values, is one put of the guard naming its new owner."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, NamedTuple

from ._encoding import MAX_PARTITION_KEY_BYTES, Invalid, encode_string, encode_value
from ._errors import SingleTableError, TransactionCanceledError
from ._keys import check_size
from ._values import attribute_of, from_attribute_value

if TYPE_CHECKING:
    from ._context import TableContext

GUARD_OWNER_ATTRIBUTE = 'unique:owner'
OPERATORS = ('add', 'append', 'prepend', 'delete_from_set', 'set_if_missing')


def guard_mark(escape_char: str) -> str:
    """The reserved first segment of every guard partition key, and every guard's sort key."""
    return escape_char + 'unique'


def guard_key(table: TableContext, entity: dict[str, Any], attribute: str, value: Any, key_values: Mapping[str, Any]) -> dict[str, Any] | None:
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


def guard_writes(table: TableContext, entity: dict[str, Any], owner: dict[str, Any], key_values: Mapping[str, Any], before: dict[str, Any] | None,
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


def held_by(table: TableContext, owners: list[dict[str, Any]]) -> dict[str, Any]:
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


def guard_requests(table: TableContext, writes: list[GuardWrite], kept: set[str]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
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
