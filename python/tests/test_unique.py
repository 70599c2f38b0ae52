"""Unique values on DynamoDB Local, as the Node.js runtime keeps them: single-item writes of an entity
with unique attributes go with their guards; a guard is given up or passed on only by the item it
names; values move and swap between the items of one transaction; a scoped value is unique within
its tenant; and the values of items removed outside the runtime are released from a stream event."""
from __future__ import annotations

from typing import Any

import pytest

from single_table_runtime import ConditionFailedError, SingleTableError, TransactionCanceledError
from single_table_runtime._items import build_put
from single_table_runtime._unique import guard_key


def guard(table: Any, entity: str, attribute: str, value: Any, key: dict[str, Any]) -> dict[str, Any] | None:
    """The guard item of a value as stored (None when there is none), its owner decoded to the table key it names."""
    stored = table.client.get_item(TableName=table.table_name, Key=guard_key(table, table.model.entity(entity), attribute, value, key),
                                   ConsistentRead=True).get('Item')
    return None if stored is None else {k: v['S'] for k, v in stored['unique:owner']['M'].items()}


def put_without_guard(table: Any, entity: str, item: dict[str, Any]) -> None:
    """Writes an item as other code would, with no guard (the value stored before it was unique)."""
    request = build_put(table, entity, item)
    request.pop('ReturnValuesOnConditionCheckFailure', None)  # not every botocore knows it on a PutItem
    table.client.put_item(**request)


def owner(table: Any, entity: str, key: dict[str, Any]) -> dict[str, Any]:
    return {k: v['S'] for k, v in table.model.entity_keys(entity).key_item(key).items()}


def test_single_item_writes_take_move_and_release_their_guards(maintained: Any) -> None:
    a1, a2 = {'id': 'a1'}, {'id': 'a2'}
    maintained.put('Account', {**a1, 'email': 'a@x'})
    assert guard(maintained, 'Account', 'email', 'a@x', a1) == owner(maintained, 'Account', a1)
    with pytest.raises(TransactionCanceledError) as taken:
        maintained.put('Account', {**a2, 'email': 'a@x'})
    assert taken.value.code == 'UNIQUE_VIOLATION' and taken.value.attribute == 'email' and maintained.get('Account', a2, consistent=True) is None
    with pytest.raises(ConditionFailedError) as exists:
        maintained.put('Account', {**a1, 'email': 'other@x'})  # a put without a version only creates
    assert exists.value.code == 'VERSION_CONFLICT' and exists.value.stored_version == 1
    moved = maintained.update('Account', {**a1, 'version': 1, 'email': 'b@x'})
    assert moved['email'] == 'b@x' and moved['version'] == 2
    assert guard(maintained, 'Account', 'email', 'a@x', a1) is None and guard(maintained, 'Account', 'email', 'b@x', a1) == owner(maintained, 'Account', a1)
    maintained.put('Account', {**a2, 'email': 'a@x'})
    with pytest.raises(ConditionFailedError) as conflict:
        maintained.update('Account', {**a1, 'version': 1, 'email': 'c@x'})
    assert conflict.value.code == 'VERSION_CONFLICT' and guard(maintained, 'Account', 'email', 'c@x', a1) is None
    assert maintained.update('Account', {**a1, 'version': 2, 'name': 'Ann'})['name'] == 'Ann'  # no unique value: an UpdateItem
    assert maintained.delete('Account', a1)['email'] == 'b@x'
    assert guard(maintained, 'Account', 'email', 'b@x', a1) is None
    for options, code in (({'add': {'email': 'x'}}, 'INVALID_VALUE'), ({'read_missing': True}, 'UNIQUE_NEEDS_TRANSACTION')):
        with pytest.raises(SingleTableError) as refused:
            maintained.update('Account', {**a2, 'version': 1, **({} if 'add' in options else {'email': 'd@x'})}, **options)
        assert refused.value.code == code and 'email' in str(refused.value)


def test_a_guard_naming_another_item_stays_when_an_item_gives_that_value_up(maintained: Any) -> None:
    # Two items stored the value before it was unique: the guard names the other one.
    maintained.put('Account', {'id': 'a9', 'email': 'shared@x'})
    put_without_guard(maintained, 'Account', {'id': 'a1', 'email': 'shared@x'})
    a9 = owner(maintained, 'Account', {'id': 'a9'})
    assert guard(maintained, 'Account', 'email', 'shared@x', {}) == a9
    maintained.update('Account', {'id': 'a1', 'version': 1, 'email': 'mine@x'})
    assert guard(maintained, 'Account', 'email', 'shared@x', {}) == a9
    assert guard(maintained, 'Account', 'email', 'mine@x', {}) == owner(maintained, 'Account', {'id': 'a1'})
    put_without_guard(maintained, 'Account', {'id': 'a2', 'email': 'shared@x'})
    maintained.delete('Account', {'id': 'a2'})
    assert guard(maintained, 'Account', 'email', 'shared@x', {}) == a9 and maintained.get('Account', {'id': 'a2'}, consistent=True) is None


def test_values_move_and_swap_between_the_items_of_one_transaction(maintained: Any) -> None:
    maintained.put('Account', {'id': 'a1', 'email': 'x@x'})
    maintained.put('Account', {'id': 'a2', 'email': 'y@x'})
    maintained.transact_write([{'type': 'update', 'entity': 'Account', 'changes': {'id': 'a1', 'version': 1, 'email': 'y@x'}},
                               {'type': 'update', 'entity': 'Account', 'changes': {'id': 'a2', 'version': 1, 'email': 'x@x'}}])
    assert guard(maintained, 'Account', 'email', 'x@x', {}) == owner(maintained, 'Account', {'id': 'a2'})
    assert guard(maintained, 'Account', 'email', 'y@x', {}) == owner(maintained, 'Account', {'id': 'a1'})
    maintained.transact_write([{'type': 'delete', 'entity': 'Account', 'key': {'id': 'a1'}},
                               {'type': 'put', 'entity': 'Account', 'item': {'id': 'a3', 'email': 'y@x'}, 'mode': 'create'}])
    assert guard(maintained, 'Account', 'email', 'y@x', {}) == owner(maintained, 'Account', {'id': 'a3'})
    with pytest.raises(SingleTableError) as both:
        maintained.transact_write([{'type': 'put', 'entity': 'Account', 'item': {'id': 'a4', 'email': 'z@x'}, 'mode': 'create'},
                                   {'type': 'put', 'entity': 'Account', 'item': {'id': 'a5', 'email': 'z@x'}, 'mode': 'create'}])
    assert both.value.code == 'UNIQUE_VIOLATION' and 'actions 0 and 1 both take email = "z@x"' in str(both.value)
    assert guard(maintained, 'Account', 'email', 'z@x', {}) is None


def test_a_scoped_value_is_unique_within_its_tenant(maintained: Any) -> None:
    maintained.put('Member', {'tenant': 't1', 'id': 'm1', 'handle': 'ann'})
    maintained.put('Member', {'tenant': 't2', 'id': 'm2', 'handle': 'ann'})
    with pytest.raises(TransactionCanceledError) as taken:
        maintained.put('Member', {'tenant': 't1', 'id': 'm3', 'handle': 'ann'})
    assert taken.value.code == 'UNIQUE_VIOLATION' and taken.value.attribute == 'handle'
    key = guard_key(maintained, maintained.model.entity('Member'), 'handle', 'ann', {'tenant': 't1'})
    assert key['PK']['S'] == 'TENANT#t1#$unique#Member#handle#ann'  # under the tenant's partition prefix
    assert guard(maintained, 'Member', 'handle', 'ann', {'tenant': 't2'}) == owner(maintained, 'Member', {'tenant': 't2', 'id': 'm2'})


def removed(table: Any, entity: str, key: dict[str, Any], ttl: bool = True) -> dict[str, Any]:
    """The stream record of an item deleted outside the runtime (by time to live when ``ttl``), its old image included."""
    request_key = table.model.entity_keys(entity).key_item(key)
    old = table.client.delete_item(TableName=table.table_name, Key=request_key, ReturnValues='ALL_OLD')['Attributes']
    identity = {'userIdentity': {'type': 'Service', 'principalId': 'dynamodb.amazonaws.com'}} if ttl else {}
    return {'eventName': 'REMOVE', **identity, 'dynamodb': {'Keys': request_key, 'OldImage': old, 'SequenceNumber': '7'}}


def test_release_unique_values_frees_the_values_of_items_removed_outside_the_runtime(maintained: Any) -> None:
    maintained.put('Account', {'id': 'a1', 'email': 'r@x'})
    maintained.put('Account', {'id': 'a2', 'email': 's@x'})
    maintained.put('Member', {'tenant': 't1', 'id': 'm1', 'handle': 'ann'})
    expired = [removed(maintained, 'Account', {'id': 'a1'}), removed(maintained, 'Member', {'tenant': 't1', 'id': 'm1'})]
    deleted = removed(maintained, 'Account', {'id': 'a2'}, ttl=False)
    result = maintained.release_unique_values({'Records': [*expired, deleted]})
    assert [(v.entity, v.key, v.attribute, v.value, v.sequence_number) for v in result.released] == [
        ('Account', {'id': 'a1'}, 'email', 'r@x', '7'), ('Member', {'tenant': 't1', 'id': 'm1'}, 'handle', 'ann', '7')]
    assert result.kept == [] and result.skipped == []
    assert guard(maintained, 'Account', 'email', 'r@x', {}) is None and guard(maintained, 'Member', 'handle', 'ann', {'tenant': 't1'}) is None
    # A request's delete is released only when asked; its guard was left until then.
    assert guard(maintained, 'Account', 'email', 's@x', {}) is not None
    assert [v.value for v in maintained.release_unique_values({'Records': [deleted]}, any_remove=True).released] == ['s@x']
    # The value claimed again since, or the event delivered again: the guard stays.
    maintained.put('Account', {'id': 'a3', 'email': 'r@x'})
    again = maintained.release_unique_values({'Records': expired})
    assert [v.value for v in again.kept] == ['r@x', 'ann'] and again.released == []
    assert guard(maintained, 'Account', 'email', 'r@x', {}) == owner(maintained, 'Account', {'id': 'a3'})
    # The item written again under its key with the value before the record comes again: the guard stays too.
    maintained.put('Account', {'id': 'a4', 'email': 't@x'})
    record = removed(maintained, 'Account', {'id': 'a4'})
    assert [v.value for v in maintained.release_unique_values({'Records': [record]}).released] == ['t@x']
    maintained.put('Account', {'id': 'a4', 'email': 't@x'})
    assert [v.value for v in maintained.release_unique_values({'Records': [record]}).kept] == ['t@x']
    assert guard(maintained, 'Account', 'email', 't@x', {}) == owner(maintained, 'Account', {'id': 'a4'})
    wrong = {**record, 'dynamodb': {**record['dynamodb'], 'OldImage': {**record['dynamodb']['OldImage'], 'email': {'N': '5'}}}}
    skipped = maintained.release_unique_values({'Records': [wrong]}).skipped
    assert [(v.value, 'INVALID_VALUE' in v.reason) for v in skipped] == [(5, True)]
    with pytest.raises(SingleTableError) as no_image:
        maintained.release_unique_values({'Records': [{**record, 'dynamodb': {'Keys': record['dynamodb']['Keys']}}]})
    assert no_image.value.code == 'INVALID_STREAM_RECORD' and 'NEW_AND_OLD_IMAGES' in str(no_image.value)
