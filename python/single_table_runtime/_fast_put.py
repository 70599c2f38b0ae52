"""A put's stored item, compiled per entity into one Python function (the common case only).

``EntityKeys`` and ``item_attributes`` check and compose any item through loops over the entity's
compiled facts. For an entity whose every key input is a plain value, this module writes those
loops out once as straight-line code: each attribute's check inlined for its kind, each key
segment encoded once, each distinct template one concatenation, each index slot its own branch.
It takes only the ordinary case: any value it does not take as is (a string that needs escaping,
a number past 2**53 or a Decimal, an absent required attribute, an unknown or None attribute, a
key too long) makes it return None, and the general path then builds the item or raises its error,
so requests and errors stay those of the general path, which the conformance corpus holds to the
Node.js runtime's.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ._encoding import _escapable, encode_number, normalize_date
from ._errors import SingleTableError
from ._shard import fnv1a, mix32
from ._values import js_number_text

if TYPE_CHECKING:
    from ._keys import EntityKeys

FastWrite = Callable[[Any], 'dict[str, Any] | None']


def _attribute_shard(keys: EntityKeys) -> Callable[..., 'int | None']:
    """The shard an ATTRIBUTE slot's attribute gives, or None when it gives none (absent, empty, not encodable): the general path's error."""
    def attribute_shard(slot: Any, item: Any, table: tuple[str, str]) -> int | None:
        try:
            return keys._shard(slot, item, table)
        except SingleTableError:
            return None
    return attribute_shard


def compile_fast_write(keys: EntityKeys) -> FastWrite | None:
    """The entity's straight-line item builder, or None when its keys need the general path."""
    model = keys.model
    entity = keys.entity
    if entity.get('version') is not None or entity.get('timestamps') or entity.get('unique'):
        return None
    if any('pk' not in k and name != 'table' for name, k in entity['keys'].items()):
        return None  # an index keyed on the items' own attributes: the general path
    key_names = {name for _, attributes in keys.templates for name, _ in attributes}
    kinds = {name: a['type'] for name, a in entity['attributes'].items()}
    if any(kinds.get(name) not in ('STRING', 'NUMBER', 'DATE', 'BOOLEAN') for name in key_names):
        return None
    env: dict[str, Any] = {'search': _escapable(model.escape_char).search, 'encode_number': encode_number, 'js_number_text': js_number_text,
                           'normalize_date': normalize_date, 'shard': keys._shard, 'fnv1a': fnv1a, 'mix32': mix32,
                           'between': keys.between_table_keys.after, 'Slots': [slot for slot, *_ in keys.slot_plan],
                           'AttributeShards': keys.attribute_shards, 'attribute_shard': _attribute_shard(keys)}
    lines = ['def fast_write(item):', '    if item.__class__ is not dict:', '        return None', '    get = item.get', '    out = {}']
    segment = {}
    for i, (name, kind, check, required) in enumerate(keys.attribute_checks):
        v = f'v{i}'
        n = repr(name)
        keyed = name in key_names
        if keyed:
            segment[name] = f's{i}'
        lines.append(f'    {v} = get({n})')
        lines.append(f'    if {v} is None:')
        lines.append('        return None' if required else (f'        s{i} = None' if keyed else '        pass'))
        lines.append('    else:')
        body: list[str] = []
        if kind == 'STRING':
            body += [f'if {v}.__class__ is not str:', '    return None', f"out[{n}] = {{'S': {v}}}"]
            if name in keys.keyed_values:
                # A multi-attribute GSI's key attribute: empty, or perhaps too long, is the general path's to refuse.
                body += [f"if {v} == '' or len({v}) * 4 > {keys.keyed_values[name][1]}:", '    return None']
            if keyed:
                body += [f"if {v} == '':", f'    s{i} = None', f'elif search({v}) is not None:', '    return None', 'else:', f'    s{i} = {v}']
        elif kind == 'NUMBER':
            body += [f'c = {v}.__class__',
                     f'if c is int and -9007199254740992 <= {v} <= 9007199254740992:', f"    out[{n}] = {{'N': str({v})}}",
                     f'elif c is float and ({v} == 0 or 1e-130 <= abs({v}) < 1e126):', f"    out[{n}] = {{'N': js_number_text({v})}}",
                     'else:', '    return None']
            if keyed:
                body += [f's{i} = encode_number({v})']
        elif kind == 'DATE':
            body += [f'iso = normalize_date({v})', 'if iso is None:', '    return None', f"out[{n}] = {{'S': iso}}"]
            if keyed:
                body += [f's{i} = iso']
        elif kind == 'BOOLEAN':
            body += [f'if {v} is True:', f"    out[{n}] = {{'BOOL': True}}"] + ([f"    s{i} = 'true'"] if keyed else []) + \
                    [f'elif {v} is False:', f"    out[{n}] = {{'BOOL': False}}"] + ([f'    s{i} = None'] if keyed else []) + \
                    ['else:', '    return None']
        else:
            env[f'check{i}'] = check
            body += [f'av = check{i}({v})', 'if av is None:', '    return None', f'out[{n}] = av']
        lines += ['        ' + b for b in body]
    lines += ['    if len(out) != len(item):', '        return None']
    for j, (head, attributes) in enumerate(keys.templates):
        if not attributes:
            lines.append(f'    k{j} = {head!r}')
            continue
        parts = ' + '.join([repr(head)] + [f'{segment[name]} + {tail!r}' if tail else segment[name] for name, tail in attributes])
        present = ' and '.join(f'{segment[name]} is not None' for name, _ in attributes)
        lines.append(f'    k{j} = {parts} if {present} else None')
    pk, sk = (f'k{n}' for n in keys.table_numbers)
    lines += [f'    if {pk} is None or {sk} is None or len({pk}) > 512 or len({sk}) > 256:', '        return None',
              f"    out[{keys.pk_name!r}] = {{'S': {pk}}}", f"    out[{keys.sk_name!r}] = {{'S': {sk}}}", f'    table = ({pk}, {sk})']
    delimiter = model.delimiter
    for s, (slot, pk_number, sk_number, pk_attribute, sk_attribute, sharded) in enumerate(keys.slot_plan):
        # The general path's order: the partition key (and its shard) first, then the sort key; an absent one skips the slot.
        inner: list[str] = []
        if pk_number is not None:
            inner += [f'p = k{pk_number}']
            if sharded and slot.shard_kind is None:
                # RANDOM: the table key's hash (keys._shard's, its known parts precomputed), inlined.
                inner += [f'p = p + {delimiter!r} + str(mix32(fnv1a({sk}[{len(keys.table_sk_head)}:], '
                          f'between(fnv1a({pk}[{len(keys.table_pk_head)}:], {keys.table_pk_seed})))) % {slot.index["shards"]["writeCount"]})']
            elif sharded:
                inner += [f'p = p + {delimiter!r} + str(shard(Slots[{s}], item, table))']
            inner += ['if len(p) > 512:', '    return None']
        if sk_number is not None:
            inner += [f'q = k{sk_number}', 'if len(q) > 256:', '    return None']
            if pk_number is not None:
                inner += [f"out[{pk_attribute!r}] = {{'S': p}}"]
            inner += [f"out[{sk_attribute!r}] = {{'S': q}}"]
        else:
            inner += [f"out[{pk_attribute!r}] = {{'S': p}}"]
        if pk_number is not None and sk_number is not None:
            lines.append(f'    if k{pk_number} is not None:')
            split = inner.index(f'q = k{sk_number}')
            lines += ['        ' + x for x in inner[:split]]
            lines.append(f'        if k{sk_number} is not None:')
            lines += ['            ' + x for x in inner[split:]]
        else:
            number = pk_number if pk_number is not None else sk_number
            lines.append(f'    if k{number} is not None:')
            lines += ['        ' + x for x in inner]
    for s, slot in enumerate(keys.attribute_shards):
        # A sharded multi-attribute GSI: the shard as a number of its own (RANDOM inlined as above).
        shards = slot.index['shards']
        if slot.shard_kind is None:
            lines.append(f"    out[{shards['keyAttribute']!r}] = {{'N': str(mix32(fnv1a({sk}[{len(keys.table_sk_head)}:], "
                         f"between(fnv1a({pk}[{len(keys.table_pk_head)}:], {keys.table_pk_seed})))) % {shards['writeCount']})}}")
        else:
            lines += [f'    n = attribute_shard(AttributeShards[{s}], item, table)', '    if n is None:', '        return None',
                      f"    out[{shards['keyAttribute']!r}] = {{'N': str(n)}}"]
    lines.append(f"    out[{model.type_attribute!r}] = {{'S': {entity['typeValue']!r}}}")
    lines.append('    return out')
    exec(compile('\n'.join(lines), f'<single-table put of {entity["name"]}>', 'exec'), env)  # noqa: S102 - code made from the model's own names, each repr()'d
    return env['fast_write']  # type: ignore[no-any-return]
