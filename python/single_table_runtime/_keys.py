"""Keys composed from the model's templates exactly as the Node.js runtime composes them
(lib/keys/template.ts, lib/runtime/attributes/item-keys.ts, lib/runtime/query/key-condition.ts): the table key, every
index slot an item populates (left out when an input is absent, so sparse indexes stay sparse),
shard suffixes, UTF-8 size limits, and the key condition of a pattern's query.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, Protocol

from ._encoding import (MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, SEGMENT_ENCODERS, Invalid, bound_encoder, encode_value, must_be,
                       utf8_length)
from ._errors import SingleTableError
from ._shard import Literal, fnv1a, mix32, shard_for_value
from ._values import KINDS

Values = Mapping[str, Any]
Encoder = Callable[[Any, str], 'str | None | Invalid']
# A template as the text before its first attribute, then per attribute its name, encoder and the text after it.
Parts = tuple[str, tuple[tuple[str, Encoder, str], ...]]


class KeyModel(Protocol):
    """What composing keys reads of a loaded model: its delimiter and escape character, its indexes (the table's
    among them) and its entities."""

    delimiter: str
    escape_char: str
    indexes: dict[str, dict[str, Any]]
    table_index: dict[str, Any]
    entities: dict[str, dict[str, Any]]


class Absent:
    """A key input that is absent (None, '' or False): the key has no value."""

    __slots__ = ('attribute',)

    def __init__(self, attribute: str) -> None:
        self.attribute = attribute


class Fault:
    """A key input that cannot be encoded, and why."""

    __slots__ = ('error', 'attribute')

    def __init__(self, error: str, attribute: str) -> None:
        self.error = error
        self.attribute = attribute


def template_parts(template: dict[str, Any], delimiter: str) -> Parts:
    head = ''
    attributes: list[list[Any]] = []
    for i, segment in enumerate(template['segments']):
        text = (delimiter if i > 0 else '') + segment.get('literal', '')
        if attributes:
            attributes[-1][2] += text
        else:
            head += text
        if 'attribute' in segment:
            kind = segment['kind']
            encoder = SEGMENT_ENCODERS.get(kind) or (lambda value, escape, kind=kind: encode_value(kind, value, escape))
            attributes.append([segment['attribute'], encoder, ''])
    return head, tuple((name, encoder, tail) for name, encoder, tail in attributes)


def compose(parts: Parts, values: Values, escape_char: str) -> str | Absent | Fault:
    """The key of a template's parts; Absent or Fault naming the attribute when there is none."""
    key = parts[0]
    for name, encode, tail in parts[1]:
        value = values.get(name)
        if value is None or value == '':
            return Absent(name)
        r = encode(value, escape_char)
        if r.__class__ is not str:
            return Absent(name) if r is None else Fault(r.error, name)
        key += r + tail
    return key


def compose_prefix(parts: Parts, values: Values, escape_char: str) -> tuple[str, bool, list[str]] | Fault:
    """The longest prefix whose attributes are all given: (prefix, complete, used). An incomplete one ends at a delimiter."""
    prefix = parts[0]
    used: list[str] = []
    for name, encode, tail in parts[1]:
        value = values.get(name)
        r = None if value is None or value == '' else encode(value, escape_char)
        if r is None:
            return prefix, False, used
        if r.__class__ is not str:
            return Fault(r.error, name)
        used.append(name)
        prefix += r + tail
    return prefix, True, used


def key_error(failure: Absent | Fault, missing: str, where: str = '', **context: Any) -> SingleTableError:
    if isinstance(failure, Absent):
        return SingleTableError('MISSING_ATTRIBUTE', missing, attribute=failure.attribute, **context)
    return SingleTableError('INVALID_VALUE', failure.error + where, attribute=failure.attribute, **context)


def check_size(owner: dict[str, Any] | str, attribute: str, key: str, limit: int, query: int | None = None) -> str:
    """Raises KEY_TOO_LARGE when a key exceeds DynamoDB's UTF-8 limit (an item's, or with ``query`` a query's, plus its shard suffix)."""
    suffix = query or 0
    # A code point is at most 4 UTF-8 bytes, so short keys skip the byte count.
    if len(key) * 4 + suffix > limit:
        size = utf8_length(key) + suffix
        if size > limit:
            name = owner if isinstance(owner, str) else owner['name']
            where = {'entity': name} if query is None else {'pattern': name}
            raise SingleTableError('KEY_TOO_LARGE', f"{'' if query is None else 'the query' + chr(39) + 's '}key {attribute} is {size} bytes of UTF-8; "
                                   f'DynamoDB allows {limit}', attribute=attribute, **where)
    return key


class _Slot:
    __slots__ = ('index', 'keys', 'pk', 'sk', 'shard_kind', 'pk_number', 'sk_number', 'pk_attribute', 'sk_attribute', 'sharded')

    def __init__(self, index: dict[str, Any], keys: dict[str, Any], pk: Parts | None, sk: Parts | None, shard_kind: str | None,
                 pk_number: int | None, sk_number: int | None) -> None:
        self.index = index
        self.keys = keys
        self.pk = pk
        self.sk = sk
        self.shard_kind = shard_kind
        self.pk_number = pk_number
        self.sk_number = sk_number
        self.pk_attribute = index['partitionKey']
        self.sk_attribute = index.get('sortKey')
        self.sharded = bool(index.get('shards'))


class EntityKeys:
    """An entity's key templates compiled once: the table key and its index slots. A put encodes each
    key attribute once and composes each distinct template once (GSI1 ``ORDER#{orderId}`` serves
    two keys and the table's sort key)."""

    def __init__(self, model: KeyModel, entity: dict[str, Any]) -> None:
        self.model = model
        self.entity = entity
        d = model.delimiter
        table = entity['keys']['table']
        self.table_templates = table
        self.table_pk = template_parts(table['pk'], d)
        self.table_sk = template_parts(table['sk'], d)
        self.table_names = list(dict.fromkeys(table['pk']['attributes'] + table['sk']['attributes']))
        sources: list[str] = []
        self.templates: list[tuple[str, tuple[tuple[str, str], ...]]] = []
        encoders: dict[str, Callable[[Any], 'str | None | Invalid']] = {}

        def number(template: dict[str, Any]) -> int:
            if template['source'] not in sources:
                head, attributes = template_parts(template, d)
                sources.append(template['source'])
                self.templates.append((head, tuple((name, tail) for name, _, tail in attributes)))
                encoders.update((s['attribute'], bound_encoder(s['kind'], model.escape_char)) for s in template['segments'] if 'attribute' in s)
            return sources.index(template['source'])

        self.table_numbers = (number(table['pk']), number(table['sk']))
        self.slots: list[_Slot] = []
        for name, keys in entity['keys'].items():
            if name == 'table':
                continue
            index = model.indexes[name]
            self.slots.append(_Slot(index, keys, None if index['type'] == 'LSI' else template_parts(keys['pk'], d),
                                    template_parts(keys['sk'], d) if index.get('sortKey') and keys.get('sk') else None, shard_kind_of(entity, index),
                                    None if index['type'] == 'LSI' else number(keys['pk']),
                                    number(keys['sk']) if index.get('sortKey') and keys.get('sk') else None))
        # The sharded multi-attribute GSIs the entity populates: each item stores its shard there as a number of its own.
        self.attribute_shards = [_Slot(index, {}, None, None, shard_kind_of(entity, index), None, None) for index in model.indexes.values()
                                 if (index.get('shards') or {}).get('keyAttribute') and entity['name'] in (index.get('entities') or ())]
        # Every slot an update may move: the composed ones, then the sharded multi-attribute GSIs' shards.
        self.index_slots = [*self.slots, *self.attribute_shards]
        # Per attribute name that keys a multi-attribute GSI: those GSIs, and the size limit there (the partition's when in both).
        self.keyed_values: dict[str, tuple[list[str], int]] = {}
        for index in model.indexes.values():
            for attrs, limit in ((index.get('partitionAttributes'), MAX_PARTITION_KEY_BYTES), (index.get('sortAttributes'), MAX_SORT_KEY_BYTES)):
                for a in attrs or ():
                    indexes, least = self.keyed_values.get(a['name'], ([], limit))
                    self.keyed_values[a['name']] = ([*indexes, index['name']], min(least, limit))
        self.encoders = tuple(encoders.items())
        self.slot_plan = tuple((slot, slot.pk_number, slot.sk_number, slot.pk_attribute, slot.sk_attribute, slot.sharded) for slot in self.slots)
        # Each template as its head and, per attribute, the attribute's place in ``encoders`` and the text after it.
        place = {name: i for i, (name, _) in enumerate(self.encoders)}
        self.compiled = tuple((head, tuple((place[name], name, tail) for name, tail in attributes)) for head, attributes in self.templates)
        # When every template holds one attribute (most do), each key is one concatenation.
        self.singles = tuple((head, *attributes[0]) for head, attributes in self.compiled) if all(len(a) == 1 for _, a in self.compiled) else None
        index = model.table_index
        self.pk_name, self.sk_name = index['partitionKey'], index['sortKey']
        # A RANDOM shard hashes the table partition key, a NUL and the sort key: the state after the partition key's
        # literal head is known, and the NUL and the sort key's literal head are one step (_shard.Literal).
        self.table_pk_head = self.table_pk[0]
        self.table_pk_seed = fnv1a(self.table_pk_head)
        self.table_sk_head = self.table_sk[0]
        self.between_table_keys = Literal('\u0000' + self.table_sk_head)
        # Every attribute as (name, kind, check, required), for the item's values.
        self.attribute_checks = [(a['name'], a['type'], KINDS[a['type']][1], a['required']) for a in entity['attributes'].values()]

    def compose_all(self, values: Values) -> list[str | Absent | Fault]:
        """Every distinct key of the entity from one item's values, each attribute encoded once."""
        get = values.get
        segments = [None if (v := get(name)) is None or v == '' else encode(v) for name, encode in self.encoders]
        if self.singles is not None:
            return [head + r + tail if (r := segments[at]).__class__ is str else Absent(name) if r is None else Fault(r.error, name)
                    for head, at, name, tail in self.singles]
        out: list[str | Absent | Fault] = []
        for head, attributes in self.compiled:
            key: str | Absent | Fault = head
            for at, name, tail in attributes:
                r = segments[at]
                if r.__class__ is not str:
                    key = Absent(name) if r is None else Fault(r.error, name)  # type: ignore[union-attr]
                    break
                key += r + tail  # type: ignore[operator]
            out.append(key)
        return out

    def table_key(self, values: Values, composed: list[str | Absent | Fault] | None = None) -> tuple[str, str]:
        """The table key of an item; both parts must compose (MISSING_ATTRIBUTE, INVALID_VALUE, KEY_TOO_LARGE)."""
        if composed:
            pk, sk = composed[self.table_numbers[0]], composed[self.table_numbers[1]]
            # Short composed keys, the common case, need no further check.
            if pk.__class__ is str and sk.__class__ is str and len(pk) * 4 <= MAX_PARTITION_KEY_BYTES and len(sk) * 4 <= MAX_SORT_KEY_BYTES:
                return pk, sk  # type: ignore[return-value]
        else:
            esc = self.model.escape_char
            pk, sk = compose(self.table_pk, values, esc), compose(self.table_sk, values, esc)
        return (self._required(self.table_templates['pk'], pk, self.pk_name, MAX_PARTITION_KEY_BYTES),
                self._required(self.table_templates['sk'], sk, self.sk_name, MAX_SORT_KEY_BYTES))

    def _required(self, template: dict[str, Any], r: str | Absent | Fault, attribute: str, limit: int) -> str:
        if r.__class__ is str:
            return check_size(self.entity, attribute, r, limit)  # type: ignore[arg-type]
        key = f"key {attribute} = {template['source']}"
        raise key_error(r, f'is needed (non-empty) for {key}', f' ({key})', entity=self.entity['name'])  # type: ignore[arg-type]

    def key_item(self, values: Values) -> dict[str, Any]:
        """The table key as the AttributeValue map DynamoDB wants."""
        pk, sk = self.table_key(values)
        index = self.model.table_index
        return {index['partitionKey']: {'S': pk}, index['sortKey']: {'S': sk}}

    def write_keys(self, values: Values, out: dict[str, Any]) -> None:
        """Every key attribute of an item into ``out``: the table key, and each index slot whose inputs are all present
        (``slot_keys`` for one slot, inlined over the slots' precompiled facts: a put's hottest loop)."""
        composed = self.compose_all(values)
        table = self.table_key(values, composed)
        out[self.pk_name] = {'S': table[0]}
        out[self.sk_name] = {'S': table[1]}
        for slot, pk_number, sk_number, pk_attribute, sk_attribute, sharded in self.slot_plan:
            if pk_number is not None:
                pk = composed[pk_number]
                if pk.__class__ is not str:
                    self._absent(slot.keys['pk'], pk)  # type: ignore[arg-type]
                    continue
                if sharded:
                    pk = pk + self.model.delimiter + str(self._shard(slot, values, table))  # type: ignore[operator]
                if len(pk) * 4 > MAX_PARTITION_KEY_BYTES:  # type: ignore[arg-type]
                    check_size(self.entity, pk_attribute, pk, MAX_PARTITION_KEY_BYTES)  # type: ignore[arg-type]
            if sk_number is not None:
                sk = composed[sk_number]
                if sk.__class__ is not str:
                    self._absent(slot.keys['sk'], sk)  # type: ignore[arg-type]
                    continue
                if len(sk) * 4 > MAX_SORT_KEY_BYTES:  # type: ignore[arg-type]
                    check_size(self.entity, sk_attribute, sk, MAX_SORT_KEY_BYTES)  # type: ignore[arg-type]
                if pk_number is not None:
                    out[pk_attribute] = {'S': pk}
                out[sk_attribute] = {'S': sk}
            else:
                out[pk_attribute] = {'S': pk}
        if self.attribute_shards:
            self.write_attribute_shards(values, table, out)

    def check_key_values(self, values: Iterable[tuple[str, dict[str, Any]]]) -> None:
        """Checks the stored values of attributes that key a multi-attribute GSI: DynamoDB refuses an empty string in a key
        attribute, and a value over the key size limit, even on an item that lacks the index's other attributes."""
        for name, av in values:
            s = av.get('S')
            key = None if s is None else self.keyed_values.get(name)
            if key is None:
                continue
            indexes, limit = key
            if s == '':
                raise SingleTableError('INVALID_VALUE', f"is a key attribute of {', '.join(indexes)}, which cannot hold an empty string (DynamoDB refuses it); "
                                       f"leave the attribute out to keep the item out of {'that index' if len(indexes) == 1 else 'those indexes'}",
                                       entity=self.entity['name'], attribute=name)
            if len(s) * 4 > limit and utf8_length(s) > limit:  # a code point is at most 4 bytes of UTF-8
                raise SingleTableError('KEY_TOO_LARGE', f"is {utf8_length(s)} bytes of UTF-8, and as a key attribute of {', '.join(indexes)} DynamoDB allows {limit}",
                                       entity=self.entity['name'], attribute=name)

    def write_attribute_shards(self, values: Values, table: tuple[str, str], out: dict[str, Any]) -> None:
        """The shard of each sharded multi-attribute GSI the entity populates into ``out``, as its shard attribute's number."""
        for slot in self.attribute_shards:
            out[slot.index['shards']['keyAttribute']] = {'N': str(self._shard(slot, values, table))}

    def slot(self, index_name: str) -> _Slot:
        return next(s for s in self.slots if s.index['name'] == index_name)

    def slot_keys(self, slot: _Slot, values: Values, table: tuple[str, str], out: dict[str, Any],
                  composed: list[str | Absent | Fault] | None = None) -> dict[str, Any] | None:
        """The key attributes of one index slot into ``out``; None (nothing written) when an input is absent. Of a sharded
        multi-attribute GSI, its shard attribute."""
        if slot.index.get('partitionAttributes'):
            out[slot.index['shards']['keyAttribute']] = {'N': str(self._shard(slot, values, table))}
            return out
        pk_value = None
        if slot.pk is not None:
            pk = composed[slot.pk_number] if composed else compose(slot.pk, values, self.model.escape_char)  # type: ignore[index]
            if pk.__class__ is not str:
                return self._absent(slot.keys['pk'], pk)  # type: ignore[arg-type]
            pk_value = pk + self.model.delimiter + str(self._shard(slot, values, table)) if slot.sharded else pk
            if len(pk_value) * 4 > MAX_PARTITION_KEY_BYTES:  # type: ignore[arg-type]
                check_size(self.entity, slot.pk_attribute, pk_value, MAX_PARTITION_KEY_BYTES)  # type: ignore[arg-type]
        sk_value = None
        if slot.sk is not None:
            sk = composed[slot.sk_number] if composed else compose(slot.sk, values, self.model.escape_char)  # type: ignore[index]
            if sk.__class__ is not str:
                return self._absent(slot.keys['sk'], sk)  # type: ignore[arg-type]
            sk_value = sk if len(sk) * 4 <= MAX_SORT_KEY_BYTES else check_size(self.entity, slot.sk_attribute, sk, MAX_SORT_KEY_BYTES)  # type: ignore[arg-type]
        if pk_value is not None:
            out[slot.pk_attribute] = {'S': pk_value}
        if sk_value is not None:
            out[slot.sk_attribute] = {'S': sk_value}
        return out

    def _absent(self, template: dict[str, Any], r: Absent | Fault) -> None:
        if isinstance(r, Fault):
            raise key_error(r, '', f" (key template {template['source']})", entity=self.entity['name'])

    def _shard(self, slot: _Slot, values: Values, table: tuple[str, str]) -> int:
        shards = slot.index['shards']
        if slot.shard_kind is None:
            # shard_for_item's hash, its known parts precomputed.
            h = self.between_table_keys.after(fnv1a(table[0][len(self.table_pk_head):], self.table_pk_seed))
            return mix32(fnv1a(table[1][len(self.table_sk_head):], h)) % shards['writeCount']
        attribute = shards['attribute']
        encoded = encode_value(slot.shard_kind, values.get(attribute), self.model.escape_char)
        if isinstance(encoded, Invalid):
            raise SingleTableError('INVALID_VALUE', f"{encoded.error} (shard attribute of {slot.index['name']})", entity=self.entity['name'], attribute=attribute)
        if encoded is None:
            raise SingleTableError('MISSING_ATTRIBUTE', f"is the shard attribute of {slot.index['name']} and must be given", entity=self.entity['name'], attribute=attribute)
        return shard_for_value(encoded, shards['writeCount'])

    def index_inputs(self, index: dict[str, Any]) -> list[str]:
        """The attributes whose change moves an index slot's keys (the shard attribute included): of a sharded
        multi-attribute GSI, its key attributes too, whose new values put the item in another partition."""
        if 'partitionAttributes' in index:
            return list(dict.fromkeys([a['name'] for a in index['partitionAttributes'] + (index.get('sortAttributes') or [])] + self.index_needs(index)))
        return self.index_needs(index)

    def index_needs(self, index: dict[str, Any]) -> list[str]:
        """The attributes an index slot's keys are computed from, which an update that moves them needs: every input of a
        composed key; of a multi-attribute GSI's shard, only the shard attribute (ATTRIBUTE), as DynamoDB keys the index
        on the stored attributes themselves."""
        shards = index.get('shards')
        shard = shards['attribute'] if shards and shards['strategy'] == 'ATTRIBUTE' else None
        if 'partitionAttributes' in index:
            return [shard] if shard else []
        keys = self.entity['keys'][index['name']]
        names = ([] if index['type'] == 'LSI' else list(keys['pk']['attributes'])) + list(keys.get('sk', {}).get('attributes', []))
        if shard:
            names.append(shard)
        return list(dict.fromkeys(names))


def shard_kind_of(entity: dict[str, Any], index: dict[str, Any]) -> str | None:
    """The kind of an index's shard attribute in the entity when its shards follow an attribute (ATTRIBUTE), else None."""
    shards = index.get('shards')
    return entity['attributes'][shards['attribute']]['type'] if shards and shards['strategy'] == 'ATTRIBUTE' else None


# ---- the key condition of a pattern's query -------------------------------------------------------

class PatternKeys:
    """A pattern's key templates as parts, its sort key's literal floor, and its index facts."""

    def __init__(self, model: KeyModel, pattern: dict[str, Any]) -> None:
        d = model.delimiter
        self.pattern = pattern
        self.index = model.indexes[pattern['index']]
        self.pk = template_parts(pattern['pk'], d)
        self.sk = template_parts(pattern['sk'], d) if pattern.get('sk') else None
        self.floor = '' if self.sk is None else self.sk[0] + d if not self.sk[1] else self.sk[0]
        shards = self.index.get('shards')
        self.shard_suffix = 1 + len(str(shards['readCount'] - 1)) if shards else 0
        self.type_filter = None
        # KEYS_ONLY indexes hold no type attribute: results are told apart by their keys instead.
        if self.index['projection'] != 'KEYS_ONLY' and any(
                pattern['index'] in e['keys'] and e['name'] not in pattern['entities'] for e in model.entities.values()):
            self.type_filter = [model.entities[e]['typeValue'] for e in pattern['entities']]


def _invalid(pattern: dict[str, Any], message: str, attribute: str | None = None) -> SingleTableError:
    return SingleTableError('INVALID_QUERY_INPUT', message, pattern=pattern['name'], attribute=attribute)


def check_input(pattern: dict[str, Any], values: Any) -> None:
    if values.__class__ is not dict and not isinstance(values, Mapping):
        raise _invalid(pattern, 'the input ' + must_be('a dict', values))
    condition = pattern['sortKeyCondition']
    sk = pattern.get('sk')
    for name in values:
        used = name in pattern['pk']['attributes'] or (
            condition == 'BETWEEN' if name == 'between' else condition not in ('NONE', 'BETWEEN') and sk is not None and name in sk['attributes'])
        if not used:
            where = f", sort key {sk['source']}, condition {condition}" if sk else ''
            raise _invalid(pattern, f"input '{name}' is not used by this pattern (partition key {pattern['pk']['source']}{where})", name)


def _above(prefix: str) -> str:
    """The smallest string above every key that starts with ``prefix`` (which ends with the delimiter)."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)


def _range(pk: str, lo: str | None, hi: str | None) -> dict[str, Any]:
    if lo and hi:
        return {'pk': pk, 'sk': {'expression': '#sk BETWEEN :lo AND :hi', 'lo': lo, 'hi': hi}}
    if lo:
        return {'pk': pk, 'sk': {'expression': '#sk >= :lo', 'lo': lo}}
    if hi:
        return {'pk': pk, 'sk': {'expression': '#sk <= :hi', 'hi': hi}}
    return {'pk': pk}


def _group(prefix: str, complete: bool, coverage: str | None, delimiter: str) -> tuple[str, str, bool]:
    """The stored sort keys a composed prefix stands for, as inclusive bounds (lo, hi, exact)."""
    if not complete:
        return prefix, _above(prefix), False
    if coverage is None or coverage == 'KEY':
        return prefix, prefix, True
    below = prefix + delimiter
    return (below if coverage == 'BELOW' else prefix), _above(below), False


def _group_condition(pk: str, group: tuple[str, str, bool]) -> dict[str, Any]:
    lo, hi, exact = group
    if exact:
        return {'pk': pk, 'sk': {'expression': '#sk = :lo', 'lo': lo}}
    if hi == _above(lo):
        return {'pk': pk, 'sk': {'expression': 'begins_with(#sk, :lo)', 'lo': lo}}
    return _range(pk, lo, hi)


def _prefix_of(model: KeyModel, pattern: dict[str, Any], keys: PatternKeys, values: Any, is_input: bool = False) -> tuple[str, bool, list[str]]:
    sk = pattern['sk']
    if values.__class__ is not dict and not isinstance(values, Mapping):
        raise _invalid(pattern, 'a sort-key bound ' + must_be('a dict', values))
    p = compose_prefix(keys.sk, values, model.escape_char)  # type: ignore[arg-type]
    if isinstance(p, Fault):
        raise key_error(p, '', pattern=pattern['name'])
    for name in values:
        if is_input and name in pattern['pk']['attributes'] and name not in sk['attributes']:
            continue
        if name not in sk['attributes']:
            raise _invalid(pattern, f"'{name}' is not in the sort key {sk['source']}", name)
        if values[name] is not None and name not in p[2]:
            raise _invalid(pattern, f"'{name}' is given but an attribute before it in {sk['source']} is not; a prefix uses leading attributes only", name)
    return p


def _bound_text(values: Any, used: list[str]) -> str:
    return '(open)' if not used else '(' + ', '.join(f'{n}: {values[n]!r}' for n in used) + ')'


def key_condition(model: KeyModel, keys: PatternKeys, values: Any) -> dict[str, Any]:
    """The partition key value and sort-key condition of one query, as the Node.js runtime's KeyCondition (same fields, same order)."""
    pattern = keys.pattern
    check_input(pattern, values)
    condition = pattern['sortKeyCondition']
    esc = model.escape_char
    pk = compose(keys.pk, values, esc)
    if pk.__class__ is not str:
        raise key_error(pk, f"is needed for the partition key {pattern['pk']['source']}", pattern=pattern['name'])  # type: ignore[arg-type]
    if condition == 'NONE' or keys.sk is None:
        return {'pk': pk}
    sk = pattern['sk']
    floor = keys.floor
    coverage = pattern.get('skCoverage')
    d = model.delimiter
    if condition == 'EQUALS':
        full = compose(keys.sk, values, esc)
        if full.__class__ is not str:
            raise key_error(full, f"is needed for the sort key {sk['source']}", pattern=pattern['name'])  # type: ignore[arg-type]
        return _group_condition(pk, _group(full, True, coverage, d))  # type: ignore[arg-type]
    if condition == 'BEGINS_WITH':
        prefix, complete, _ = _prefix_of(model, pattern, keys, values, True)
        return _group_condition(pk, _group(prefix, complete, coverage, d)) if prefix else {'pk': pk}
    ceiling = floor and _above(floor)
    if condition == 'BETWEEN':
        between = values.get('between')
        if not isinstance(between, (list, tuple)) or len(between) != 2:
            raise _invalid(pattern, 'BETWEEN needs `between: [low, high]`, each with leading sort-key attributes (an empty dict leaves that side open)')
        low = _prefix_of(model, pattern, keys, between[0] if between[0] is not None else {})
        high = _prefix_of(model, pattern, keys, between[1] if between[1] is not None else {})
        lo = _group(low[0], low[1], coverage, d)[0] if low[0] else floor
        hi = _group(high[0], high[1], coverage, d)[1] if high[0] else ceiling
        if lo and hi and lo > hi:
            raise _invalid(pattern, f"the low bound {_bound_text(between[0], low[2])} is above the high bound {_bound_text(between[1], high[2])} "
                                    f"in {sk['source']}; swap the bounds")
        return _range(pk, lo, hi)
    prefix, complete, used = _prefix_of(model, pattern, keys, values, True)
    if not used:
        if not complete:
            return _range(pk, floor, ceiling)
        g = _group(prefix, complete, coverage, d)
        return _range(pk, g[0], g[1])
    lo, hi, exact = _group(prefix, complete, coverage, d)
    if condition == 'GREATER_THAN_OR_EQUAL':
        return _range(pk, lo, ceiling)
    if condition == 'GREATER_THAN':
        return _range(pk, lo + '\u0000' if exact else hi, ceiling)
    if condition == 'LESS_THAN_OR_EQUAL':
        return _range(pk, floor, hi)
    if floor:
        return {**_range(pk, floor, lo), 'excludeEqual': lo}
    return {'pk': pk, 'sk': {'expression': '#sk < :hi', 'hi': lo}}


def check_key_sizes(keys: PatternKeys, condition: dict[str, Any]) -> None:
    index = keys.index
    check_size(keys.pattern['name'], index['partitionKey'], condition['pk'], MAX_PARTITION_KEY_BYTES, keys.shard_suffix)
    sk = condition.get('sk')
    for bound in (sk.get('lo'), sk.get('hi')) if sk else ():
        if bound is not None:
            check_size(keys.pattern['name'], index['sortKey'], bound, MAX_SORT_KEY_BYTES, 0)
