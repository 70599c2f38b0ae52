"""The compiled model file as this runtime reads it: the format version it takes, and a pattern on a
GSI keyed on the items' own attributes (multi-attribute keys), which it refuses to query."""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from single_table_runtime import MODEL_FORMAT_VERSION, SingleTableError, open_table
from single_table_runtime.model import load_model
from single_table_runtime.query import build_query_input, plan_query


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
