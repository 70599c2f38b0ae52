"""The table's operations on DynamoDB Local, on a table created from the example stack's template:
puts, gets, deletes and every pattern of the example app, page by page through cursors."""
from __future__ import annotations

from typing import Any

import pytest

from single_table_runtime import ConditionFailedError, SingleTableError, open_table

USERS = ['alice', 'bob', 'Ann Lee', 'a#b']
AMOUNTS = [99.99, 100, 5, -1.5, 1000, 0, 12.25]


def orders() -> list[dict[str, Any]]:
    return [{'username': u, 'orderId': f'o{n}-{i}', 'status': 'SHIPPED' if i % 3 == 0 else 'OPEN',
             'createdAt': f'2024-01-{1 + i * 3:02d}T{n:02d}:00:00.000Z', 'amount': amount, 'lines': [{'sku': f's{i}', 'qty': i + 1}],
             **({'trackingNumber': f'T{n}{i}'} if i % 2 else {})}
            for n, u in enumerate(USERS) for i, amount in enumerate(AMOUNTS)]


@pytest.fixture
def table(example_model: str, table_name: str, dynamodb: Any) -> Any:
    return open_table(example_model, table_name=table_name, client=dynamodb)


def every(table: Any, pattern: str, values: dict[str, Any], **options: Any) -> list[Any]:
    return list(table.query_all(pattern, values, **options))


def test_put_get_delete_round_trip_with_escaped_keys(table: Any) -> None:
    customer = {'username': 'a#b$c', 'email': 'x@example.com', 'name': 'X', 'createdAt': '2024-02-29T10:00:00+01:00'}
    table.put('Customer', customer)
    stored = table.get('Customer', {'username': 'a#b$c'}, consistent=True)
    assert stored == {**customer, 'createdAt': '2024-02-29T09:00:00.000Z'}
    assert table.get('Customer', {'username': 'a#b'}) is None
    assert table.delete('Customer', {'username': 'a#b$c'}) == stored
    assert table.get('Customer', {'username': 'a#b$c'}, consistent=True) is None


def test_put_modes_refuse_with_condition_failed(table: Any) -> None:
    customer = {'username': 'u', 'email': 'u@example.com', 'name': 'U', 'createdAt': '2024-01-01'}
    with pytest.raises(ConditionFailedError) as replaced:
        table.put('Customer', customer, mode='replace')
    assert replaced.value.code == 'CONDITION_FAILED' and replaced.value.entity == 'Customer'
    table.put('Customer', customer, mode='create')
    with pytest.raises(ConditionFailedError, match='already exists'):
        table.put('Customer', customer, mode='create')
    with pytest.raises(ConditionFailedError):
        table.delete('Customer', {'username': 'nobody'}, must_exist=True)


@pytest.mark.parametrize('call, code', [
    (lambda t: t.put('Customer', {'username': 'u', 'email': 'e', 'name': 'n'}), 'MISSING_ATTRIBUTE'),
    (lambda t: t.put('Customer', {'username': 'u', 'email': 'e', 'name': 'n', 'createdAt': '2024-02-30'}), 'INVALID_VALUE'),
    (lambda t: t.put('Customer', {'username': 'é' * 1100, 'email': 'e', 'name': 'n', 'createdAt': '2024-01-01'}), 'KEY_TOO_LARGE'),
    (lambda t: t.put('Nobody', {}), 'UNKNOWN_ENTITY'),
    (lambda t: t.get('Customer', {'username': 'u', 'email': 'e'}), 'UNKNOWN_ATTRIBUTE'),
    (lambda t: t.query('nope', {}), 'UNKNOWN_PATTERN'),
    (lambda t: t.query('ordersForCustomer', {'username': 'u', 'status': 'x'}), 'INVALID_QUERY_INPUT'),
    (lambda t: t.query('orderById', {'orderId': 'o'}, consistent=True), 'CONSISTENT_READ_ON_GSI'),
    (lambda t: t.query('ordersForCustomer', {'username': 'u'}, cursor='bm9wZQ'), 'INVALID_CURSOR'),
    (lambda t: t.query('ordersByStatus', {'status': 'OPEN', 'between': [{'createdAt': '2024-01-04'}, {'createdAt': '2024-01-16'}]}, attributes=['lines']),
     'UNKNOWN_ATTRIBUTE'),
])
def test_bad_input_fails_before_any_request_with_the_node_runtime_codes(example_model: str, call: Any, code: str) -> None:
    table = open_table(example_model, table_name='never-created', client=object())  # any request would fail
    with pytest.raises(SingleTableError) as error:
        call(table)
    assert error.value.code == code


def test_every_pattern_of_the_example_app(table: Any) -> None:
    all_orders = orders()
    for order in all_orders:
        table.put('Order', order)
    table.put('Customer', {'username': 'alice', 'email': 'alice@example.com', 'name': 'Alice', 'createdAt': '2023-01-01'})
    table.put('Product', {'productId': 'p1', 'category': 'books', 'price': 99.99, 'name': 'P1'})
    table.put('Product', {'productId': 'p2', 'category': 'books', 'price': 100, 'name': 'P2'})
    table.put('Group', {'groupId': 'g1', 'name': 'Readers'})
    table.put('Membership', {'username': 'alice', 'groupId': 'g1', 'joinedAt': '2024-02-01'})
    table.put('Task', {'taskId': 't1', 'name': 'index', 'running': True, 'startedAt': '2024-03-02'})
    table.put('Task', {'taskId': 't2', 'name': 'export', 'running': False, 'startedAt': '2024-03-01'})
    table.put('Task', {'taskId': 't3', 'name': 'import', 'running': True, 'startedAt': '2024-03-01'})

    alice = sorted((o for o in all_orders if o['username'] == 'alice'), key=lambda o: o['orderId'])
    assert [r.item['orderId'] for r in every(table, 'ordersForCustomer', {'username': 'alice'}, limit=2)] == [o['orderId'] for o in alice]
    assert [r.entity for r in every(table, 'customerWithOrders', {'username': 'alice'})].count('Customer') == 1
    assert every(table, 'orderById', {'orderId': 'o3-4'})[0].item['username'] == 'a#b'
    open_orders = sorted((o for o in all_orders if o['status'] == 'OPEN' and '2024-01-04T00:00:00.000Z' <= o['createdAt'] <= '2024-01-16T02:00:00.000Z'),
                         key=lambda o: (o['createdAt']), reverse=True)
    by_status = every(table, 'ordersByStatus', {'status': 'OPEN', 'between': [{'createdAt': '2024-01-04'}, {'createdAt': '2024-01-16T02:00Z'}]}, limit=3)
    assert [r.item['createdAt'] for r in by_status] == [o['createdAt'] for o in open_orders]
    assert set(by_status[0].item) == {'orderId', 'username', 'status', 'createdAt', 'amount'}
    assert every(table, 'customerByEmail', {'email': 'alice@example.com'})[0].item['name'] == 'Alice'
    assert [r.item['price'] for r in every(table, 'productsByCategory', {'category': 'books', 'between': [{'price': 10}, {'price': 100}]})] == [99.99, 100]
    assert [r.item['groupId'] for r in every(table, 'groupsForCustomer', {'username': 'alice'})] == ['g1']
    assert [r.entity for r in every(table, 'membersOfGroup', {'groupId': 'g1'})] == ['Membership', 'Group']  # GSI1SK CUSTOMER#alice < GROUP#g1
    running = every(table, 'runningTasks', {'running': True})
    assert [r.item['taskId'] for r in running] == ['t3', 't1'] and running[0].item['name'] == 'import'
    by_date = every(table, 'ordersForCustomerByDate', {'username': 'bob', 'between': [{'createdAt': '2024-01-04'}, {'createdAt': '2024-01-13T01:00Z'}]})
    assert [r.item['createdAt'][:10] for r in by_date] == ['2024-01-13', '2024-01-10', '2024-01-07', '2024-01-04']
    by_amount = every(table, 'ordersForCustomerByAmount', {'username': 'bob', 'amount': 12.25}, limit=1)
    assert [r.item['amount'] for r in by_amount] == [1000, 100, 99.99, 12.25] and 'lines' in by_amount[0].item
