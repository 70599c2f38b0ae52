"""Conditions and filters as data (lib/runtime/expressions): the same dicts the Node.js runtime
takes, so a condition written as JSON serves both. ``{'attr': name, <operator>: operand}`` with
eq, ne, lt, lte, gt, gte, between, in, exists, beginsWith or contains; ``{'size': name, <comparison>: n}``;
``{'and': [...]}``, ``{'or': [...]}``, ``{'not': condition}``. Compiled before any request, every
value checked against its attribute's kind; `attributes` of a read choose what results hold."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ._encoding import describe
from ._errors import SingleTableError, did_you_mean
from ._values import KINDS, checked_value, number_text, storable_number, to_attribute_value

if TYPE_CHECKING:
    from ._context import TableContext
    from ._query_plan import Plan

COMPARISONS = {'eq': '=', 'ne': '<>', 'lt': '<', 'lte': '<=', 'gt': '>', 'gte': '>='}
ATTRIBUTE_OPERATORS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'between', 'in', 'exists', 'beginsWith', 'contains']
SIZE_OPERATORS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'between']
ORDERED_KINDS = ['STRING', 'NUMBER', 'DATE']
SIZED_KINDS = ['STRING', 'DATE', 'LIST', 'MAP', 'STRING_SET', 'NUMBER_SET']
MAX_IN_VALUES = 100
CONTAINS_RULES = {'STRING': 'a string (a substring)', 'STRING_SET': 'a string (a member)', 'NUMBER_SET': 'a storable number (a member)',
                  'LIST': 'a storable value (an element)'}


class Refs:
    """The placeholders of one request's expressions, continuing those it already has."""

    def __init__(self, request: dict[str, Any] | None = None) -> None:
        self.names: dict[str, str] = dict((request or {}).get('ExpressionAttributeNames', {}))
        self.values: dict[str, Any] = dict((request or {}).get('ExpressionAttributeValues', {}))
        self.by_name = {v: k for k, v in self.names.items()}
        self.next_name = 0
        self.next_value = 0

    def name(self, attribute: str) -> str:
        ref = self.by_name.get(attribute)
        if ref is None:
            while True:
                ref = f'#n{self.next_name}'
                self.next_name += 1
                if ref not in self.names:
                    break
            self.names[ref] = attribute
            self.by_name[attribute] = ref
        return ref

    def value(self, av: dict[str, Any]) -> str:
        while True:
            ref = f':v{self.next_value}'
            self.next_value += 1
            if ref not in self.values:
                break
        self.values[ref] = av
        return ref

    def apply_to(self, request: dict[str, Any]) -> None:
        if self.names:
            request['ExpressionAttributeNames'] = self.names
        if self.values:
            request['ExpressionAttributeValues'] = self.values


def _names(entities: list[dict[str, Any]]) -> str:
    return ' | '.join(e['name'] for e in entities)


def _invalid(entities: list[dict[str, Any]], path: str, message: str, attribute: str | None = None) -> SingleTableError:
    return SingleTableError('INVALID_CONDITION', f'{path}: {message}', entity=_names(entities), attribute=attribute)


def compile_condition(entities: list[dict[str, Any]], node: Any, refs: Refs, path: str = 'condition') -> str:
    if not isinstance(node, dict):
        raise _invalid(entities, path, f'must be a condition dict, got {describe(node)}')
    keys = [k for k, v in node.items() if v is not None]
    for logical in ('and', 'or'):
        if logical not in keys:
            continue
        _only(entities, path, keys, logical)
        items = node[logical]
        if not isinstance(items, (list, tuple)) or not items:
            raise _invalid(entities, f'{path}.{logical}', f'must be a non-empty list of conditions, got {describe(items)}')
        parts = [compile_condition(entities, child, refs, f'{path}.{logical}[{i}]') for i, child in enumerate(items)]
        return parts[0] if len(parts) == 1 else (' AND ' if logical == 'and' else ' OR ').join(f'({p})' for p in parts)
    if 'not' in keys:
        _only(entities, path, keys, 'not')
        return f"NOT ({compile_condition(entities, node['not'], refs, f'{path}.not')})"
    if 'attr' in keys:
        return _attribute(entities, node, keys, refs, path)
    if 'size' in keys:
        return _size(entities, node, keys, refs, path)
    raise _invalid(entities, path, f"must have one of attr, size, and, or, not; got {', '.join(keys) if keys else 'no key'}")


def _only(entities: list[dict[str, Any]], path: str, keys: list[str], key: str) -> None:
    if len(keys) != 1:
        raise _invalid(entities, path, f"has {', '.join(keys)}: a {key} condition holds only {key} (nest the others in it)")


class _Declared:
    def __init__(self, name: str, path: str, owners: list[dict[str, Any]]) -> None:
        self.name = name
        self.path = path
        self.entities = owners
        self.attrs = [e['attributes'][name] for e in owners]


def _declared(entities: list[dict[str, Any]], name: Any, path: str) -> _Declared:
    if not isinstance(name, str):
        raise _invalid(entities, path, f'must be an attribute name, got {describe(name)}')
    owners = [e for e in entities if name in e['attributes']]
    if not owners:
        known = list(dict.fromkeys(a for e in entities for a in e['attributes']))
        raise SingleTableError('UNKNOWN_ATTRIBUTE', f"{path}: is not declared; {did_you_mean(str(name), known)}declared attributes: {', '.join(known)}", entity=_names(entities), attribute=name)
    return _Declared(name, path, owners)


def _operator(entities: list[dict[str, Any]], path: str, keys: list[str], subject: str, allowed: list[str]) -> str:
    ops = [k for k in keys if k != subject]
    unknown = [k for k in ops if k not in allowed]
    if unknown or len(ops) != 1:
        what = f"has {', '.join(repr(k) for k in unknown)}, not an operator" if unknown else f"has {', '.join(ops) if ops else 'no operator'}"
        raise _invalid(entities, path, f"{what}: a {subject} condition takes exactly one of {', '.join(allowed)}")
    return ops[0]


def _of_kinds(attr: _Declared, op: str, kinds: list[str]) -> str:
    for a in attr.attrs:
        if a['type'] in kinds:
            return a['type']
    raise SingleTableError('INVALID_CONDITION', f"{attr.path}: {op} applies to {', '.join(kinds)} attributes, and {attr.name} is {attr.attrs[0]['type']}",
                           entity=attr.entities[0]['name'], attribute=attr.name)


def _value(attr: _Declared, value: Any, path: str, kinds: list[str] | None = None) -> dict[str, Any]:
    for entity, a in zip(attr.entities, attr.attrs):
        if kinds and a['type'] not in kinds:
            continue
        try:
            return checked_value(entity['name'], attr.name, a['type'], value)
        except SingleTableError:
            continue
    first = next(a for a in attr.attrs if not kinds or a['type'] in kinds)
    raise SingleTableError('INVALID_VALUE', f"{path}: must be {KINDS[first['type']][0]}, got {describe(value)}", entity=attr.entities[0]['name'], attribute=attr.name)


def _order(av: dict[str, Any]) -> Any:
    return float(av['N']) if 'N' in av else av.get('S', '')


def _bounds(entities: list[dict[str, Any]], operand: Any, path: str, convert: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    if not isinstance(operand, (list, tuple)) or len(operand) != 2:
        raise _invalid(entities, path, f"must be [low, high], got {f'{len(operand)} values' if isinstance(operand, (list, tuple)) else describe(operand)}")
    low, high = convert(operand[0], 0), convert(operand[1], 1)
    if _order(low) > _order(high):
        raise _invalid(entities, path, f'low bound {describe(operand[0])} is above high bound {describe(operand[1])}')
    return low, high


def _attribute(entities: list[dict[str, Any]], node: dict[str, Any], keys: list[str], refs: Refs, path: str) -> str:
    attr = _declared(entities, node['attr'], f'{path}.attr')
    op = _operator(entities, path, keys, 'attr', ATTRIBUTE_OPERATORS)
    operand = node[op]
    at = f'{path}.{op}'
    name = refs.name(attr.name)
    if op in COMPARISONS:
        kinds = None if op in ('eq', 'ne') else ORDERED_KINDS
        if kinds:
            _of_kinds(attr, op, kinds)
        return f'{name} {COMPARISONS[op]} {refs.value(_value(attr, operand, at, kinds))}'
    if op == 'between':
        _of_kinds(attr, op, ORDERED_KINDS)
        low, high = _bounds(entities, operand, at, lambda v, i: _value(attr, v, f'{at}[{i}]', ORDERED_KINDS))
        return f'{name} BETWEEN {refs.value(low)} AND {refs.value(high)}'
    if op == 'in':
        if not isinstance(operand, (list, tuple)) or not 0 < len(operand) <= MAX_IN_VALUES:
            got = f'{len(operand)} values' if isinstance(operand, (list, tuple)) else describe(operand)
            raise _invalid(entities, at, f"must be a list of 1 to {MAX_IN_VALUES} values (DynamoDB's limit for IN), got {got}")
        return f"{name} IN ({', '.join(refs.value(_value(attr, v, f'{at}[{i}]')) for i, v in enumerate(operand))})"
    if op == 'exists':
        if not isinstance(operand, bool):
            raise _invalid(entities, at, f'must be True or False, got {describe(operand)}')
        return f"{'attribute_exists' if operand else 'attribute_not_exists'}({name})"
    if op == 'beginsWith':
        _of_kinds(attr, op, ['STRING', 'DATE'])
        if not isinstance(operand, str):
            raise _invalid(entities, at, f'must be a string prefix, got {describe(operand)}', attr.name)
        return f"begins_with({name}, {refs.value({'S': operand})})"
    kind = _of_kinds(attr, op, ['STRING', 'STRING_SET', 'NUMBER_SET', 'LIST'])
    if kind in ('STRING', 'STRING_SET'):
        av = {'S': operand} if isinstance(operand, str) else None
    elif kind == 'NUMBER_SET':
        av = {'N': number_text(operand)} if storable_number(operand) else None
    else:
        av = to_attribute_value(operand)
    if av is None:
        raise _invalid(entities, at, f'must be {CONTAINS_RULES[kind]}, got {describe(operand)}', attr.name)
    return f'contains({name}, {refs.value(av)})'


def _size(entities: list[dict[str, Any]], node: dict[str, Any], keys: list[str], refs: Refs, path: str) -> str:
    attr = _declared(entities, node['size'], f'{path}.size')
    _of_kinds(attr, 'size', SIZED_KINDS)
    op = _operator(entities, path, keys, 'size', SIZE_OPERATORS)
    at = f'{path}.{op}'

    def number(v: Any, where: str) -> dict[str, Any]:
        if not storable_number(v):
            raise _invalid(entities, where, f'must be a number (a size in bytes or elements), got {describe(v)}', attr.name)
        return {'N': number_text(v)}

    size = f'size({refs.name(attr.name)})'
    if op == 'between':
        low, high = _bounds(entities, node['between'], at, lambda v, i: number(v, f'{at}[{i}]'))
        return f'{size} BETWEEN {refs.value(low)} AND {refs.value(high)}'
    return f'{size} {COMPARISONS[op]} {refs.value(number(node[op], at))}'


def add_condition(table: TableContext, request: dict[str, Any], entity: dict[str, Any], condition: Any) -> None:
    """ANDs the caller's condition to a write's; the stored item comes back when it fails."""
    refs = Refs(request)
    expression = compile_condition([entity], condition, refs)
    existing = request.get('ConditionExpression')
    request['ConditionExpression'] = f'({existing}) AND ({expression})' if existing else expression
    request['ReturnValuesOnConditionCheckFailure'] = 'ALL_OLD'
    refs.apply_to(request)


def attributes_in_index(entity: dict[str, Any], index: dict[str, Any]) -> set[str] | None:
    """The attributes of an entity an entry of ``index`` holds or encodes in its keys; None when it projects all."""
    if index['projection'] == 'ALL':
        return None
    found = set(index['nonKeyAttributes'])
    for slot in (entity['keys']['table'], entity['keys'].get(index['name'])):
        for part in ('pk', 'sk'):
            found.update((slot or {}).get(part, {}).get('attributes', []))
    return found


def read_plan(table: TableContext, plan: Plan, filter: Any, attributes: Any) -> None:
    """Checks a query's read options and records them on the plan: whether entries are fetched, what results keep."""
    model = table.model
    pattern = plan.keys.pattern
    index = plan.keys.index
    entities = [model.entities[e] for e in pattern['entities']]
    place = {'pattern': pattern['name']}
    if attributes is not None:
        if not isinstance(attributes, (list, tuple)) or not attributes:
            raise SingleTableError('INVALID_QUERY_INPUT', f'attributes must be a non-empty list of attribute names, got {attributes!r}', **place)
        for a in attributes:
            if not isinstance(a, str) or not any(a in e['attributes'] for e in entities):
                known = list(dict.fromkeys(n for e in entities for n in e['attributes']))
                raise SingleTableError('UNKNOWN_ATTRIBUTE', f"attributes names {a!r}, which none of {', '.join(pattern['entities'])} declares; "
                                       f"{did_you_mean(str(a), known)}declared attributes: {', '.join(known)}", attribute=str(a), **place)
        # A pattern reads only the attributes it declares: its projection and cost are planned for those.
        for a in attributes:
            if a not in pattern['attributes']:
                raise SingleTableError('UNKNOWN_ATTRIBUTE', f"attributes names {json.dumps(a)}, which pattern {pattern['name']} does not declare it reads "
                                       f"({', '.join(pattern['attributes'])}); add it to accessPatterns.{pattern['name']}.attributes, "
                                       "and to its index's projection if the index does not project it", attribute=a, **place)
        fetch = index['type'] == 'GSI' and not all(
            (found := attributes_in_index(e, index)) is None or all(a not in e['attributes'] or a in found for a in attributes) for e in entities)
        table_index = model.table_index
        names = list(dict.fromkeys(n for n in (table_index['partitionKey'], table_index['sortKey'], index['partitionKey'], index.get('sortKey')) if n))
        if index['projection'] != 'KEYS_ONLY':
            names.append(model.type_attribute)
        if not fetch:
            held = set(index['nonKeyAttributes']) if index['type'] == 'GSI' and index['projection'] != 'ALL' else None
            names.extend(a for a in attributes if (held is None or a in held) and a not in names)
        plan.projection = names
        plan.fetch = 'BATCH_GET' if fetch else 'NONE'
        plan.decode_keys = index['projection'] != 'ALL' and not fetch
        plan.keep = frozenset(attributes)
    if filter is not None:
        refs = Refs()
        compile_condition(entities, filter, refs, 'filter')
        if index['type'] == 'GSI' and index['projection'] != 'ALL':
            projected = set(index['nonKeyAttributes'])
            for attribute in refs.names.values():
                if attribute not in projected:
                    raise SingleTableError('INVALID_CONDITION', f"filter names {attribute}, which GSI {index['name']} does not project ({index['projection']}), "
                                           "so no entry would hold it; add it to the index's include list, or filter the results after the query",
                                           attribute=attribute, **place)
        plan.filter = filter


def finish_read(table: TableContext, request: dict[str, Any], plan: Plan) -> None:
    """Adds the projection and the filter to a built Query input."""
    refs = Refs(request)
    if plan.projection is not None:
        request['ProjectionExpression'] = ', '.join(refs.name(a) for a in plan.projection)
        request.pop('Select', None)
    if plan.filter is not None:
        entities = [table.model.entities[e] for e in plan.keys.pattern['entities']]
        expression = compile_condition(entities, plan.filter, refs, 'filter')
        existing = request.get('FilterExpression')
        request['FilterExpression'] = f'({existing}) AND ({expression})' if existing else expression
    refs.apply_to(request)
