"""AWS's tournament design (a GSI keyed on tournamentId + region, then round, bracket, scheduledAt) on
DynamoDB Local, written and queried from Python: the same answers the Node.js runtime gives
(test/runtime/tournament.engine.test.ts), and the same refusals before any request."""
from __future__ import annotations

import os
from typing import Any

import pytest

from single_table_runtime import SingleTableError, open_table
from single_table_runtime._results import to_results

WHERE = {'tournamentId': 'WINTER2026', 'region': 'NA-EAST'}


def at(day: int, hour: int = 0) -> str:
    return f'2026-03-{day:02d}T{hour:02d}:00:00.000Z'


MATCHES = [('m1', 1, 'LOWER', at(1)), ('m2', 1, 'UPPER', at(1, 9)), ('m3', 1, 'UPPER', at(2)), ('m4', 1, 'UPPER-PLAYIN', at(1)),
           ('m5', 2, 'UPPER', at(5)), ('m6', 10, 'UPPER', at(12))]


@pytest.fixture(scope='module')
def tournament(dynamodb: Any, definitions: dict[str, Any]) -> Any:
    name = f'py-tournament-{os.urandom(4).hex()}'
    dynamodb.create_table(**{**definitions['tournament']['table'], 'TableName': name})
    table = open_table(definitions['tournament']['model'], table_name=name, client=dynamodb)
    for match_id, round_, bracket, scheduled_at in reversed(MATCHES):
        table.put('Match', {**WHERE, 'matchId': match_id, 'round': round_, 'bracket': bracket, 'scheduledAt': scheduled_at})
    table.put('Match', {'tournamentId': 'WINTER2026', 'region': 'EU-WEST', 'matchId': 'e1', 'round': 1, 'bracket': 'UPPER', 'scheduledAt': at(1)})
    return table


@pytest.mark.parametrize('pattern,sort,expected', [
    ('matches', {}, ['m1', 'm2', 'm3', 'm4', 'm5', 'm6']),
    ('matches', {'round': 1, 'bracket': 'UPPER'}, ['m2', 'm3']),
    ('matchesByPrefix', {'round': 1, 'bracket': 'UPP'}, ['m2', 'm3', 'm4']),
    ('matchesByPrefix', {'round': 1, 'bracket': 'UPPER', 'scheduledAt': '2026-03'}, ['m2', 'm3']),
    ('matchesFrom', {'round': 2}, ['m5', 'm6']),
    ('matchesBetween', {'between': [{'round': 1, 'bracket': 'L'}, {'round': 1, 'bracket': 'UPPER'}]}, ['m1', 'm2', 'm3']),
])
def test_every_condition_answers_as_on_node(tournament: Any, pattern: str, sort: dict[str, Any], expected: list[str]) -> None:
    assert [r.item['matchId'] for r in tournament.query(pattern, {**WHERE, **sort}).items] == expected


def test_pages_concatenate_to_the_whole_result(tournament: Any) -> None:
    seen: list[str] = []
    cursor = None
    while True:
        page = tournament.query('matches', WHERE, limit=2, cursor=cursor)
        seen += [r.item['matchId'] for r in page.items]
        cursor = page.cursor
        if cursor is None:
            break
    assert seen == ['m1', 'm2', 'm3', 'm4', 'm5', 'm6']


def test_a_number_under_begins_with_is_refused_before_any_request(definitions: dict[str, Any]) -> None:
    table = open_table(definitions['tournament']['model'], table_name='never-created', client=object())
    with pytest.raises(SingleTableError, match=r'\[INVALID_QUERY_INPUT\] pattern matchesByPrefix, attribute round: is a NUMBER.*give bracket too'):
        table.query('matchesByPrefix', {**WHERE, 'round': 1})


def test_a_keys_only_entry_reads_back_from_its_table_key_and_own_attributes(definitions: dict[str, Any]) -> None:
    table = open_table(definitions['tournament']['model'], table_name='never-created', client=object())
    entry = {'PK': {'S': 'MATCH#m1'}, 'SK': {'S': 'MATCH'}, 'tournamentId': {'S': 'WINTER2026'}, 'region': {'S': 'NA-EAST'}, 'round': {'N': '1'},
             'bracket': {'S': 'LOWER'}, 'scheduledAt': {'S': at(1)}}
    [result] = to_results(table.model, ['Match'], [entry], 'TournamentRegionIndex', True)
    assert result == ('Match', {'matchId': 'm1', **WHERE, 'round': 1, 'bracket': 'LOWER', 'scheduledAt': at(1)})
