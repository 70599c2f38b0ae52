"""The conformance corpus's multi-attribute section: Query requests and cursors of patterns on GSIs keyed
on the items' own attributes, and on such GSIs write-sharded the shards a query reads, stored items,
update requests and whole fan-out pages over in-memory shards, every one as the Node.js runtime
computed it (errors by code)."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from single_table_runtime import SingleTableError, open_table
from single_table_runtime._fanout import fan_out_query
from single_table_runtime._update import build_update

from test_corpus import agree, cursor_check, put_check, query_check, whole


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
    agree(corpus['attributeKeys']['queries'], query_check(attribute_tables), corpus['seed'])


def test_cursors_are_the_same_text(corpus: dict[str, Any], attribute_tables: dict[str, Any]) -> None:
    agree(corpus['attributeKeys']['cursors'], cursor_check(attribute_tables), corpus['seed'])


def test_the_sharded_models_store_and_update_the_shard_attribute(corpus: dict[str, Any]) -> None:
    section = corpus['attributeKeys']
    assert sum(1 for v in section['puts'] if v['put'] and 'ByStatusShard' in v['put']) >= 250
    assert {v['error'] for v in section['puts']} >= {None, 'INVALID_VALUE', 'KEY_TOO_LARGE', 'MISSING_ATTRIBUTE'}
    assert sum(1 for v in section['updates'] if v['update'] and 'ByStatusShard' in v['update']['ExpressionAttributeNames'].values()) >= 100
    assert {v['error'] for v in section['updates']} >= {None, 'PARTIAL_INDEX_UPDATE'}
    assert sum(1 for v in section['queries'] if v['request'] and '#shard = :shard' in v['request']['KeyConditionExpression']) >= 500
    assert any(v['shards'] and len(v['shards']) == 1 for v in section['queries'])
    assert sum(len(v['pages']) > 2 for v in section['fanOuts']) >= 40


def test_put_items_of_random_items(corpus: dict[str, Any], attribute_tables: dict[str, Any]) -> None:
    agree(corpus['attributeKeys']['puts'], put_check(attribute_tables), corpus['seed'])


def test_update_requests_of_random_changes(corpus: dict[str, Any], attribute_tables: dict[str, Any]) -> None:
    def check(v: dict[str, Any]) -> str | None:
        try:
            got: Any = build_update(attribute_tables[v['model']], v['entity'], v['input'], v['remove'])
        except SingleTableError as e:
            got = e.code
        want = v['error'] or v['update']
        return None if got == want else f'got {got}, Node {want}'
    agree(corpus['attributeKeys']['updates'], check, corpus['seed'])


def test_fan_out_pages_read_the_same_items_and_return_the_same_state(corpus: dict[str, Any]) -> None:
    """From each state the Node.js runtime returned, the same page and the same next state: a cursor of either runtime resumes in the other."""
    def check(v: dict[str, Any]) -> str | None:
        shards, descending = v['shards'], v['descending']

        def fetch(shard: int, start: dict[str, Any] | None, limit: int) -> dict[str, Any]:
            items = shards[shard][::-1] if descending else shards[shard]
            at = next(i for i, item in enumerate(items) if item['PK'] == start['PK']) + 1 if start else 0
            page = items[at:at + limit]
            out: dict[str, Any] = {'Items': page}
            if at + limit < len(items):
                out['LastEvaluatedKey'] = {**page[-1], 'ByStatusShard': {'N': str(shard)}}
            return out
        for page in v['pages']:
            state = whole(page['state'])
            items, next_state = fan_out_query(fetch, executor, shards=list(range(len(shards))), limit=whole(v['limit']), descending=descending,
                                              sort_keys=['round', 'bracket'], number_keys=frozenset({'round'}), tie_break_keys=['PK', 'SK'],
                                              partition_key=lambda shard: {'status': {'S': 'OPEN'}, 'ByStatusShard': {'N': str(shard)}}, state=state)
            got = [[i['PK']['S'] for i in items], next_state]
            want = [page['items'], whole(page['next'])]
            if got != want:
                return f'from state {state}: got {got}, Node {want}'
        return None
    with ThreadPoolExecutor(max_workers=5) as executor:
        agree(corpus['attributeKeys']['fanOuts'], check, corpus['seed'])
