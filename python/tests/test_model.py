"""The compiled model file as this runtime reads it: the format version it takes, and a pattern on a
GSI keyed on the items' own attributes (multi-attribute keys), which it refuses to query."""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from single_table_runtime import MODEL_FORMAT_VERSION, SingleTableError
from single_table_runtime.model import load_model


def example_document(example_model: str) -> dict[str, Any]:
    with open(example_model, encoding='utf-8') as f:
        return json.load(f)


def test_reads_the_format_version_the_package_writes(example_model: str) -> None:
    document = example_document(example_model)
    assert document['formatVersion'] == MODEL_FORMAT_VERSION
    load_model(document)
    with pytest.raises(SingleTableError, match=r'\[INVALID_MODEL\].*format version 2'):
        load_model({**document, 'formatVersion': 2})


def test_a_pattern_on_a_multi_attribute_gsi_is_refused_before_any_request(example_model: str) -> None:
    document = copy.deepcopy(example_document(example_model))
    model = document['model']
    model['indexes']['ByStatus'] = {
        'name': 'ByStatus', 'type': 'GSI', 'partitionKey': 'username', 'sortKey': 'createdAt',
        'partitionAttributes': [{'name': 'username', 'kind': 'STRING'}, {'name': 'status', 'kind': 'STRING'}],
        'sortAttributes': [{'name': 'createdAt', 'kind': 'DATE'}], 'entities': ['Order'], 'projection': 'ALL', 'nonKeyAttributes': [],
    }
    model['patterns']['ordersByUserStatus'] = {
        'name': 'ordersByUserStatus', 'entities': ['Order'], 'index': 'ByStatus', 'sortKeyCondition': 'NONE', 'order': 'ASCENDING',
        'consistentRead': False, 'attributes': [], 'fetch': 'NONE',
    }
    loaded = load_model(document)
    with pytest.raises(SingleTableError, match=r'\[UNSUPPORTED_PATTERN\] pattern ordersByUserStatus: queries ByStatus, a GSI keyed on the attributes username, status') as refused:
        loaded.pattern_keys('ordersByUserStatus')
    assert refused.value.code == 'UNSUPPORTED_PATTERN'
    # Patterns on composed keys are unaffected.
    assert loaded.pattern_keys('ordersByStatus') is not None
