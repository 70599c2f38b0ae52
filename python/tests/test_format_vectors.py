"""The stored formats against test/fixtures/format-vectors.json: values the library wrote once, committed.
Every release must write and read exactly these (the TypeScript runtime checks the same file in
test/keys/format-vectors.test.ts). The expected values come from the file only; a failure names the
vector, whose format changed (docs/keys.md)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from single_table_runtime import open_table
from single_table_runtime._cursor import decode_cursor, encode_cursor, query_binding
from single_table_runtime._encoding import decode_number, decode_string, encode_value, escape_char_for
from single_table_runtime._items import build_put
from single_table_runtime._query import build_query_input, plan_query, shards_to_query
from single_table_runtime._shard import shard_for_item, shard_for_value
from single_table_runtime._transact import _plan

FIXTURES = Path(__file__).resolve().parents[2] / 'test' / 'fixtures'


def node_number(digits: str) -> int | float:
    """A JSON integer as the Node.js runtime that wrote the file read it: a double past 2^53 (a Python caller passes
    such a number as that float; an int there is refused from a key, whose digits would be the float's)."""
    whole = int(digits)
    return whole if abs(whole) <= 2**53 - 1 else float(digits)


VECTORS = json.loads((FIXTURES / 'format-vectors.json').read_text(encoding='utf-8'), parse_int=node_number)
# The model the file's manifest compiles to (the TypeScript test checks that it is).
MODEL = json.loads((FIXTURES / 'format-vectors.model.json').read_text(encoding='utf-8'))


def text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(',', ':'))


def named(kind: str, describe: Any) -> Any:
    return pytest.mark.parametrize('v', VECTORS[kind], ids=[describe(v) for v in VECTORS[kind]])


@pytest.fixture(scope='module')
def table() -> Any:
    return open_table(MODEL, table_name='T', client=object())


def test_the_model_file_is_the_vectors_manifest(table: Any) -> None:
    assert table.model.fingerprint == VECTORS['fingerprint']


@named('segments', lambda v: f"{v['kind']} {text(v['value'])}{' (delimiter ' + v['delimiter'] + ')' if 'delimiter' in v else ''} is {text(v['segment'])}")
def test_key_segment(v: dict[str, Any]) -> None:
    escape = escape_char_for(v.get('delimiter', '#'))
    assert encode_value(v['kind'], v['value'], escape) == v['segment']
    if v['kind'] == 'STRING':
        assert decode_string(v['segment'], escape) == v['value']
    if v['kind'] == 'NUMBER':
        assert decode_number(v['segment']) == v['value']


@named('shards', lambda v: f"{v['strategy']} {text([v['pk'], v['sk']] if v['strategy'] == 'RANDOM' else v['segment'])} of {v['count']} shards is shard {v['shard']}")
def test_shard_choice(v: dict[str, Any]) -> None:
    shard = shard_for_item(v['pk'], v['sk'], v['count']) if v['strategy'] == 'RANDOM' else shard_for_value(v['segment'], v['count'])
    assert shard == v['shard']


@named('items', lambda v: f"{v['entity']} {text(v['item'])}")
def test_stored_item(v: dict[str, Any], table: Any) -> None:
    assert build_put(table, v['entity'], v['item'])['Item'] == v['stored']


@named('queries', lambda v: f"{v['pattern']} {text(v['input'])}")
def test_key_condition_and_shards(v: dict[str, Any], table: Any) -> None:
    plan = plan_query(table, v['pattern'], v['input'], **v.get('options', {}))
    request = build_query_input(table, plan, plan.condition['pk'])
    fields = ('IndexName', 'KeyConditionExpression', 'ExpressionAttributeValues', 'ScanIndexForward')
    assert {k: request[k] for k in fields if k in request} == v['request']
    assert (shards_to_query(table, plan, v['input']) if plan.keys.index.get('shards') else None) == v['shards']


@named('cursors', lambda v: f"{v['pattern']} {text(v['input'])} at {text(v['position'])}")
def test_cursor(v: dict[str, Any], table: Any) -> None:
    plan = plan_query(table, v['pattern'], v['input'], **v.get('options', {}))
    binding = query_binding(plan.keys.index['name'], plan.condition, plan.descending, table.model.fingerprint)
    assert decode_cursor(v['pattern'], binding, v['cursor']) == v['position']
    assert encode_cursor(v['pattern'], binding, v['position']) == v['cursor']


@named('guards', lambda v: f"{v['entity']} {text(v['item'])}")
def test_guard_items(v: dict[str, Any], table: Any) -> None:
    action = {'type': 'put', 'entity': v['entity'], 'item': v['item'], 'mode': 'create'}
    items, sent = _plan(table, [action], [None], [False], set())
    assert [item['Put']['Item'] for item, s in zip(items, sent) if 'guard' in s] == v['guards']
