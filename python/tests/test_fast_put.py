"""The compiled item builder of a put (single_table_runtime._fast_put) against the general path it
stands in for: on any item, it builds the very item the general path builds, or leaves it to it."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from single_table_runtime import SingleTableError, open_table
from single_table_runtime._fast_put import compile_fast_write
from single_table_runtime.keys import EntityKeys
from single_table_runtime.values import item_attributes

from conftest import ROOT

TABLE = open_table(json.loads((ROOT / 'examples' / 'manifest.model.json').read_text()), table_name='T', client=object())
MODEL = TABLE.model

texts = st.one_of(st.text(max_size=8), st.sampled_from(['', 'a#b', '$', 'ann', 'OPEN', 'x' * 600, '\ud800']))
values = st.one_of(st.none(), texts, st.integers(-(2 ** 60), 2 ** 60), st.floats(), st.booleans(),
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


def general(entity_name: str, item: dict[str, Any]) -> dict[str, Any]:
    keys = EntityKeys(MODEL, MODEL.entities[entity_name])
    out = item_attributes(keys.entity, item, keys.attribute_checks)
    keys.write_keys(item, out)
    out[MODEL.type_attribute] = {'S': keys.entity['typeValue']}
    return out


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(sorted(MODEL.entities)), st.data())
def test_the_compiled_builder_builds_what_the_general_path_builds_or_leaves_the_item_to_it(entity_name: str, data: Any) -> None:
    entity = MODEL.entities[entity_name]
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
    fast = compile_fast_write(MODEL.entity_keys(entity_name))
    try:
        expected = general(entity_name, item)
    except SingleTableError:
        assert fast is None or fast(item) is None
        return
    if fast is not None:
        built = fast(item)
        assert built is None or (built == expected and list(built) == list(expected))


def test_the_common_put_takes_the_compiled_builder() -> None:
    order = {'username': 'ann', 'orderId': 'o-1', 'status': 'OPEN', 'createdAt': '2024-01-10T10:00:00.000Z', 'amount': Decimal('99.99')}
    fast = compile_fast_write(MODEL.entity_keys('Order'))
    assert fast is not None and fast({**order, 'amount': 99.99}) == general('Order', {**order, 'amount': 99.99})
    assert fast(order) is None  # a Decimal: the general path
