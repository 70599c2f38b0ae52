"""Numbers on DynamoDB Local: every number reads back with every digit, as the type its digits call for
(an int, the float the Node.js runtime reads, or a Decimal), fetched items and values decoded from
KEYS_ONLY keys agree, and what a key held is a key input again."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from properties import asserted
from single_table_runtime import SingleTableError, open_table
from single_table_runtime._encoding import number_of
from single_table_runtime._results import to_results
from single_table_runtime._values import number_value, storable_number

MAX_SAFE = 2 ** 53 - 1
ENGINE = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def exact(n: Any) -> Decimal:
    """The value a number's stored text spells (a float: its shortest digits, what both runtimes write)."""
    return Decimal(repr(n)) if isinstance(n, float) else Decimal(n)


def a_float_spells(d: Decimal) -> bool:
    f = float(d)
    return Decimal(repr(f)) == d


floats = st.floats(allow_nan=False, allow_infinity=False).filter(storable_number)
ints = st.one_of(st.integers(-MAX_SAFE, MAX_SAFE), st.integers(-(10 ** 38) + 1, 10 ** 38 - 1),
                 st.builds(lambda d, z: d * 10 ** z, st.integers(-(10 ** 20), 10 ** 20), st.integers(0, 100))).filter(storable_number)
decimals = st.builds(lambda sign, digits, exponent: Decimal((sign, tuple(int(c) for c in str(digits)), exponent)),
                     st.integers(0, 1), st.integers(1, 10 ** 38 - 1), st.integers(-160, 100)).filter(storable_number)
numbers = st.one_of(floats, ints, decimals)


@pytest.fixture
def table(example_model: str, table_name: str, dynamodb: Any) -> Any:
    return open_table(example_model, table_name=table_name, client=dynamodb)


def test_the_digits_decide_the_type() -> None:
    assert number_value('100000000000000000000000') == 1e23 and isinstance(number_value('100000000000000000000000'), float)
    assert number_value('1152921504606847000') == 2.0 ** 60 and number_value('1' + '0' * 125) == 1e125
    assert number_value('1152921504606846976') == 2 ** 60 and isinstance(number_value('1152921504606846976'), int)
    assert number_value('9007199254740991') == MAX_SAFE and isinstance(number_value('9007199254740991'), int)
    assert number_value('0.1') == 0.1 and number_value('-5') == -5
    assert number_value('1.2345678901234567890123') == Decimal('1.2345678901234567890123')
    assert number_value('99999999999999999999.99') == Decimal('99999999999999999999.99')


def test_a_key_takes_what_it_holds_exactly_and_refuses_the_rest() -> None:
    assert number_of(10 ** 23) == 1e23 and number_of(Decimal('0.1')) == 0.1 and number_of(Decimal('1E+2')) == 100.0
    for refused in (2 ** 53 + 1, Decimal('1.2345678901234567890123'), Decimal('NaN'), True, 2 ** 70):
        assert number_of(refused) is None, refused


@ENGINE
@given(numbers)
@example(1e23)
@example(2.0 ** 60)
@example(1e125)
@example(-1e23)
@example(Decimal('1.2345678901234567890123'))
@example(Decimal('99999999999999999999.99'))
@example(10 ** 23)
@example(2 ** 64)
@example(Decimal('0.1'))
def test_every_number_reads_back_with_every_digit_as_the_type_its_digits_call_for(table: Any, n: Any) -> None:
    table.put('Order', {'username': 'u', 'orderId': 'o', 'status': 'OPEN', 'createdAt': '2024-01-01', 'amount': 1, 'lines': [{'qty': n}, n]})
    read = table.get('Order', {'username': 'u', 'orderId': 'o'}, consistent=True)['lines']
    for value in (read[0]['qty'], read[1]):
        assert exact(value) == exact(n)
        if isinstance(value, int):
            assert abs(value) <= MAX_SAFE or not a_float_spells(Decimal(value))
        elif isinstance(value, float):
            assert not value.is_integer() or abs(value) > MAX_SAFE
        else:
            assert isinstance(value, Decimal) and not a_float_spells(value) and value != value.to_integral_value()
        if isinstance(n, float) or (isinstance(n, int) and abs(n) <= MAX_SAFE):
            assert value == n  # what the Node.js runtime reads: the same number
        if isinstance(n, Decimal) and not a_float_spells(n):
            assert value == n and type(value) is (int if n == n.to_integral_value() else Decimal)
    asserted()


@ENGINE
@given(st.one_of(floats, ints, decimals).filter(lambda n: number_of(n) is not None))
@example(1e23)
@example(2.0 ** 60)
@example(1e125)
@example(10 ** 23)
@example(Decimal('12.5'))
def test_a_key_number_reads_back_alike_from_the_item_and_from_a_keys_only_entry_and_queries_again(table: Any, dynamodb: Any, n: Any) -> None:
    table.put('Order', {'username': 'k', 'orderId': 'o', 'status': 'OPEN', 'createdAt': '2024-01-01', 'amount': n})
    fetched = table.get('Order', {'username': 'k', 'orderId': 'o'}, consistent=True)['amount']
    index = table.model.indexes['LSI2']
    entries = dynamodb.query(TableName=table.table_name, IndexName='LSI2', KeyConditionExpression='#pk = :pk', ExpressionAttributeNames={'#pk': index['partitionKey']},
                             ExpressionAttributeValues={':pk': {'S': 'CUSTOMER#k'}})['Items']
    decoded = to_results(table.model, ['Order'], entries, 'LSI2', True)[0].item['amount']
    assert type(decoded) is type(fetched) and decoded == fetched and exact(fetched) == exact(n)
    assert isinstance(fetched, float) or (isinstance(fetched, int) and abs(fetched) <= MAX_SAFE)
    found = table.query('ordersForCustomerByAmount', {'username': 'k', 'amount': fetched}).items
    assert [r.item['orderId'] for r in found] == ['o']
    asserted()


def test_a_number_no_key_holds_is_refused_before_any_request(table: Any) -> None:
    for amount in (Decimal('1.2345678901234567890123'), 2 ** 53 + 1):
        with pytest.raises(SingleTableError) as refused:
            table.put('Order', {'username': 'k', 'orderId': 'o', 'status': 'OPEN', 'createdAt': '2024-01-01', 'amount': amount})
        assert refused.value.code == 'INVALID_VALUE' and refused.value.attribute == 'amount' and 'a key holds exactly' in str(refused.value)
    with pytest.raises(SingleTableError) as digits:
        table.put('Order', {'username': 'k', 'orderId': 'o', 'status': 'OPEN', 'createdAt': '2024-01-01', 'amount': 1, 'lines': [Decimal('1.' + '1' * 38)]})
    assert digits.value.code == 'INVALID_VALUE' and digits.value.attribute == 'lines'
