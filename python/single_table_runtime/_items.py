"""Single-item requests (lib/runtime/items/: requests.ts, maintained-writes.ts, write-failure.ts): put, get and
delete inputs built from the model before anything is sent, with a versioned entity's version
condition and an entity's timestamps; a refused condition becomes CONDITION_FAILED or VERSION_CONFLICT
naming the entity, the key and what failed."""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from botocore.exceptions import ClientError

from ._encoding import describe
from ._errors import SingleTableError
from ._send import error_code, with_retry
from ._values import attribute_of, checked_value, from_item, item_attributes

if TYPE_CHECKING:
    from ._context import TableContext

EXPECTED_VERSION = ':expectedVersion'


class ConditionFailedError(SingleTableError):
    """A write refused by its condition: CONDITION_FAILED, or VERSION_CONFLICT (with expected_version and stored_version)."""

    def __init__(self, code: str, message: str, entity: str, item: dict[str, Any] | None = None,
                 expected_version: int | None = None, stored_version: int | None = None) -> None:
        super().__init__(code, message, entity=entity)
        self.item = item
        self.expected_version = expected_version
        self.stored_version = stored_version


# The time a transaction stamps its actions with: one for all of them, as the Node.js runtime stamps
# a transaction, and the same when it is sent again.
_stamp: ContextVar[str | None] = ContextVar('single_table_stamp', default=None)


def now_iso() -> str:
    stamp = _stamp.get()
    if stamp is not None:
        return stamp
    now = datetime.now(timezone.utc)
    return now.strftime('%Y-%m-%dT%H:%M:%S.') + f'{now.microsecond // 1000:03d}Z'


@contextmanager
def one_time() -> Iterator[None]:
    """Within it, every timestamp a write takes is the time it was entered."""
    token = _stamp.set(now_iso())
    try:
        yield
    finally:
        _stamp.reset(token)


_UNCOMPILED: Any = object()


def _compile_fast_write(table: TableContext, entity_name: str) -> Any:
    from ._fast_put import compile_fast_write
    fast = table.fast_writes[entity_name] = compile_fast_write(table.model.entity_keys(entity_name))
    return fast


def item_to_write(table: TableContext, entity: dict[str, Any], item: Mapping[str, Any]) -> dict[str, Any]:
    """Every attribute DynamoDB stores for an item: values, type, table and index keys."""
    fast = table.fast_writes.get(entity['name'], _UNCOMPILED)
    if fast is _UNCOMPILED:
        fast = _compile_fast_write(table, entity['name'])
    if fast is not None:
        stored = fast(item)
        if stored is not None:
            return stored  # the common case, straight-line; anything else takes the general path below
    keys = table.model.entity_keys(entity['name'])
    stored = item_attributes(entity, item, keys.attribute_checks)
    if keys.keyed_values:
        keys.check_key_values(stored.items())
    keys.write_keys(item, stored)
    stored[table.model.type_attribute] = {'S': entity['typeValue']}
    return stored


def _existence(table: TableContext, exists: bool) -> dict[str, Any]:
    return {'ConditionExpression': 'attribute_exists(#pk)' if exists else 'attribute_not_exists(#pk)',
            'ExpressionAttributeNames': {'#pk': table.model.table_index['partitionKey']}}


def _version_condition(table: TableContext, attribute: str, expected: int) -> dict[str, Any]:
    return {'ConditionExpression': f'attribute_exists(#pk) AND #ver = {EXPECTED_VERSION}',
            'ExpressionAttributeNames': {'#pk': table.model.table_index['partitionKey'], '#ver': attribute},
            'ExpressionAttributeValues': {EXPECTED_VERSION: {'N': str(expected)}}}


def expected_version(entity: dict[str, Any], value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 or value > 2 ** 53 - 1:
        raise SingleTableError('INVALID_VALUE', f'is the version the write expects: a whole number from 1 as read from the item, got {describe(value)}',
                               entity=entity['name'], attribute=entity['version'])
    return value


def with_maintained(entity: dict[str, Any], item: Mapping[str, Any], expected: int | None = None) -> Mapping[str, Any]:
    """The item with the next version (1 for a create) and the timestamps (createdAt kept when given, updatedAt now)."""
    version, timestamps = entity.get('version'), entity.get('timestamps')
    if version is None and not timestamps:
        return item
    out = dict(item)
    if version is not None:
        out[version] = (expected or 0) + 1
    if timestamps:
        now = now_iso()
        if out.get(timestamps['createdAt']) is None:
            out[timestamps['createdAt']] = now
        out[timestamps['updatedAt']] = now
    return out


def build_put(table: TableContext, entity_name: str, item: Mapping[str, Any], mode: str = 'upsert', condition: Any = None) -> dict[str, Any]:
    """The PutItem request of an item (an entity with unique attributes writes it in a transaction with its guards)."""
    if condition is None and entity_name.__class__ is str:
        # An entity without versions, timestamps or unique values, an item of plain values: one compiled function.
        fast = table.fast_writes.get(entity_name, _UNCOMPILED)
        if fast is _UNCOMPILED and entity_name in table.model.entities:
            fast = _compile_fast_write(table, entity_name)
        if fast is not None and fast is not _UNCOMPILED:
            stored = fast(item)
            if stored is not None:
                if mode == 'upsert':
                    return {'TableName': table.table_name, 'Item': stored}
                if mode == 'create' or mode == 'replace':
                    return {'TableName': table.table_name, 'Item': stored, **_existence(table, mode == 'replace')}
    entity = table.model.entity(entity_name)
    version = entity.get('version')
    expected = expected_version(entity, item.get(version)) if version is not None and isinstance(item, Mapping) else None
    request: dict[str, Any] = {'TableName': table.table_name, 'Item': item_to_write(table, entity, with_maintained(entity, item, expected))}
    if mode not in ('upsert', 'create', 'replace'):
        raise SingleTableError('INVALID_VALUE', f"put mode {mode!r} is not 'upsert', 'create' or 'replace'", entity=entity_name)
    if version is not None:
        if expected is None and mode == 'replace':
            raise SingleTableError('MISSING_ATTRIBUTE', 'is the version: a replace of a versioned item gives the version it read', entity=entity_name, attribute=version)
        if expected is not None and mode == 'create':
            raise SingleTableError('INVALID_VALUE', 'is the version: a create writes version 1; leave it out', entity=entity_name, attribute=version)
        request.update(_existence(table, False) if expected is None else _version_condition(table, version, expected))
        request['ReturnValuesOnConditionCheckFailure'] = 'ALL_OLD'
    elif mode != 'upsert':
        request.update(_existence(table, mode == 'replace'))
    if condition is not None:
        from ._conditions import add_condition
        add_condition(table, request, entity, condition)
    return request


def key_from_input(table: TableContext, entity: dict[str, Any], key: Any) -> dict[str, Any]:
    """The table key from exactly its key attributes, each of its kind."""
    if not isinstance(key, Mapping):
        raise SingleTableError('INVALID_VALUE', 'the key must be a dict', entity=entity['name'])
    keys = table.model.entity_keys(entity['name'])
    for name in key:
        if name not in keys.table_names:
            templates = keys.table_templates
            raise SingleTableError('UNKNOWN_ATTRIBUTE', f"is not part of the table key ({templates['pk']['source']} / {templates['sk']['source']}); "
                                   f"pass only {', '.join(keys.table_names)}", entity=entity['name'], attribute=name)
        if key[name] is not None:
            checked_value(entity['name'], name, attribute_of(entity, name)['type'], key[name])
    return keys.key_item(key)


def build_get(table: TableContext, entity_name: str, key: Mapping[str, Any], consistent: bool = False) -> dict[str, Any]:
    entity = table.model.entity(entity_name)
    return {'TableName': table.table_name, 'Key': key_from_input(table, entity, key), 'ConsistentRead': consistent}


def get_item(table: TableContext, entity_name: str, key: Mapping[str, Any], consistent: bool = False) -> dict[str, Any] | None:
    """The item with a table key, read with GetItem; None when there is none."""
    request = build_get(table, entity_name, key, consistent)
    out = with_retry(table.retry, lambda: table.client.get_item(**request))
    return from_item(out['Item'], table.model.strip) if 'Item' in out else None


def build_delete(table: TableContext, entity_name: str, key: Mapping[str, Any], must_exist: bool = False, version: int | None = None,
                 condition: Any = None) -> dict[str, Any]:
    entity = table.model.entity(entity_name)
    request: dict[str, Any] = {'TableName': table.table_name, 'Key': key_from_input(table, entity, key), 'ReturnValues': 'ALL_OLD'}
    if version is not None:
        if entity.get('version') is None:
            raise SingleTableError('INVALID_VALUE', f'is not versioned: remove the version option ({version})', entity=entity_name)
        request.update(_version_condition(table, entity['version'], expected_version(entity, version)))  # type: ignore[arg-type]
    elif must_exist:
        request.update(_existence(table, True))
    if version is not None or condition is not None:
        request['ReturnValuesOnConditionCheckFailure'] = 'ALL_OLD'
    if condition is not None:
        from ._conditions import add_condition
        add_condition(table, request, entity, condition)
    return request


_OPERATIONS = {'put_item': 'PutItem', 'update_item': 'UpdateItem', 'delete_item': 'DeleteItem'}


def _returns_stored_item(client: Any, method: str) -> bool:
    """Whether the client's botocore knows ReturnValuesOnConditionCheckFailure for a write (from 1.31; older ones refuse it)."""
    try:
        return 'ReturnValuesOnConditionCheckFailure' in client.meta.service_model.operation_model(_OPERATIONS[method]).input_shape.members
    except AttributeError:
        return True


def send_write(table: TableContext, entity_name: str, method: str, request: dict[str, Any], values: Mapping[str, Any],
               condition: Any = None) -> dict[str, Any]:
    """Sends a single-item write; a failed condition becomes CONDITION_FAILED or VERSION_CONFLICT. With a botocore too old
    to ask for the stored item on failure, a consistent read after the failure tells what is stored."""
    wants_item = 'ReturnValuesOnConditionCheckFailure' in request
    if wants_item and not _returns_stored_item(table.client, method):
        request = {k: v for k, v in request.items() if k != 'ReturnValuesOnConditionCheckFailure'}
    try:
        return with_retry(table.retry, lambda: getattr(table.client, method)(**request))
    except ClientError as error:
        if error_code(error) != 'ConditionalCheckFailedException':
            raise
        stored = error.response.get('Item')
        if wants_item and stored is None and 'ReturnValuesOnConditionCheckFailure' not in request:
            stored = table.client.get_item(TableName=table.table_name, Key=request.get('Key') or _key_of(table, request['Item']), ConsistentRead=True).get('Item')
        raise write_failure(table, entity_name, request, values, stored, condition is not None) from error


def _key_of(table: TableContext, item: dict[str, Any]) -> dict[str, Any]:
    index = table.model.table_index
    return {index['partitionKey']: item[index['partitionKey']], index['sortKey']: item[index['sortKey']]}


def write_failure(table: TableContext, entity_name: str, request: Mapping[str, Any], values: Mapping[str, Any],
                  stored: dict[str, Any] | None, caller_condition: bool = False) -> ConditionFailedError:
    """Why a write was refused: a version conflict (told by the stored item), the caller's condition, or the item's existence."""
    entity = table.model.entities[entity_name]
    creates = 'attribute_not_exists(#pk)' in request.get('ConditionExpression', '')
    item = from_item(stored, table.model.strip) if stored else None
    names = table.model.entity_keys(entity_name).table_names
    where = '(' + ', '.join(f'{n}: {values.get(n)!r}' for n in names) + ')'
    version = entity.get('version')
    expected = request.get('ExpressionAttributeValues', {}).get(EXPECTED_VERSION, {}).get('N')
    if stored and version and (creates or expected is not None):
        actual = stored.get(version, {}).get('N')
        if creates or actual != expected:
            at = 'has no version' if actual is None else f'is at version {actual}'
            fix = '' if actual is None else f'; read it and retry with version {actual}'
            head = 'a put without a version only creates, and the item' if creates else f'the write expected version {expected}; the item'
            return ConditionFailedError('VERSION_CONFLICT', f'{where}: {head} {at}{fix}', entity_name, item,
                                        None if expected is None else int(expected), None if actual is None else int(actual))
    why = 'an item with this key already exists' if creates else 'there is no item with this key'
    if caller_condition and ('attribute_not_exists(#pk)' if stored else 'attribute_exists(#pk)') not in request.get('ConditionExpression', ''):
        why = "the caller's condition is false for " + ("the item as stored (the error's `item`)" if stored else 'the item: there is none with this key')
    return ConditionFailedError('CONDITION_FAILED', f'{where}: {why}', entity_name, item)
