"""UpdateItem (lib/runtime/items/update.ts): the index keys an update moves are recomputed, which needs
every input of the slot; removing an input (or setting it to '' or False) takes the item out of the
index. A partial change fails naming every missing input (PARTIAL_INDEX_UPDATE), unless
``read_missing`` reads them and updates on the condition that they are unchanged. A versioned
entity's update states the version it read; timestamps move updatedAt."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ._errors import SingleTableError
from ._items import ConditionFailedError, _existence, _version_condition, expected_version, now_iso
from ._values import attribute_of, checked_value, from_attribute_value, number_text, storable_number

if TYPE_CHECKING:
    from ._context import TableContext

OPERATOR_KINDS: dict[str, tuple[str, ...] | None] = {
    'add': ('NUMBER', 'STRING_SET', 'NUMBER_SET'),
    'append': ('LIST',),
    'prepend': ('LIST',),
    'delete_from_set': ('STRING_SET', 'NUMBER_SET'),
    'set_if_missing': None,
}
READ_MISSING_ATTEMPTS = 3


class _Changes:
    def __init__(self, table: TableContext, entity_name: str, given: Mapping[str, Any], remove: list[str], operators: Mapping[str, Any]) -> None:
        model = table.model
        entity = model.entity(entity_name)
        keys = model.entity_keys(entity_name)
        self.table = table
        self.entity = entity
        self.keys = keys
        key_names = set(keys.table_names)
        version, timestamps = entity.get('version'), entity.get('timestamps')
        owned = [n for n in (version, timestamps and timestamps['updatedAt']) if n]
        values = dict(given)
        self.versioned = None
        if version is not None:
            expected = expected_version(entity, given.get(version))
            if expected is None:
                raise SingleTableError('MISSING_ATTRIBUTE', 'is the version: an update of a versioned item gives the version it read',
                                       entity=entity_name, attribute=version)
            values[version] = expected + 1
            self.versioned = _version_condition(table, version, expected)
        if timestamps:
            values[timestamps['updatedAt']] = now_iso()
        self.values = values
        self.set: list[tuple[str, dict[str, Any]]] = []
        changed: set[str] = set()
        for name, value in values.items():
            if value is None:
                continue
            av = checked_value(entity_name, name, attribute_of(entity, name)['type'], value)
            if name in key_names:
                continue
            self.set.append((name, av))
            changed.add(name)
        self.removed: list[str] = []
        for name in remove:
            attr = attribute_of(entity, name)
            if name in key_names or attr['required']:
                raise SingleTableError('INVALID_VALUE', f"cannot be removed: it is {'part of the table key' if name in key_names else 'required'}",
                                       entity=entity_name, attribute=name)
            if name in changed:
                raise SingleTableError('INVALID_VALUE', 'is both set and removed', entity=entity_name, attribute=name)
            self.removed.append(name)
            changed.add(name)
        self.operations: list[tuple[str, str, dict[str, Any]]] = []
        for op, kinds in OPERATOR_KINDS.items():
            for name, value in (operators.get(op) or {}).items():
                if value is None:
                    continue
                attr = attribute_of(entity, name)
                where = {'entity': entity_name, 'attribute': name}
                if kinds and attr['type'] not in kinds:
                    raise SingleTableError('INVALID_VALUE', f"{op} applies to {', '.join(kinds)} attributes; {name} is {attr['type']}", **where)
                if name in key_names:
                    raise SingleTableError('INVALID_VALUE', f'is part of the table key, which identifies the item: {op} cannot change it', **where)
                if name in owned:
                    raise SingleTableError('INVALID_VALUE', f'is maintained by the runtime: {op} cannot change it', **where)
                for slot in keys.index_slots:
                    if name in keys.index_needs(slot.index):
                        raise SingleTableError('PARTIAL_INDEX_UPDATE', f"is part of index {slot.index['name']}'s key, and {op} leaves its new value to DynamoDB, "
                                               f'so the index key cannot be computed; set {name} to its new value instead (read the item first, '
                                               'or let the update read the other inputs with read_missing=True)', **where)
                if name in changed:
                    raise SingleTableError('INVALID_VALUE', f'is changed twice in one update ({op} and another change)', **where)
                changed.add(name)
                av = ({'N': number_text(value)} if op == 'add' and attr['type'] == 'NUMBER' and storable_number(value)
                      else checked_value(entity_name, name, attr['type'], value))
                self.operations.append((op, name, av))
        for name in keys.table_names:
            if values.get(name) is None:
                raise SingleTableError('MISSING_ATTRIBUTE', 'is part of the table key and identifies the item to update', entity=entity_name, attribute=name)
        self.changed = changed
        self.missing: dict[str, list[str]] = {}
        for slot in keys.index_slots:
            inputs = keys.index_inputs(slot.index)
            if not any(n in changed for n in inputs):
                continue
            if any(n in self.removed or values.get(n) == '' or values.get(n) is False for n in inputs):
                continue
            lacking = [n for n in keys.index_needs(slot.index) if values.get(n) is None and n not in key_names]
            if lacking:
                self.missing[slot.index['name']] = lacking

    @property
    def lacking(self) -> list[str]:
        return list(dict.fromkeys(n for names in self.missing.values() for n in names))

    def to_pass(self) -> list[str]:
        """Every attribute the update must pass for none to be lacking: passed, an attribute moves its own indexes' keys too."""
        key_names = set(self.keys.table_names)
        passed = dict.fromkeys(self.lacking)
        grew = True
        while grew:
            grew = False
            for slot in self.keys.index_slots:
                inputs = self.keys.index_inputs(slot.index)
                if not any(n in passed for n in inputs) or any(n in self.removed or self.values.get(n) == '' or self.values.get(n) is False for n in inputs):
                    continue
                for n in self.keys.index_needs(slot.index):
                    if self.values.get(n) is None and n not in key_names and n not in passed:
                        passed[n] = None
                        grew = True
        return list(passed)

    def partial_index_update(self, prefix: str, alternatives: str) -> SingleTableError:
        """The error of an update that lacks index inputs: every attribute to pass at once, and the update that would work."""
        given = [n for n in self.changed if any(n in self.keys.index_inputs(self.table.model.indexes[slot]) for slot in self.missing)]
        def moved(slot: str) -> str:  # a multi-attribute GSI's key moves with the item's attributes; the update computes its shard
            return slot + ("'s shard" if self.table.model.indexes[slot].get('partitionAttributes') else '')
        per = '; '.join(f"{moved(slot)}: {', '.join(names)}" for slot, names in self.missing.items())
        to_pass = self.to_pass()
        fields = list(dict.fromkeys([*self.keys.table_names, *(n for n, v in self.values.items() if v is not None), *to_pass]))
        return SingleTableError('PARTIAL_INDEX_UPDATE', f"{prefix}changes {', '.join(given)} but not {', '.join(self.lacking)}, which the index keys it moves "
                                f"are also composed from ({per}); pass {', '.join(to_pass)} too, with their current values: {{ {', '.join(fields)} }}{alternatives}",
                                entity=self.entity['name'], attribute=to_pass[0])


def build_update(table: TableContext, entity_name: str, changes: Mapping[str, Any], remove: list[str] | tuple[str, ...] = (),
                 operators: Mapping[str, Any] | None = None, condition: Any = None, stored: dict[str, Any] | None = None) -> dict[str, Any]:
    c = _Changes(table, entity_name, changes, list(remove), operators or {})
    entity, keys = c.entity, c.keys
    lacking = c.lacking
    if lacking and stored is None:
        raise c.partial_index_update('', "; or let the update read them with read_missing=True, or write the whole item with put(..., mode='replace')")
    if keys.keyed_values:
        keys.check_key_values(c.set)
    names: dict[str, str] = {}
    values: dict[str, Any] = {}
    sets: list[str] = []
    removes: list[str] = []
    adds: list[str] = []
    deletes: list[str] = []

    def name_ref(name: str) -> str:
        ref = f'#a{len(names)}'
        names[ref] = name
        return ref

    def set_attr(name: str, av: dict[str, Any]) -> None:
        ref = f':v{len(sets)}'
        values[ref] = av
        sets.append(f'{name_ref(name)} = {ref}')

    for name, av in c.set:
        set_attr(name, av)
    for name in c.removed:
        removes.append(name_ref(name))
    for i, (op, name, av) in enumerate(c.operations):
        ref = f':o{i}'
        values[ref] = av
        attr = name_ref(name)
        if op == 'add':
            adds.append(f'{attr} {ref}')
        elif op == 'delete_from_set':
            deletes.append(f'{attr} {ref}')
        elif op == 'set_if_missing':
            sets.append(f'{attr} = if_not_exists({attr}, {ref})')
        else:
            values[':empty'] = {'L': []}
            sets.append(f'{attr} = list_append(if_not_exists({attr}, :empty), {ref})' if op == 'append'
                        else f'{attr} = list_append({ref}, if_not_exists({attr}, :empty))')
    known = dict(c.values)
    unchanged: list[str] = []
    for name in lacking:
        av = stored.get(name) if stored else None
        if av is None:
            unchanged.append(f'attribute_not_exists({name_ref(name)})')
            continue
        known[name] = from_attribute_value(av)
        ref = f':r{len(unchanged)}'
        values[ref] = av
        unchanged.append(f'{name_ref(name)} = {ref}')
    table_key = keys.table_key(changes)
    for slot in keys.index_slots:
        index = slot.index
        inputs = keys.index_inputs(index)
        if not any(n in c.changed for n in inputs):
            continue
        # A multi-attribute GSI's key attribute removed: DynamoDB takes the item out of the index; its shard may stay.
        if index.get('partitionAttributes') and any(n in c.removed for n in inputs):
            continue
        index_keys = keys.slot_keys(slot, known, table_key, {})
        if index_keys:
            for attr, av in index_keys.items():
                set_attr(attr, av)
        else:
            if index['type'] != 'LSI':
                removes.append(name_ref(index['partitionKey']))
            if index.get('sortKey'):
                removes.append(name_ref(index['sortKey']))
    if not (sets or removes or adds or deletes):
        raise SingleTableError('INVALID_VALUE', 'the update sets and removes nothing', entity=entity['name'])
    existence = c.versioned or _existence(table, True)
    names.update(existence['ExpressionAttributeNames'])
    values.update(existence.get('ExpressionAttributeValues', {}))
    clauses = [('SET', sets), ('REMOVE', removes), ('ADD', adds), ('DELETE', deletes)]
    index = table.model.table_index
    request: dict[str, Any] = {
        'TableName': table.table_name,
        'Key': {index['partitionKey']: {'S': table_key[0]}, index['sortKey']: {'S': table_key[1]}},
        'UpdateExpression': ' '.join(f"{verb} {', '.join(parts)}" for verb, parts in clauses if parts),
        'ConditionExpression': ' AND '.join([existence['ConditionExpression'], *unchanged]),
        'ExpressionAttributeNames': names,
        'ReturnValues': 'ALL_NEW',
    }
    if values:
        request['ExpressionAttributeValues'] = values
    if c.versioned or condition is not None:
        request['ReturnValuesOnConditionCheckFailure'] = 'ALL_OLD'
    if condition is not None:
        from ._conditions import add_condition
        add_condition(table, request, entity, condition)
    return request


def update_item(table: TableContext, entity_name: str, changes: Mapping[str, Any], remove: list[str] | tuple[str, ...], operators: Mapping[str, Any],
                condition: Any, read_missing: bool) -> dict[str, Any]:
    from ._items import send_write
    from ._values import from_item

    def send(request: dict[str, Any]) -> dict[str, Any]:
        out = send_write(table, entity_name, 'update_item', request, changes, condition)
        return from_item(out.get('Attributes', {}), table.model.strip)

    lacking = _Changes(table, entity_name, changes, list(remove), operators).lacking if read_missing else []
    if not lacking:
        return send(build_update(table, entity_name, changes, remove, operators, condition))
    keys = table.model.entity_keys(entity_name)
    get = {'TableName': table.table_name, 'Key': keys.key_item(changes), 'ConsistentRead': True,
           'ProjectionExpression': ', '.join(f'#m{i}' for i in range(len(lacking))),
           'ExpressionAttributeNames': {f'#m{i}': n for i, n in enumerate(lacking)}}
    attempt = 1
    while True:
        stored = table.client.get_item(**get).get('Item')
        if stored is None:
            raise SingleTableError('CONDITION_FAILED', 'there is no item with this key', entity=entity_name)
        try:
            return send(build_update(table, entity_name, changes, remove, operators, condition, stored))
        except ConditionFailedError as error:
            now = error.item
            if now is not None and all(now.get(n) == (from_attribute_value(stored[n]) if n in stored else None) for n in lacking):
                raise
            if attempt >= READ_MISSING_ATTEMPTS:
                raise SingleTableError('CONDITION_FAILED', f"{', '.join(lacking)} changed between each read and update, {attempt} times; "
                                       'try again later, or pass them', entity=entity_name) from error
        attempt += 1

