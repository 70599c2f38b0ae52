"""Updates, versions, timestamps, unique values, batches, transactions, scans and stream records on
DynamoDB Local, on tables created from synthesized templates."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any
from unittest import mock

import pytest
from botocore.exceptions import ClientError

from single_table_runtime import ConditionFailedError, SingleTableError, TransactionCanceledError, UnprocessedError, open_table
from single_table_runtime._send import RetryPolicy


@pytest.fixture
def table(example_model: str, table_name: str, dynamodb: Any) -> Any:
    return open_table(example_model, table_name=table_name, client=dynamodb)


ORDER = {'username': 'ann', 'orderId': 'o1', 'status': 'OPEN', 'createdAt': '2024-01-10T10:00:00.000Z', 'amount': 5}


def test_update_moves_the_index_keys_it_changes_and_a_sparse_index_drops_the_item(table: Any) -> None:
    table.put('Order', ORDER)
    with pytest.raises(SingleTableError) as partial:
        table.update('Order', {'username': 'ann', 'orderId': 'o1', 'status': 'SHIPPED'})
    assert partial.value.code == 'PARTIAL_INDEX_UPDATE' and partial.value.attribute == 'createdAt'
    with pytest.raises(SingleTableError) as computed:
        table.update('Order', {'username': 'ann', 'orderId': 'o1'}, add={'amount': 2})  # LSI2's key holds the amount
    assert computed.value.code == 'PARTIAL_INDEX_UPDATE' and computed.value.attribute == 'amount'
    updated = table.update('Order', {'username': 'ann', 'orderId': 'o1', 'status': 'SHIPPED'}, read_missing=True, set_if_missing={'trackingNumber': 'T0'})
    assert updated['status'] == 'SHIPPED' and updated['trackingNumber'] == 'T0' and updated['amount'] == 5
    shipped = table.query('ordersByStatus', {'status': 'SHIPPED', 'between': [{}, {}]})
    assert [r.item['orderId'] for r in shipped.items] == ['o1']
    assert table.query('ordersByStatus', {'status': 'OPEN', 'between': [{}, {}]}).items == []
    table.put('Task', {'taskId': 't1', 'name': 'index', 'running': True, 'startedAt': '2024-03-02'})
    table.update('Task', {'taskId': 't1', 'running': False})
    assert table.query('runningTasks', {'running': True}).items == []


def test_a_caller_condition_is_data_and_its_failure_names_the_entity(table: Any) -> None:
    table.put('Order', ORDER)
    with pytest.raises(ConditionFailedError) as failed:
        table.update('Order', {'username': 'ann', 'orderId': 'o1', 'trackingNumber': 'T1'}, condition={'attr': 'status', 'eq': 'SHIPPED'})
    assert failed.value.code == 'CONDITION_FAILED' and failed.value.item['status'] == 'OPEN' and "caller's condition" in str(failed.value)
    assert table.update('Order', {'username': 'ann', 'orderId': 'o1', 'trackingNumber': 'T1'},
                        condition={'and': [{'attr': 'status', 'in': ['OPEN', 'PAID']}, {'size': 'orderId', 'lte': 5}]})['trackingNumber'] == 'T1'
    with pytest.raises(SingleTableError) as bad:
        table.put('Order', ORDER, condition={'attr': 'amount', 'beginsWith': '1'})
    assert bad.value.code == 'INVALID_CONDITION'
    page = table.query('ordersForCustomer', {'username': 'ann'}, filter={'attr': 'amount', 'gt': 4}, attributes=['orderId', 'amount'])
    assert [r.item for r in page.items] == [{'orderId': 'o1', 'amount': 5}]


def test_versions_and_timestamps(maintained: Any) -> None:
    maintained.transact_write([{'type': 'put', 'entity': 'Account', 'item': {'id': 'a1', 'email': 'a@x'}, 'mode': 'create'}])
    stored = maintained.get('Account', {'id': 'a1'}, consistent=True)
    assert stored['version'] == 1 and stored['createdAt'] == stored['updatedAt']
    maintained.transact_write([{'type': 'update', 'entity': 'Account', 'changes': {'id': 'a1', 'version': 1, 'name': 'Ann'}}])
    with pytest.raises(TransactionCanceledError) as conflict:
        maintained.transact_write([{'type': 'update', 'entity': 'Account', 'changes': {'id': 'a1', 'version': 1, 'name': 'Bo'}}])
    assert conflict.value.code == 'TRANSACTION_CANCELLED'
    again = maintained.get('Account', {'id': 'a1'}, consistent=True)
    assert again['version'] == 2 and again['name'] == 'Ann' and again['createdAt'] == stored['createdAt']


def test_a_transaction_stamps_every_action_with_one_time(maintained: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import single_table_runtime._items as items

    class Ticking(datetime):
        """A clock a millisecond later at every reading, so two readings never agree."""
        ticks = 0

        @classmethod
        def now(cls, tz: Any = None) -> Any:
            cls.ticks += 1
            return datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(milliseconds=cls.ticks)

    monkeypatch.setattr(items, 'datetime', Ticking)
    maintained.put('Account', {'id': 'a0'})
    maintained.transact_write([*({'type': 'put', 'entity': 'Account', 'item': {'id': f'a{i}'}, 'mode': 'create'} for i in range(1, 4)),
                               {'type': 'update', 'entity': 'Account', 'changes': {'id': 'a0', 'version': 1, 'name': 'Ann'}}])
    stored = [maintained.get('Account', {'id': f'a{i}'}, consistent=True) for i in range(4)]
    assert len({s['updatedAt'] for s in stored}) == 1 and {s['createdAt'] for s in stored[1:]} == {stored[0]['updatedAt']}
    assert stored[0]['createdAt'] < stored[0]['updatedAt']


def test_unique_values_are_held_by_guard_items_that_move_with_the_value(maintained: Any) -> None:
    maintained.transact_write([{'type': 'put', 'entity': 'Account', 'item': {'id': 'a1', 'email': 'a@x'}, 'mode': 'create'}])
    with pytest.raises(TransactionCanceledError) as taken:
        maintained.transact_write([{'type': 'put', 'entity': 'Account', 'item': {'id': 'a2', 'email': 'a@x'}, 'mode': 'create'}])
    assert taken.value.code == 'UNIQUE_VIOLATION' and taken.value.attribute == 'email'
    maintained.transact_write([{'type': 'update', 'entity': 'Account', 'changes': {'id': 'a1', 'version': 1, 'email': 'new@x'}}])
    maintained.transact_write([{'type': 'put', 'entity': 'Account', 'item': {'id': 'a2', 'email': 'a@x'}, 'mode': 'create'},
                                {'type': 'put', 'entity': 'Device', 'item': {'id': 'a2', 'token': 's1'}}])
    assert [r.item for r in maintained.query('devices', {'id': 'a2'}).items] == [{'id': 'a2', 'token': 's1'}]
    got = maintained.transact_get([{'entity': 'Account', 'key': {'id': 'a2'}}, {'entity': 'Account', 'key': {'id': 'zz'}}])
    assert got[0].item['email'] == 'a@x' and got[1] is None
    with pytest.raises(SingleTableError) as twice:
        maintained.transact_write([{'type': 'put', 'entity': 'Device', 'item': {'id': 'a', 'token': 's'}},
                                   {'type': 'delete', 'entity': 'Device', 'key': {'id': 'a', 'token': 's'}}])
    assert twice.value.code == 'DUPLICATE_TRANSACTION_ITEM'
    everything = list(maintained.scan(entities=['Account']).items)
    assert sorted(r.item['email'] for r in everything) == ['a@x', 'new@x']


def test_batches_write_and_read_in_chunks_and_scan_resumes_by_cursor(table: Any) -> None:
    orders = [{**ORDER, 'orderId': f'o{i:03d}'} for i in range(60)]
    table.batch_write([{'type': 'put', 'entity': 'Order', 'item': o} for o in orders])
    keys = [{'entity': 'Order', 'key': {'username': 'ann', 'orderId': o['orderId']}} for o in orders] + [{'entity': 'Order', 'key': {'username': 'x', 'orderId': 'y'}}]
    got = table.batch_get(keys)
    assert [r.item['orderId'] for r in got[:-1]] == [o['orderId'] for o in orders] and got[-1] is None
    seen, cursor = [], None
    while True:
        page = table.scan(entities=['Order'], segments=3, limit=7, cursor=cursor)
        seen += [r.item['orderId'] for r in page.items]
        cursor = page.cursor
        if cursor is None:
            break
    assert sorted(seen) == [o['orderId'] for o in orders]
    # scan_pages reads the same pages, one per step; pages= merges them as Node.js's `pages` does.
    paged = [[r.item['orderId'] for r in p.items] for p in table.scan_pages(entities=['Order'], segments=3, limit=7)]
    assert sorted(i for p in paged for i in p) == sorted(seen) and len(paged) > 2
    two = table.scan(entities=['Order'], segments=3, limit=7, pages=2)
    assert [r.item['orderId'] for r in two.items] == paged[0] + paged[1] and two.cursor is not None
    everything = table.scan(entities=['Order'], segments=3, limit=7, pages='all')
    assert sorted(r.item['orderId'] for r in everything.items) == sorted(seen) and everything.cursor is None
    assert [r.item['orderId'] for r in table.query('ordersForCustomer', {'username': 'ann'}, limit=7, pages='all').items] == [o['orderId'] for o in orders]
    with pytest.raises(SingleTableError) as duplicate:
        table.batch_write([{'type': 'put', 'entity': 'Order', 'item': ORDER}, {'type': 'delete', 'entity': 'Order', 'key': {'username': 'ann', 'orderId': 'o1'}}])
    assert duplicate.value.code == 'DUPLICATE_BATCH_KEY'


def test_unprocessed_batch_items_are_retried_and_what_stays_unprocessed_is_listed(table: Any) -> None:
    real = table.client.batch_write_item
    calls = []

    def half_done(**request: Any) -> Any:
        requests = request['RequestItems'][table.table_name]
        calls.append(len(requests))
        real(RequestItems={table.table_name: requests[:1]})
        return {'UnprocessedItems': {table.table_name: requests[1:]} if len(requests) > 1 else {}}

    table.retry = RetryPolicy(max_attempts=8, base_delay_ms=1)
    with mock.patch.object(table.client, 'batch_write_item', side_effect=half_done):
        table.batch_write([{'type': 'put', 'entity': 'Order', 'item': {**ORDER, 'orderId': f'o{i}'}} for i in range(3)])
    assert calls == [3, 2, 1] and len(table.query('ordersForCustomer', {'username': 'ann'}).items) == 3
    throttled = ClientError({'Error': {'Code': 'ProvisionedThroughputExceededException', 'Message': 'slow down'}}, 'BatchWriteItem')
    table.retry = RetryPolicy(max_attempts=2, base_delay_ms=1)
    with mock.patch.object(table.client, 'batch_write_item', side_effect=throttled), pytest.raises(UnprocessedError) as left:
        table.batch_write([{'type': 'put', 'entity': 'Order', 'item': {**ORDER, 'orderId': f'p{i}'}} for i in range(30)])
    assert len(left.value.unprocessed) == 30 and left.value.code == 'UNPROCESSED'


def test_stream_records_decode_to_typed_changes(table: Any) -> None:
    event = {'Records': [
        {'eventName': 'INSERT', 'dynamodb': {'Keys': {'PK': {'S': 'CUSTOMER#a$db'}, 'SK': {'S': 'ORDER#o1'}}, 'SequenceNumber': '1',
                                             'NewImage': {'PK': {'S': 'CUSTOMER#a$db'}, 'SK': {'S': 'ORDER#o1'}, 'Type': {'S': 'Order'},
                                                          'username': {'S': 'a#b'}, 'orderId': {'S': 'o1'}, 'amount': {'N': '5'}}}},
        {'eventName': 'REMOVE', 'userIdentity': {'type': 'Service', 'principalId': 'dynamodb.amazonaws.com'},
         'dynamodb': {'Keys': {'PK': {'S': 'TASK#t1'}, 'SK': {'S': 'TASK#t1'}}}},
        {'eventName': 'REMOVE', 'dynamodb': {'Keys': {'PK': {'S': '$unique#Customer#email#x'}, 'SK': {'S': '$unique'}}}},
    ]}
    changes = table.decode_stream(event)
    assert [(c.entity, c.event_name, c.keys, c.expired) for c in changes] == [
        ('Order', 'INSERT', {'username': 'a#b', 'orderId': 'o1'}, False), ('Task', 'REMOVE', {'taskId': 't1'}, True)]
    assert changes[0].new_item == {'username': 'a#b', 'orderId': 'o1', 'amount': 5}
    with pytest.raises(SingleTableError) as bad:
        table.decode_stream({'Records': [{'eventName': 'X'}]})
    assert bad.value.code == 'INVALID_STREAM_RECORD'
