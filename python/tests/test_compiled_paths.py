"""The compiled item builder of a put (_fast_put) and plan of a query (_fast_query) against the general
path each stands in for: on any input, they make what the general path makes, or leave it to it."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from properties import asserted, asserted_at_least
from single_table_runtime import SingleTableError, open_table
from single_table_runtime._fast_put import compile_fast_write
from single_table_runtime._fast_query import compile_fast_plan
from single_table_runtime._keys import EntityKeys
from single_table_runtime._model import Model, load_model
from single_table_runtime._query_plan import Plan
from single_table_runtime._values import item_attributes

from conftest import ROOT

TABLE = open_table(json.loads((ROOT / 'examples' / 'manifest.model.json').read_text()), table_name='T', client=object())
MODEL = TABLE.model

texts = st.one_of(st.text(max_size=8), st.sampled_from(['', 'a#b', '$', 'ann', 'OPEN', 'x' * 600, '\ud800']))
values_any = values = st.one_of(st.none(), texts, st.integers(-(2 ** 60), 2 ** 60), st.floats(), st.booleans(),
                   st.decimals(allow_nan=False, places=3), st.sampled_from(['2024-01-10T10:00:00.000Z', '2024-02-30', '2024-01-10T11:00:00+01:00']),
                   st.datetimes(timezones=st.just(timezone.utc)), st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), texts, max_size=2))


KIND_VALUES = {
    'STRING': texts,
    'NUMBER': st.one_of(st.integers(-(2 ** 54), 2 ** 54), st.floats(), st.sampled_from([1e23, 2.0 ** 60, 1e-130, 1e126, -0.0, 0]),
                        st.decimals(allow_nan=False, places=2)),
    'DATE': st.one_of(st.sampled_from(['2024-01-10T10:00:00.000Z', '2024-02-30', '2024-01-10T11:00:00+01:00', '2024-01-10', '']),
                      st.datetimes(timezones=st.sampled_from([timezone.utc, None]))),
    'BOOLEAN': st.one_of(st.booleans(), st.just(1)),
    'LIST': st.lists(st.one_of(st.integers(), texts), max_size=2),
    'MAP': st.dictionaries(st.text(max_size=3), texts, max_size=2),
}


def general(entity_name: str, item: dict[str, Any], model: Model = MODEL) -> dict[str, Any]:
    keys = EntityKeys(model, model.entities[entity_name])
    out = item_attributes(keys.entity, item, keys.attribute_checks)
    keys.write_keys(item, out)
    out[model.type_attribute] = {'S': keys.entity['typeValue']}
    return out


# An example asserts when the compiled builder made an item or refused one the general path refuses;
# about 85% do (the others are items it leaves to the general path).
@asserted_at_least(0.75)
@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(MODEL.entities)), st.data())
def test_the_compiled_builder_builds_what_the_general_path_builds_or_leaves_the_item_to_it(entity_name: str, data: Any) -> None:
    compare_builders(MODEL, entity_name, data)


# The tournament's Match on its GSI write-sharded by random shard, by round (a NUMBER) and by bracket: the
# shard attribute the compiled builder writes is the general path's.
@asserted_at_least(0.75)
@settings(max_examples=300, deadline=None)
@given(st.sampled_from(['random', 'byRound', 'byBracket']), st.data())
def test_the_compiled_builder_writes_a_multi_attribute_gsis_shard_as_the_general_path_does(definitions: dict[str, Any], way: str, data: Any) -> None:
    compare_builders(load_model(definitions['shardedTournament']['models'][way]), 'Match', data)


def compare_builders(model: Model, entity_name: str, data: Any) -> None:
    entity = model.entities[entity_name]
    item: dict[str, Any] = {}
    # Mostly values of the attribute's kind (valid ones, and some the kind refuses), now and then absent or anything.
    for name, attribute in entity['attributes'].items():
        how = data.draw(st.sampled_from(['kind'] * 6 + ['absent', 'none', 'any']))
        if how == 'kind':
            item[name] = data.draw(KIND_VALUES.get(attribute['type'], values))
        elif how != 'absent':
            item[name] = None if how == 'none' else data.draw(values)
    if data.draw(st.integers(0, 9)) == 0:
        item['unknown'] = data.draw(values)
    fast = compile_fast_write(model.entity_keys(entity_name))
    try:
        expected = general(entity_name, item, model)
    except SingleTableError:
        assert fast is None or fast(item) is None
        if fast is not None:
            asserted()
        return
    built = fast(item) if fast is not None else None
    if built is not None:
        assert built == expected and list(built) == list(expected)
        asserted()


def test_the_common_put_takes_the_compiled_builder() -> None:
    order = {'username': 'ann', 'orderId': 'o-1', 'status': 'OPEN', 'createdAt': '2024-01-10T10:00:00.000Z', 'amount': Decimal('99.99')}
    fast = compile_fast_write(MODEL.entity_keys('Order'))
    assert fast is not None and fast({**order, 'amount': 99.99}) == general('Order', {**order, 'amount': 99.99})
    assert fast(order) is None  # a Decimal: the general path


def test_a_put_of_a_sharded_multi_attribute_gsis_entity_takes_the_compiled_builder(definitions: dict[str, Any]) -> None:
    match = {'tournamentId': 'W', 'region': 'EU', 'matchId': 'm1', 'round': 2, 'bracket': 'UPPER', 'scheduledAt': '2026-03-01T00:00:00.000Z'}
    for way in ('random', 'byRound', 'byBracket'):
        model = load_model(definitions['shardedTournament']['models'][way])
        fast = compile_fast_write(model.entity_keys('Match'))
        assert fast is not None
        built = fast(match)
        assert built is not None and 'TournamentRegionIndexShard' in built and built == general('Match', match, model)


def general_plan(table: Any, pattern: str, values: Any, limit: Any) -> Any:
    from single_table_runtime._keys import check_key_sizes, key_condition
    from single_table_runtime._query import read_options
    keys = table.model.pattern_keys(pattern)
    descending, strong = read_options(keys.pattern, keys.index, limit, None, None)
    condition = key_condition(table.model, keys, values)
    check_key_sizes(keys, condition)
    return Plan(keys, condition, descending, strong, limit, keys.pattern['fetch'])


# The patterns the compiled plan takes (a pattern it does not take has nothing to compare). An example
# asserts when the plan planned or refused alongside the general path; about 78% do (the others are
# inputs it leaves to the general path).
COMPILED_PATTERNS = [name for name in sorted(MODEL.patterns) if compile_fast_plan(MODEL, MODEL.pattern_keys(name)) is not None]


@asserted_at_least(0.65)
@settings(max_examples=400, deadline=None)
@given(st.sampled_from(COMPILED_PATTERNS), st.data())
def test_the_compiled_query_plan_is_the_general_paths_or_leaves_the_input_to_it(pattern_name: str, data: Any) -> None:
    from single_table_runtime._query import build_query_input
    keys = MODEL.pattern_keys(pattern_name)
    pattern = keys.pattern
    kinds = {a: MODEL.entities[e]['attributes'][a]['type'] for e in pattern['entities'] for a in MODEL.entities[e]['attributes']}
    names = list(pattern['pk']['attributes']) + list(pattern['sk']['attributes'] if pattern.get('sk') else []) + ['other']
    if data.draw(st.booleans()):
        # The common input: the partition key's attributes (and an EQUALS pattern's sort key's), each of its kind.
        given = list(pattern['pk']['attributes']) + (list(pattern['sk']['attributes']) if pattern['sortKeyCondition'] == 'EQUALS' else [])
        values = {name: data.draw(KIND_VALUES.get(kinds.get(name, 'STRING'), values_any)) for name in given}
        limit = data.draw(st.one_of(st.none(), st.integers(1, 50)))
    else:
        values = {name: data.draw(KIND_VALUES.get(kinds.get(name, 'STRING'), values_any) if data.draw(st.booleans()) else values_any)
                  for name in data.draw(st.lists(st.sampled_from(names), unique=True))}
        limit = data.draw(st.one_of(st.none(), st.integers(-1, 5), st.just(True)))
    fast = compile_fast_plan(MODEL, keys)
    try:
        expected = general_plan(TABLE, pattern_name, values, limit)
    except SingleTableError:
        assert fast is None or fast(values, limit) is None
        if fast is not None:
            asserted()
        return
    planned = fast(values, limit) if fast is not None else None
    if planned is not None:
        assert [getattr(planned, a) for a in Plan.__slots__] == [getattr(expected, a) for a in Plan.__slots__]
        assert build_query_input(TABLE, planned, planned.condition['pk']) == build_query_input(TABLE, expected, expected.condition['pk'])
        asserted()
