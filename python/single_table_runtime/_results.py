"""Index entries back to typed results (lib/runtime/query/results.ts): the type attribute names the
entity; where the index does not project it (KEYS_ONLY) the table key is matched against the
pattern's entity templates and the values inside the keys are decoded."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ._encoding import DATE_SEGMENT, NUMBER_SEGMENT, decode_number, decode_string
from ._values import from_item

if TYPE_CHECKING:
    from ._model import Model


class Result(NamedTuple):
    """One typed result: the entity's name and its item."""
    entity: str
    item: dict[str, Any]


def parse_key(model: Model, template: dict[str, Any], key: str | None) -> dict[str, Any] | None:
    """The attribute values inside a key composed from ``template``; None when it does not fit."""
    if key is None:
        return None
    parts = key.split(model.delimiter)
    segments = template['segments']
    if len(parts) != len(segments):
        return None
    values: dict[str, Any] = {}
    for segment, part in zip(segments, parts):
        if 'literal' in segment:
            if segment['literal'] != part:
                return None
            continue
        kind = segment['kind']
        if kind == 'STRING':
            value: Any = decode_string(part, model.escape_char)
        elif kind == 'NUMBER':
            if not NUMBER_SEGMENT.fullmatch(part):
                return None
            number = decode_number(part)
            value = int(number) if number.is_integer() and abs(number) < 2 ** 53 else number
        elif kind == 'DATE':
            if not DATE_SEGMENT.fullmatch(part):
                return None
            value = part
        elif kind == 'BOOLEAN' and part == 'true':
            value = True
        else:
            return None
        values[segment['attribute']] = value
    return values


def _table_key_values(model: Model, entity: dict[str, Any], item: dict[str, Any]) -> dict[str, Any] | None:
    index = model.table_index
    keys = entity['keys']['table']
    pk = parse_key(model, keys['pk'], item.get(index['partitionKey'], {}).get('S'))
    if pk is None:
        return None
    # A key of literals only (`MATCH`) holds no values: an empty dict, and still a match.
    sk = parse_key(model, keys['sk'], item.get(index['sortKey'], {}).get('S'))
    return None if sk is None else {**pk, **sk}


def identify(model: Model, entities: list[str], item: dict[str, Any]) -> dict[str, Any] | None:
    type_value = item.get(model.type_attribute, {}).get('S')
    if type_value is not None:
        name = model.entity_by_type.get(type_value)
        return model.entities[name] if name in entities else None
    for name in entities:
        if _table_key_values(model, model.entities[name], item) is not None:
            return model.entities[name]
    return None


def _key_values(model: Model, entity: dict[str, Any], index_name: str, item: dict[str, Any]) -> dict[str, Any]:
    values = _table_key_values(model, entity, item) or {}
    if index_name == 'table':
        return values
    index = model.indexes[index_name]
    slot = entity['keys'].get(index_name)
    if slot is None:  # a multi-attribute GSI's key attributes are the item's own
        return values
    pk = item.get(index['partitionKey'], {}).get('S')
    if pk is not None and index.get('shards'):
        pk = pk[:pk.rindex(model.delimiter)]
    sk = parse_key(model, slot['sk'], item.get(index.get('sortKey') or '', {}).get('S')) if slot.get('sk') else None
    return {**(parse_key(model, slot['pk'], pk) or {}), **(sk or {}), **values}


def to_results(model: Model, entities: list[str], items: list[dict[str, Any]], index_name: str, decode_keys: bool,
               keep: frozenset[str] | None = None) -> list[Result]:
    out = []
    for raw in items:
        entity = identify(model, entities, raw)
        if entity is None:
            continue
        item = from_item(raw, model.strip)
        if decode_keys:
            item = {**_key_values(model, entity, index_name, raw), **item}
        if keep is not None:
            item = {k: v for k, v in item.items() if k in keep}
        out.append(Result(entity['name'], item))
    return out
