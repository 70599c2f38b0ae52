"""The conformance corpus's multi-attribute section: Query requests and cursors of patterns on GSIs keyed
on the items' own attributes, every one as the Node.js runtime computed it (errors by code)."""
from __future__ import annotations

from typing import Any

import pytest

from single_table_runtime import SingleTableError, open_table
from single_table_runtime._cursor import decode_cursor, encode_cursor, query_binding
from single_table_runtime._query import build_query_input, plan_query

from test_corpus import agree, options_of, whole


@pytest.fixture(scope='module')
def attribute_tables(corpus: dict[str, Any]) -> dict[str, Any]:
    return {name: open_table(document, table_name=corpus['table'], client=object()) for name, document in corpus['attributeKeyModels'].items()}


def test_the_section_holds_every_outcome(corpus: dict[str, Any]) -> None:
    vectors = corpus['attributeKeys']['queries']
    assert len(vectors) >= 1000
    assert {v['error'] for v in vectors} >= {None, 'INVALID_VALUE', 'INVALID_QUERY_INPUT', 'MISSING_ATTRIBUTE'}
    expressions = ' '.join(v['request']['KeyConditionExpression'] for v in vectors if v['request'])
    assert 'begins_with(' in expressions and 'BETWEEN' in expressions and ' >= ' in expressions


def test_query_requests_of_random_inputs(corpus: dict[str, Any], attribute_tables: dict[str, Any]) -> None:
    def check(v: dict[str, Any]) -> str | None:
        table = attribute_tables[v['model']]
        try:
            plan = plan_query(table, v['pattern'], v['input'], **options_of(v))
            got: Any = build_query_input(table, plan, plan.condition['pk'])
        except SingleTableError as e:
            got = e.code
        want = v['error'] or v['request']
        return None if got == want else f'got {got}, Node {want}'
    agree(corpus['attributeKeys']['queries'], check, corpus['seed'])


def test_cursors_are_the_same_text(corpus: dict[str, Any], attribute_tables: dict[str, Any]) -> None:
    def check(v: dict[str, Any]) -> str | None:
        table = attribute_tables[v['model']]
        plan = plan_query(table, v['pattern'], v['input'], **options_of(v))
        binding = query_binding(plan.keys.index['name'], plan.condition, plan.descending, table.model.fingerprint)
        position = whole(v['position'])
        mine = encode_cursor(v['pattern'], binding, position)
        if mine != v['cursor']:
            return f'encoded {mine}, Node {v["cursor"]}'
        return None if decode_cursor(v['pattern'], binding, v['cursor']) == position else 'decoded another position'
    agree(corpus['attributeKeys']['cursors'], check, corpus['seed'])
