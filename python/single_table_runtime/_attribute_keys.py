"""Queries of a GSI keyed on the items' own attributes (multi-attribute keys), as the Node.js runtime
plans them (lib/runtime/query/attribute-key-condition.ts): nothing is composed, the query compares the
attributes themselves, DynamoDB's rules checked first. Every partition attribute by equality; sort
attributes left to right, each by equality but the last one given, which takes the pattern's
condition (BEGINS_WITH: a prefix of a STRING or DATE; DynamoDB's begins_with takes no number).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ._encoding import DATE_RULE, MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, must_be
from ._errors import SingleTableError
from ._keys import check_size
from ._values import KINDS

if TYPE_CHECKING:
    from ._keys import KeyModel

# The comparison each sort-key condition puts on the last sort attribute given.
_OPERATORS = {'EQUALS': '=', 'BEGINS_WITH': 'begins_with', 'LESS_THAN': '<', 'LESS_THAN_OR_EQUAL': '<=', 'GREATER_THAN': '>',
              'GREATER_THAN_OR_EQUAL': '>='}
# Every ISO-8601 UTC date the runtimes store has this shape: `9` a digit, anything else itself.
_DATE_SHAPE = '9999-99-99T99:99:99.999Z'


class AttributePatternKeys:
    """What a pattern on a multi-attribute GSI needs of the model: its index and type filter (no templates)."""

    attribute_keyed = True
    shard_suffix = 0

    def __init__(self, model: KeyModel, pattern: dict[str, Any]) -> None:
        self.pattern = pattern
        self.index = model.indexes[pattern['index']]
        self.type_filter = None
        populating = self.index.get('entities') or []
        # KEYS_ONLY indexes hold no type attribute: results are told apart by their keys instead.
        if self.index['projection'] != 'KEYS_ONLY' and any(e not in pattern['entities'] for e in populating):
            self.type_filter = [model.entities[e]['typeValue'] for e in pattern['entities']]


def _invalid(pattern: dict[str, Any], message: str, attribute: str | None = None) -> SingleTableError:
    return SingleTableError('INVALID_QUERY_INPUT', message, pattern=pattern['name'], attribute=attribute)


def _names(attrs: list[dict[str, Any]]) -> str:
    return '[' + ', '.join(a['name'] for a in attrs) + ']'


def attribute_key_condition(keys: AttributePatternKeys, values: Any) -> dict[str, Any]:
    """The Node.js runtime's KeyCondition of a pattern on a multi-attribute GSI (same fields, same order)."""
    pattern, index = keys.pattern, keys.index
    partition: list[dict[str, Any]] = index['partitionAttributes']
    sort: list[dict[str, Any]] = index.get('sortAttributes') or []
    condition = pattern['sortKeyCondition']
    if not isinstance(values, Mapping):
        raise _invalid(pattern, 'the input ' + must_be('a dict', values))
    for name in values:
        used = any(a['name'] == name for a in partition) or (
            condition == 'BETWEEN' if name == 'between' else condition not in ('NONE', 'BETWEEN') and any(a['name'] == name for a in sort))
        if not used:
            where = f', sort key {_names(sort)}, condition {condition}' if sort else ''
            raise _invalid(pattern, f"input '{name}' is not used by this pattern (partition key {_names(partition)}{where})", name)
    comparisons: list[dict[str, Any]] = []
    for attr in partition:
        if values.get(attr['name']) is None:
            raise SingleTableError('MISSING_ATTRIBUTE', f"is needed: a query on {index['name']} compares every partition attribute of {index['name']} "
                                   f"({', '.join(a['name'] for a in partition)}) by equality", pattern=pattern['name'], attribute=attr['name'])
        comparisons.append(_comparison(attr['name'], '=', [_key_value(pattern, attr, values[attr['name']], MAX_PARTITION_KEY_BYTES)]))
    if condition == 'NONE' or not sort:
        return {'pk': '', 'attributes': comparisons}
    if condition == 'BETWEEN':
        return {'pk': '', 'attributes': comparisons + _between(pattern, index, values.get('between'))}
    given = _leading(pattern, sort, values)
    for i, attr in enumerate(given):
        operator = _OPERATORS[condition] if i == len(given) - 1 else '='
        value = values[attr['name']]
        av = _prefix_value(pattern, sort, attr, value) if operator == 'begins_with' else _key_value(pattern, attr, value, MAX_SORT_KEY_BYTES)
        comparisons.append(_comparison(attr['name'], operator, [av]))
    return {'pk': '', 'attributes': comparisons}


def _comparison(attribute: str, operator: str, values: list[dict[str, Any]]) -> dict[str, Any]:
    return {'attribute': attribute, 'operator': operator, 'values': values}


def _leading(pattern: dict[str, Any], sort: list[dict[str, Any]], values: Any) -> list[dict[str, Any]]:
    """The sort attributes given, left to right; raises when one is given without an attribute before it."""
    given = [a for a in sort if values.get(a['name']) is not None]
    gap = next((i for i, a in enumerate(sort) if values.get(a['name']) is None), -1)
    after = None if gap < 0 else next((a for a in sort[gap + 1:] if values.get(a['name']) is not None), None)
    if after is not None:
        skipped = sort[gap]['name']
        raise _invalid(pattern, f"is given without {skipped} before it; DynamoDB compares sort attributes left to right "
                                f"({', '.join(a['name'] for a in sort)}): give {skipped} too, or leave {after['name']} out", after['name'])
    return given


def _between(pattern: dict[str, Any], index: dict[str, Any], bounds: Any) -> list[dict[str, Any]]:
    """BETWEEN: both bounds name the same leading sort attributes, equal but for the last, which is bounded."""
    if not isinstance(bounds, (list, tuple)) or len(bounds) != 2:
        raise _invalid(pattern, 'BETWEEN needs `between: [low, high]`, each naming the same leading sort attributes')
    for bound in bounds:
        if not isinstance(bound, Mapping):
            raise _invalid(pattern, 'a BETWEEN bound ' + must_be('a dict', bound))
    sort = index['sortAttributes']
    low, high = bounds
    for bound in (low, high):
        for name in bound:
            if not any(a['name'] == name for a in sort):
                raise _invalid(pattern, f"'{name}' is not a sort attribute of {index['name']} ({', '.join(a['name'] for a in sort)})", name)
    low_attrs, high_attrs = _leading(pattern, sort, low), _leading(pattern, sort, high)
    if len(low_attrs) != len(high_attrs):
        raise _invalid(pattern, f"the low bound {_values_text(low, low_attrs)} and the high bound {_values_text(high, high_attrs)} differ in the "
                                'sort attributes they name; both bounds name the same sort attributes, the last one bounded')
    out: list[dict[str, Any]] = []
    for i, attr in enumerate(low_attrs):
        name = attr['name']
        lo = _key_value(pattern, attr, low[name], MAX_SORT_KEY_BYTES)
        hi = _key_value(pattern, attr, high[name], MAX_SORT_KEY_BYTES)
        order = _compare_values(lo, hi)
        if i < len(low_attrs) - 1:
            if order != 0:
                raise _invalid(pattern, f'{name} is {_value_text(low[name])} in the low bound and {_value_text(high[name])} in the high bound; '
                                        'BETWEEN bounds only the last sort attribute given and compares the ones before it by equality: '
                                        'give them the same value in both bounds', name)
            out.append(_comparison(name, '=', [lo]))
        else:
            # DynamoDB answers an inverted BETWEEN with a ValidationException: say so first, with the values as given.
            if order > 0:
                raise _invalid(pattern, f'the low bound {_value_text(low[name])} is above the high bound {_value_text(high[name])} in {name}; '
                                        'swap the bounds', name)
            out.append(_comparison(name, 'BETWEEN', [lo, hi]))
    return out


def _value_text(value: Any) -> str:
    return repr(value) if isinstance(value, str) else str(value)


def _values_text(values: Mapping[str, Any], attrs: list[dict[str, Any]]) -> str:
    return '(' + ', '.join(f"{a['name']}: {_value_text(values[a['name']])}" for a in attrs) + ')'


def _utf8_rank(unit: int) -> int:
    if unit >= 0xE000:
        return unit - 0x800
    return unit + 0x2000 if unit >= 0xD800 else unit


def _utf16_ranks(text: str) -> list[int]:
    raw = text.encode('utf-16-be', 'surrogatepass')
    return [_utf8_rank(int.from_bytes(raw[i:i + 2], 'big')) for i in range(0, len(raw), 2)]


def _compare_values(a: dict[str, Any], b: dict[str, Any]) -> int:
    """Numbers by value, strings by UTF-8 bytes (as the Node.js runtime ranks UTF-16 units): as DynamoDB orders a key attribute."""
    if 'N' in a and 'N' in b:
        d = float(a['N']) - float(b['N'])
        return (d > 0) - (d < 0)
    x, y = _utf16_ranks(a['S']), _utf16_ranks(b['S'])
    return (x > y) - (x < y)


def _prefix_value(pattern: dict[str, Any], sort: list[dict[str, Any]], attr: dict[str, Any], value: Any) -> dict[str, Any]:
    """The prefix BEGINS_WITH compares: a non-empty string of a STRING; of a DATE a leading part of its stored form, or a whole date."""
    if attr['kind'] == 'NUMBER':
        position = next(i for i, a in enumerate(sort) if a['name'] == attr['name'])
        following = sort[position + 1] if position + 1 < len(sort) else None
        raise _invalid(pattern, "is a NUMBER, and BEGINS_WITH compares a prefix of the last sort attribute given, which DynamoDB's begins_with "
                                'takes of strings only; '
                                + (f"give {following['name']} too (its prefix is compared), or " if following and following['kind'] != 'NUMBER' else '')
                                + 'use an EQUALS pattern to compare it by value', attr['name'])
    if attr['kind'] == 'DATE' and isinstance(value, str) and value and len(value) < len(_DATE_SHAPE) and all(
            ('0' <= c <= '9') if _DATE_SHAPE[i] == '9' else c == _DATE_SHAPE[i] for i, c in enumerate(value)):
        return {'S': value}
    if attr['kind'] == 'DATE' and KINDS['DATE'][1](value) is None:
        raise SingleTableError('INVALID_VALUE', must_be(f"{DATE_RULE}, or a leading part of its stored form such as '2026-01'", value),
                               pattern=pattern['name'], attribute=attr['name'])
    return _key_value(pattern, attr, value, MAX_SORT_KEY_BYTES)


def _key_value(pattern: dict[str, Any], attr: dict[str, Any], value: Any, limit: int) -> dict[str, Any]:
    """A key attribute's value in a query: of its kind, not empty, within the key size limit."""
    rule, check = KINDS[attr['kind']]
    av = check(value)
    if av is None:
        raise SingleTableError('INVALID_VALUE', must_be(rule, value), pattern=pattern['name'], attribute=attr['name'])
    text = av.get('S')
    if text == '':
        raise SingleTableError('INVALID_VALUE', 'is an empty string, which no item holds in a key attribute (DynamoDB refuses it there); give a value',
                               pattern=pattern['name'], attribute=attr['name'])
    if text is not None:
        check_size(pattern['name'], attr['name'], text, limit, 0)
    return av


def attribute_key_expression(comparisons: list[dict[str, Any]], names: dict[str, str], values: dict[str, Any]) -> str:
    """A multi-attribute GSI's key condition: its comparisons joined by AND, names `#k<n>`, values `:k<n>` (and `:k<n>b`)."""
    parts = []
    for i, c in enumerate(comparisons):
        names[f'#k{i}'] = c['attribute']
        values[f':k{i}'] = c['values'][0]
        if c['operator'] == 'begins_with':
            parts.append(f'begins_with(#k{i}, :k{i})')
        elif c['operator'] == 'BETWEEN':
            values[f':k{i}b'] = c['values'][1]
            parts.append(f'#k{i} BETWEEN :k{i} AND :k{i}b')
        else:
            parts.append(f"#k{i} {c['operator']} :k{i}")
    return ' AND '.join(parts)
