"""Write sharding on a GSI keyed on the items' own attributes, on DynamoDB Local: every item of the index's
entities stores its shard in the index's shard attribute (a NUMBER, the partition key's last attribute);
a query reads every shard (or, pinned, the value's shards) and merges them in the index's order, round
(a NUMBER) by value; pages resume from a cursor with nothing lost or repeated; results never show the
shard attribute."""
from __future__ import annotations

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


def sharded(definitions: dict[str, Any], way: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The tournament's model with TournamentRegionIndex write-sharded one way (test/python/fixtures.ts), and its CreateTable input."""
    fixture = definitions['shardedTournament']
    return fixture['models'][way], fixture['table']


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
    document, definition = sharded(definitions, 'random')
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
        assert stored[SHARD] == {'N': str(shard_for_item(key['PK']['S'], 'MATCH', 5))}
        got = table.get('Match', {'matchId': item['matchId']})
        assert got is not None and SHARD not in got
    assert len({dynamodb.get_item(TableName=table.table_name, Key={'PK': {'S': f"MATCH#{i['matchId']}"}, 'SK': {'S': 'MATCH'}})['Item'][SHARD]['N']
                for i in items}) > 1
    changed = table.update('Match', {'matchId': 'm000', 'round': 77})
    assert SHARD not in changed and changed['round'] == 77


@pytest.mark.parametrize('limit', [1, 3, 7])
def test_pages_in_both_orders_hold_every_item_once_in_index_order(definitions: dict[str, Any], dynamodb: Any, engine_table: Any, limit: int) -> None:
    document, definition = sharded(definitions, 'random')
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
    document, definition = sharded(definitions, 'byRound')
    table = open_table(document, table_name=engine_table(definition), client=dynamodb)
    table.put('Match', {**WHERE, 'matchId': 'm1', 'round': 1, 'bracket': 'LOWER', 'scheduledAt': '2026-03-01T00:00:00.000Z'})
    key = {'PK': {'S': 'MATCH#m1'}, 'SK': {'S': 'MATCH'}}

    def stored_shard() -> str:
        return str(dynamodb.get_item(TableName=table.table_name, Key=key)['Item'][SHARD]['N'])

    def shard_of(round_: int) -> str:
        return str(shard_for_value(encode_value('NUMBER', round_, table.model.escape_char), 4))  # type: ignore[arg-type]
    assert stored_shard() == shard_of(1)
    with pytest.raises(SingleTableError, match=r"\[PARTIAL_INDEX_UPDATE\] entity Match, attribute round: changes bracket but not round, "
                                               r"which the index keys it moves are also composed from \(TournamentRegionIndex's shard: round\)"):
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
    # bracket, a sort attribute, pins the shard of an EQUALS pattern's query that gives it: 3 shards before, 5 now.
    before, definition = sharded(definitions, 'byBracketOf3')
    now, _ = sharded(definitions, 'byBracket')
    name = engine_table(definition)
    old, new = open_table(before, table_name=name, client=dynamodb), open_table(now, table_name=name, client=dynamodb)
    rng = random.Random(3)
    items = [match(i, rng) for i in range(30)]
    for i, item in enumerate(items):
        (old if i % 2 else new).put('Match', item)
    for bracket in BRACKETS:
        given = {**WHERE, 'round': 1, 'bracket': bracket}
        assert shards_to_query(new, plan_query(new, 'matches', given), given) == sorted({shard_for_value(bracket, 3), shard_for_value(bracket, 5)})
        assert_in_index_order(read_all(new, 'matches', given, 2, 'asc'), [i for i in items if i['round'] == 1 and i['bracket'] == bracket])
    # Without the value, or with a condition other than EQUALS on it, every shard.
    assert shards_to_query(new, plan_query(new, 'matches', WHERE), WHERE) == [0, 1, 2, 3, 4]
    given = {**WHERE, 'round': 1, 'bracket': 'UPPER'}
    assert shards_to_query(new, plan_query(new, 'matchesByPrefix', given), given) == [0, 1, 2, 3, 4]
    assert_in_index_order(read_all(new, 'matches', WHERE, 3, 'desc'), items, descending=True)


def test_a_partition_attribute_pins_the_shard_of_every_query(definitions: dict[str, Any]) -> None:
    table = open_table(sharded(definitions, 'byRegion')[0], table_name='never-created', client=object())
    given = {**WHERE, 'round': 1, 'bracket': 'UPP'}
    assert shards_to_query(table, plan_query(table, 'matchesByPrefix', given), given) == [shard_for_value('NA-EAST', 4)]


def test_resharded_random_counts_read_items_written_under_each(definitions: dict[str, Any], dynamodb: Any, engine_table: Any) -> None:
    before, definition = sharded(definitions, 'randomOf3')
    now, _ = sharded(definitions, 'random')
    name = engine_table(definition)
    old, new = open_table(before, table_name=name, client=dynamodb), open_table(now, table_name=name, client=dynamodb)
    rng = random.Random(5)
    items = [match(i, rng) for i in range(20)]
    for i, item in enumerate(items):
        (old if i % 2 else new).put('Match', item)
    assert shards_to_query(new, plan_query(new, 'matches', WHERE), WHERE) == [0, 1, 2, 3, 4]
    assert_in_index_order(read_all(new, 'matches', WHERE, 4, 'desc'), items, descending=True)


def test_a_state_that_is_not_a_fan_outs_is_an_invalid_cursor(definitions: dict[str, Any]) -> None:
    document, _ = sharded(definitions, 'random')
    table = open_table(document, table_name='never-created', client=object())
    plan = plan_query(table, 'matches', WHERE)
    binding = query_binding(INDEX, plan.condition, plan.descending, table.model.fingerprint)
    good = ['1', 'LOWER', '2026-03-01T00:00:00.000Z', 'MATCH#m1', 'MATCH']
    others = [None] * 3
    for state in ({'after': [good, ['x', *good[1:]], *others], 'last': 0},  # a round that is no number
                  {'after': [good, good[:4], *others], 'last': 0},  # a position short of a key
                  {'after': [good, *others], 'last': 0}):  # another shard count
        with pytest.raises(SingleTableError, match=r'\[INVALID_CURSOR\] pattern matches: fan-out query: '):
            table.query('matches', WHERE, cursor=encode_cursor('matches', binding, state))
