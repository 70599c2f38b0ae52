"""The compiled model file as this runtime reads it: the format version it takes, and a pattern on a
GSI keyed on the items' own attributes (multi-attribute keys), queried by those attributes."""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from single_table_runtime import MODEL_FORMAT_VERSION, SingleTableError, open_table
from single_table_runtime._model import load_model
from single_table_runtime._query import build_query_input, plan_query


def example_document(example_model: str) -> dict[str, Any]:
    with open(example_model, encoding='utf-8') as f:
        return json.load(f)


def test_reads_the_format_version_the_package_writes(example_model: str) -> None:
    document = example_document(example_model)
    assert document['formatVersion'] == MODEL_FORMAT_VERSION
    load_model(document)
    with pytest.raises(SingleTableError, match=r'\[INVALID_MODEL\].*format version 2'):
        load_model({**document, 'formatVersion': 2})


def test_a_pattern_on_a_multi_attribute_gsi_compares_the_attributes(example_model: str) -> None:
    document = copy.deepcopy(example_document(example_model))
    model = document['model']
    model['indexes']['ByStatus'] = {
        'name': 'ByStatus', 'type': 'GSI', 'partitionKey': 'username', 'sortKey': 'createdAt',
        'partitionAttributes': [{'name': 'username', 'kind': 'STRING'}, {'name': 'status', 'kind': 'STRING'}],
        'sortAttributes': [{'name': 'createdAt', 'kind': 'DATE'}], 'entities': ['Order'], 'projection': 'ALL', 'nonKeyAttributes': [],
    }
    model['patterns']['ordersByUserStatus'] = {
        'name': 'ordersByUserStatus', 'entities': ['Order'], 'index': 'ByStatus', 'sortKeyCondition': 'BEGINS_WITH', 'order': 'ASCENDING',
        'consistentRead': False, 'attributes': [], 'fetch': 'NONE',
    }
    table = open_table(document, table_name='T', client=object())
    plan = plan_query(table, 'ordersByUserStatus', {'username': 'ann', 'status': 'OPEN', 'createdAt': '2026-03'})
    request = build_query_input(table, plan, plan.condition['pk'])
    assert request['KeyConditionExpression'] == '#k0 = :k0 AND #k1 = :k1 AND begins_with(#k2, :k2)'
    assert request['ExpressionAttributeValues'] == {':k0': {'S': 'ann'}, ':k1': {'S': 'OPEN'}, ':k2': {'S': '2026-03'}}
    with pytest.raises(SingleTableError, match=r'\[MISSING_ATTRIBUTE\] pattern ordersByUserStatus, attribute status: is needed: a query on ByStatus '
                                               r'compares every partition attribute of ByStatus \(username, status\) by equality'):
        plan_query(table, 'ordersByUserStatus', {'username': 'ann'})


def test_model_problems_raise_the_node_runtimes_codes_naming_the_file(example_model: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from single_table_runtime import open_table
    monkeypatch.delenv('SINGLE_TABLE_MODEL', raising=False)
    with pytest.raises(SingleTableError, match=r'\[MODEL_MISSING\] SINGLE_TABLE_MODEL is not set') as missing:
        open_table(table_name='t', client=object())
    assert missing.value.code == 'MODEL_MISSING'
    absent = tmp_path / 'absent.model.json'
    monkeypatch.setenv('SINGLE_TABLE_MODEL', str(absent))
    with pytest.raises(SingleTableError, match=rf'\[INVALID_MODEL\] the compiled model file {absent} \(SINGLE_TABLE_MODEL\) cannot be read as JSON'):
        open_table(table_name='t', client=object())
    bad = tmp_path / 'bad.model.json'
    bad.write_text('{"format": ')
    with pytest.raises(SingleTableError, match=rf'\[INVALID_MODEL\] the compiled model file {bad} cannot be read as JSON'):
        load_model(bad)
    other = tmp_path / 'other.json'
    other.write_text('{"format": "something else"}')
    with pytest.raises(SingleTableError, match=rf'\[INVALID_MODEL\] {other}: expected a compiled model file'):
        load_model(str(other))
    monkeypatch.setenv('SINGLE_TABLE_MODEL', example_model)
    assert open_table(table_name='t', client=object()).model.fingerprint == example_document(example_model)['model']['fingerprint']


def test_unknown_names_get_the_node_runtimes_did_you_mean(example_model: str) -> None:
    from single_table_runtime import open_table
    table = open_table(example_model, table_name='t', client=object())
    with pytest.raises(SingleTableError, match=r"\[UNKNOWN_ENTITY\] entity Ordr: is not declared in the manifest; did you mean 'Order'\? known entities"):
        table.put('Ordr', {})
    with pytest.raises(SingleTableError, match=r"\[UNKNOWN_PATTERN\] pattern orderByID: is not declared in the manifest; did you mean 'orderById'\?"):
        table.query('orderByID', {})
    with pytest.raises(SingleTableError, match=r"\[UNKNOWN_ATTRIBUTE\] entity Order, attribute amont: is not declared; did you mean 'amount'\?"):
        table.put('Order', {'username': 'u', 'orderId': 'o', 'status': 'OPEN', 'createdAt': '2024-01-01', 'amount': 1, 'amont': 2})
    with pytest.raises(SingleTableError, match=r"attributes names 'stauts', which none of Order declares; did you mean 'status'\?"):
        table.scan(entities=['Order'], attributes=['stauts'])
    with pytest.raises(SingleTableError, match=r"\[UNKNOWN_ENTITY\] entity Zebra: is not declared in the manifest; known entities"):
        table.decode_stream({'Records': []}, entities=['Zebra'])
    with pytest.raises(SingleTableError, match=r"\[INVALID_QUERY_INPUT\] pages must be a positive whole number or 'all', got 0"):
        table.scan(pages=0)
