"""The conformance corpus: every vector the Node.js runtime computed is reproduced exactly."""
from __future__ import annotations

from typing import Any, Callable

import pytest

from single_table_runtime import SingleTableError, open_table
from single_table_runtime._cursor import decode_cursor, encode_cursor, query_binding
from single_table_runtime._encoding import Invalid, encode_value
from single_table_runtime._items import build_put
from single_table_runtime._query import build_query_input, plan_query, shards_to_query
from single_table_runtime._shard import fnv1a, shard_for_item, shard_for_value
from single_table_runtime._transact import _plan
from single_table_runtime._unique import touched


def whole(value: Any) -> Any:
    """A count or position read from the corpus (its numbers arrive as floats) as the int it is."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: whole(v) for k, v in value.items()}
    return value


def options_of(vector: dict[str, Any]) -> dict[str, Any]:
    return {k: whole(v) for k, v in vector['options'].items()}


def agree(vectors: list[dict[str, Any]], check: Callable[[dict[str, Any]], str | None], seed: Any) -> None:
    failures = [(v, why) for v in vectors for why in [check(v)] if why]
    assert not failures, f'{len(failures)} of {len(vectors)} vectors differ (corpus seed {seed}); first: ' + '\n'.join(
        f'{why[:600]}: {str(v)[:600]}' for v, why in failures[:3])


Check = Callable[[dict[str, Any]], 'str | None']


def put_check(tables: dict[str, Any]) -> Check:
    """Compares a put vector's Item (or error code) with what the table of its model builds."""
    def check(v: dict[str, Any]) -> str | None:
        try:
            got: Any = build_put(tables[v['model']], v['entity'], v['item'])['Item']
        except SingleTableError as e:
            got = e.code
        want = v['error'] or v['put']
        return None if got == want else f'got {got}, Node {want}'
    return check


def query_check(tables: dict[str, Any]) -> Check:
    """Compares a query vector's request and shard list (or error code) with what the table of its model plans."""
    def check(v: dict[str, Any]) -> str | None:
        table = tables[v['model']]
        try:
            plan = plan_query(table, v['pattern'], v['input'], **options_of(v))
            got: Any = [build_query_input(table, plan, plan.condition['pk']),
                        shards_to_query(table, plan, v['input']) if plan.keys.index.get('shards') else None]
        except SingleTableError as e:
            got = e.code
        want = v['error'] or [v['request'], None if v['shards'] is None else [int(s) for s in v['shards']]]
        return None if got == want else f'got {got}, Node {want}'
    return check


def cursor_check(tables: dict[str, Any]) -> Check:
    """Checks that a cursor vector encodes to the same text and decodes back to its position."""
    def check(v: dict[str, Any]) -> str | None:
        table = tables[v['model']]
        plan = plan_query(table, v['pattern'], v['input'], **options_of(v))
        binding = query_binding(plan.keys.index['name'], plan.condition, plan.descending, table.model.fingerprint)
        position = whole(v['position'])
        mine = encode_cursor(v['pattern'], binding, position)
        if mine != v['cursor']:
            return f'encoded {mine}, Node {v["cursor"]}'
        return None if decode_cursor(v['pattern'], binding, v['cursor']) == position else 'decoded another position'
    return check


@pytest.fixture(scope='module')
def tables(corpus: dict[str, Any]) -> dict[str, Any]:
    return {name: open_table(document, table_name=corpus['table'], client=object()) for name, document in corpus['models'].items()}


def test_the_corpus_holds_enough_generated_items(corpus: dict[str, Any]) -> None:
    assert len(corpus['puts']) >= 10_000
    assert {v['error'] for v in corpus['puts']} >= {None, 'INVALID_VALUE', 'MISSING_ATTRIBUTE', 'KEY_TOO_LARGE'}


def test_key_segments_of_every_kind(corpus: dict[str, Any]) -> None:
    def check(v: dict[str, Any]) -> str | None:
        r = encode_value(v['kind'], v['value'], v['escape'])
        got = ('error', None) if isinstance(r, Invalid) else ('segment', r)
        want = ('error', None) if v['error'] else ('segment', v['segment'])
        return None if got == want else f'got {got}, Node {want}'
    agree(corpus['segments'], check, corpus['seed'])


def test_shard_choice(corpus: dict[str, Any]) -> None:
    def check(v: dict[str, Any]) -> str | None:
        count = int(v['count'])
        got = [fnv1a(v['pk']), shard_for_item(v['pk'], v['sk'], count), shard_for_value(v['pk'], count)]
        want = [int(v['fnv']), int(v['item']), int(v['value'])]
        return None if got == want else f'got {got}, Node {want}'
    agree(corpus['shards'], check, corpus['seed'])


def test_put_requests_of_random_items(corpus: dict[str, Any], tables: dict[str, Any]) -> None:
    agree(corpus['puts'], put_check(tables), corpus['seed'])


def test_query_requests_of_random_inputs(corpus: dict[str, Any], tables: dict[str, Any]) -> None:
    agree(corpus['queries'], query_check(tables), corpus['seed'])


def test_cursors_are_the_same_text_and_read_back_in_both_directions(corpus: dict[str, Any], tables: dict[str, Any]) -> None:
    agree(corpus['cursors'], cursor_check(tables), corpus['seed'])


def test_guard_writes_of_random_transactions(corpus: dict[str, Any]) -> None:
    table = open_table(corpus['guardModel'], table_name=corpus['table'], client=object())

    def check(v: dict[str, Any]) -> str | None:
        actions = [whole(a) for a in v['actions']]
        read = [bool(touched(table.model.entity(a['entity']), a)) for a in actions]
        try:
            items, sent = _plan(table, actions, v['stored'], read, set())
            got: Any = [item for item, s in zip(items, sent) if 'guard' in s]
        except SingleTableError as e:
            got = e.code
        want = v['error'] or v['writes']
        return None if got == want else f'got {got}, Node {want}'
    assert {v['error'] for v in corpus['guards']} >= {None, 'UNIQUE_VIOLATION'}
    agree(corpus['guards'], check, corpus['seed'])


# ---- numbers and model files --------------------------------------------------------------------------

def test_stored_numbers_read_as_the_node_runtime_reads_them_with_every_digit(corpus: dict[str, Any]) -> None:
    from decimal import Decimal

    from single_table_runtime._values import number_value

    def check(v: dict[str, Any]) -> str | None:
        text, value = v['text'], number_value(v['text'])
        exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
        if exact != Decimal(text):
            return f'{value!r} is not the stored {text}'
        if v['kind'] == 'bigint':
            return None if type(value) is int and value == int(v['value']) else f'{value!r}, where Node.js reads the bigint {v["value"]}'
        node = float(v['value'])  # the double Node.js reads
        if isinstance(value, Decimal):
            # A fraction no float spells: Node.js reads the nearest double, Python keeps every digit.
            return None if Decimal(repr(node)) != Decimal(text) and float(value) == node else f'{value!r}, where Node.js reads {v["value"]}'
        if isinstance(value, int) and not -(2 ** 53 - 1) <= value <= 2 ** 53 - 1:
            return f'{value!r} is an int past 2**53 where Node.js reads the number {v["value"]}'
        return None if value == node else f'{value!r}, where Node.js reads {v["value"]}'
    assert {v['kind'] for v in corpus['numbers']} == {'number', 'bigint'}
    agree(corpus['numbers'], check, corpus['seed'])


def test_a_double_as_decimal_or_int_is_the_same_key_segment(corpus: dict[str, Any]) -> None:
    from decimal import Decimal

    def check(v: dict[str, Any]) -> str | None:
        if v['kind'] != 'NUMBER' or not isinstance(v['value'], float) or v['error']:
            return None
        d = v['value']
        forms = [Decimal(repr(d))] + ([int(Decimal(repr(d)))] if d.is_integer() else [])
        for form in forms:
            r = encode_value('NUMBER', form, v['escape'])
            if r != v['segment']:
                return f'{form!r} encodes as {r!r}, {d!r} as {v["segment"]!r}'
        return None
    agree(corpus['segments'], check, corpus['seed'])


def test_model_files_raise_the_node_runtimes_codes(corpus: dict[str, Any], tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from single_table_runtime import deployed_model

    def check(v: dict[str, Any]) -> str | None:
        path = tmp_path / f'model-{abs(hash(str(v)))}.json'
        if v['unset']:
            monkeypatch.delenv('SINGLE_TABLE_MODEL', raising=False)
        else:
            monkeypatch.setenv('SINGLE_TABLE_MODEL', str(path))
            if v['text'] is not None:
                path.write_text(v['text'])
        try:
            deployed_model()
            code = None
        except SingleTableError as e:
            code = e.code
        return None if code == v['error'] else f'{code}, where Node.js raises {v["error"]}'
    assert {v['error'] for v in corpus['modelErrors']} == {None, 'MODEL_MISSING', 'INVALID_MODEL'}
    agree(corpus['modelErrors'], check, corpus['seed'])
