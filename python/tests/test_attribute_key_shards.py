"""Write sharding on a GSI keyed on the items' own attributes, on DynamoDB Local: every item of the index's
entities stores its shard in the index's shard attribute (a NUMBER, the partition key's last attribute);
a query reads every shard (or, pinned, the value's shards) and merges them in the index's order, round
(a NUMBER) by value; pages resume from a cursor with nothing lost or repeated; results never show the
shard attribute."""
from __future__ import annotations

import copy
import os
import random
from decimal import Decimal
from typing import Any, Iterator

import pytest

from single_table_runtime import SingleTableError, open_table
from single_table_runtime._cursor import encode_cursor, query_binding
from single_table_runtime._encoding import encode_value
from single_table_runtime._query import plan_query, shards_to_query
from single_table_runtime._shard import shard_for_item, shard_for_value

INDEX = 'TournamentRegionIndex'
SHARD = 'TournamentRegionIndexShard'
WHERE = {'tournamentId': 'WINTER2026', 'region': 'NA-EAST'}
# Rounds whose number order differs from their text order (10 < 9 as text, -1 < -0.5, 1E+3), and many ties.
ROUNDS = [-1, -0.5, 0, 0.25, 1, 2, 9, 10, 10.5, 100, 1000, 12345678901234567890]
BRACKETS = ['LOWER', 'UPPER', 'UPPER-PLAYIN', 'Z\u00e9', 'Z\U0001f600', 'Z\uffff']


def sharded(definitions: dict[str, Any], **shards: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The tournament's model and CreateTable input with TournamentRegionIndex write-sharded as ``shards`` declares."""
    document = copy.deepcopy(definitions['tournament']['model'])
    document['model']['indexes'][INDEX]['shards'] = {'strategy': 'RANDOM', 'strategies': ['RANDOM'], 'pinnedReads': False, 'keyAttribute': SHARD,
                                                      **shards}
    table = copy.deepcopy(definitions['tournament']['table'])
    table['AttributeDefinitions'].append({'AttributeName': SHARD, 'AttributeType': 'N'})
    [gsi] = table['GlobalSecondaryIndexes']
    gsi['KeySchema'].insert(sum(k['KeyType'] == 'HASH' for k in gsi['KeySchema']), {'AttributeName': SHARD, 'KeyType': 'HASH'})
    return document, table


def counts(count: int, before: list[int] | None = None, **more: Any) -> dict[str, Any]:
    every = [*(before or []), count]
    return {'writeCount': count, 'readCount': max(every), 'counts': every, **more}


@pytest.fixture
def engine_table(dynamodb: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Creates tables of a definition on DynamoDB Local; deletes them after the test."""
    names: list[str] = []

    def create(table: dict[str, Any]) -> str:
        name = f'py-shards-{request.node.name[:30]}-{os.urandom(4).hex()}'.replace('[', '-').replace(']', '')
        dynamodb.create_table(**{**table, 'TableName': name})
        names.append(name)
        return name
    yield create
    for name in names:
        dynamodb.delete_table(TableName=name)


def match(i: int, rng: random.Random) -> dict[str, Any]:
    return {**WHERE, 'matchId': f'm{i:03d}', 'round': rng.choice(ROUNDS), 'bracket': rng.choice(BRACKETS),
            'scheduledAt': f'2026-03-{rng.randint(1, 2):02d}T00:00:00.000Z'}


def index_order(item: dict[str, Any]) -> tuple[Any, ...]:
    """DynamoDB's order of the index's sort attributes: round by value, bracket and scheduledAt by UTF-8 bytes."""
    return Decimal(str(item['round'])), item['bracket'].encode('utf-8'), item['scheduledAt']


def read_all(table: Any, pattern: str, values: dict[str, Any], limit: int, order: str) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = table.query(pattern, values, limit=limit, order=order, cursor=cursor)
        assert len(page.items) <= limit
        for result in page.items:
            assert SHARD not in result.item
        seen += [r.item for r in page.items]
        cursor = page.cursor
        if cursor is None:
            return seen


def assert_in_index_order(read: list[dict[str, Any]], items: list[dict[str, Any]], descending: bool = False) -> None:
    """Every item once, in the index's order of the sort attributes (the engine orders the items that tie on them its own way)."""
    assert sorted(i['matchId'] for i in read) == sorted(i['matchId'] for i in items)
    assert [index_order(i) for i in read] == sorted(map(index_order, items), reverse=descending)


def test_put_batch_and_transaction_store_the_shard_and_results_never_show_it(definitions: dict[str, Any], dynamodb: Any, engine_table: Any) -> None:
    document, definition = sharded(definitions, **counts(4))
    table = open_table(document, table_name=engine_table(definition), client=dynamodb)
    rng = random.Random(7)
    items = [match(i, rng) for i in range(12)]
    for item in items[:4]:
        table.put('Match', item)
    table.batch_write([{'type': 'put', 'entity': 'Match', 'item': item} for item in items[4:8]])
    table.transact_write([{'type': 'put', 'entity': 'Match', 'item': item} for item in items[8:]])
    for item in items:
        key = {'PK': {'S': f"MATCH#{item['matchId']}"}, 'SK': {'S': 'MATCH'}}
        stored = dynamodb.get_item(TableName=table.table_name, Key=key)['Item']
        assert stored[SHARD] == {'N': str(shard_for_item(key['PK']['S'], 'MATCH', 4))}
        got = table.get('Match', {'matchId': item['matchId']})
        assert got is not None and SHARD not in got
    assert len({dynamodb.get_item(TableName=table.table_name, Key={'PK': {'S': f"MATCH#{i['matchId']}"}, 'SK': {'S': 'MATCH'}})['Item'][SHARD]['N']
                for i in items}) > 1
    changed = table.update('Match', {'matchId': 'm000', 'round': 77})
    assert SHARD not in changed and changed['round'] == 77


@pytest.mark.parametrize('limit', [1, 3, 7])
def test_pages_in_both_orders_hold_every_item_once_in_index_order(definitions: dict[str, Any], dynamodb: Any, engine_table: Any, limit: int) -> None:
    document, definition = sharded(definitions, **counts(5))
    table = open_table(document, table_name=engine_table(definition), client=dynamodb)
    rng = random.Random(limit)
    items = [match(i, rng) for i in range(40)]
    table.batch_write([{'type': 'put', 'entity': 'Match', 'item': item} for item in items])
    table.put('Match', {**items[0], 'tournamentId': 'OTHER', 'matchId': 'x1'})
    assert_in_index_order(read_all(table, 'matches', WHERE, limit, 'asc'), items)
    assert_in_index_order(read_all(table, 'matches', WHERE, limit, 'desc'), items, descending=True)
    # A condition on the sort attributes, through every shard the same way.
    assert_in_index_order(read_all(table, 'matchesFrom', {**WHERE, 'round': 10}, limit, 'asc'), [i for i in items if i['round'] >= 10])


def test_an_update_of_a_key_attribute_writes_the_shard_and_an_attribute_shard_needs_its_attribute(definitions: dict[str, Any], dynamodb: Any,
                                                                                               engine_table: Any) -> None:
    document, definition = sharded(definitions, **counts(4, strategy='ATTRIBUTE', strategies=['ATTRIBUTE'], attribute='round', pinnedReads=True))
    table = open_table(document, table_name=engine_table(definition), client=dynamodb)
    table.put('Match', {**WHERE, 'matchId': 'm1', 'round': 1, 'bracket': 'LOWER', 'scheduledAt': '2026-03-01T00:00:00.000Z'})
    key = {'PK': {'S': 'MATCH#m1'}, 'SK': {'S': 'MATCH'}}

    def stored_shard() -> str:
        return str(dynamodb.get_item(TableName=table.table_name, Key=key)['Item'][SHARD]['N'])

    def shard_of(round_: int) -> str:
        return str(shard_for_value(encode_value('NUMBER', round_, table.model.escape_char), 4))  # type: ignore[arg-type]
    assert stored_shard() == shard_of(1)
    with pytest.raises(SingleTableError, match=r'\[PARTIAL_INDEX_UPDATE\] entity Match, attribute round: changes bracket but not round'):
        table.update('Match', {'matchId': 'm1', 'bracket': 'UPPER'})
    table.update('Match', {'matchId': 'm1', 'bracket': 'UPPER'}, read_missing=True)
    assert stored_shard() == shard_of(1)
    table.update('Match', {'matchId': 'm1', 'round': 2})
    assert stored_shard() == shard_of(2) != shard_of(1)
    with pytest.raises(SingleTableError, match=r'\[PARTIAL_INDEX_UPDATE\] entity Match, attribute round: .*add leaves its new value'):
        table.update('Match', {'matchId': 'm1'}, add={'round': 1})
    assert [r.item for r in table.query('matches', {**WHERE, 'round': 2, 'bracket': 'UPPER'}).items] == [
        {**WHERE, 'matchId': 'm1', 'round': 2, 'bracket': 'UPPER', 'scheduledAt': '2026-03-01T00:00:00.000Z'}]


def test_pinned_reads_query_the_values_shard_under_every_count(definitions: dict[str, Any], dynamodb: Any, engine_table: Any) -> None:
    # region (a partition attribute) pins the shard: 3 shards before, 5 now; bracket would pin it for EQUALS only.
    before, definition = sharded(definitions, **counts(3, strategy='ATTRIBUTE', strategies=['ATTRIBUTE'], attribute='region', pinnedReads=True))
    now, _ = sharded(definitions, **counts(5, [3], strategy='ATTRIBUTE', strategies=['ATTRIBUTE'], attribute='region', pinnedReads=True))
    name = engine_table(definition)
    old, new = open_table(before, table_name=name, client=dynamodb), open_table(now, table_name=name, client=dynamodb)
    rng = random.Random(3)
    items = [match(i, rng) for i in range(16)]
    for i, item in enumerate(items):
        (old if i % 2 else new).put('Match', item)
    plan = plan_query(new, 'matches', WHERE)
    pinned = shards_to_query(new, plan, WHERE)
    assert pinned == sorted({shard_for_value('NA-EAST', 3), shard_for_value('NA-EAST', 5)})
    assert_in_index_order(read_all(new, 'matches', WHERE, 3, 'asc'), items)


def test_resharded_random_counts_read_items_written_under_each(definitions: dict[str, Any], dynamodb: Any, engine_table: Any) -> None:
    before, definition = sharded(definitions, **counts(6))
    now, _ = sharded(definitions, **counts(2, [6]))
    name = engine_table(definition)
    old, new = open_table(before, table_name=name, client=dynamodb), open_table(now, table_name=name, client=dynamodb)
    rng = random.Random(5)
    items = [match(i, rng) for i in range(20)]
    for i, item in enumerate(items):
        (old if i % 2 else new).put('Match', item)
    assert shards_to_query(new, plan_query(new, 'matches', WHERE), WHERE) == list(range(6))
    assert_in_index_order(read_all(new, 'matches', WHERE, 4, 'desc'), items, descending=True)


def test_a_state_that_is_not_a_fan_outs_is_an_invalid_cursor(definitions: dict[str, Any]) -> None:
    document, _ = sharded(definitions, **counts(2))
    table = open_table(document, table_name='never-created', client=object())
    plan = plan_query(table, 'matches', WHERE)
    binding = query_binding(INDEX, plan.condition, plan.descending, table.model.fingerprint)
    good = ['1', 'LOWER', '2026-03-01T00:00:00.000Z', 'MATCH#m1', 'MATCH']
    for state in ({'after': [good, ['x', *good[1:]]], 'last': 0},  # a round that is no number
                  {'after': [good, good[:4]], 'last': 0},  # a position short of a key
                  {'after': [good], 'last': 0}):  # another shard count
        with pytest.raises(SingleTableError, match=r'\[INVALID_CURSOR\] pattern matches: fan-out query: '):
            table.query('matches', WHERE, cursor=encode_cursor('matches', binding, state))
