"""Access-pattern queries (lib/runtime/query/: plan.ts, query.ts): pattern + input + options ->
key condition, index, order, consistency, then one partition's Query, or on a write-sharded GSI one
query per shard merged in order; KEYS_ONLY entries hydrated with BatchGetItem in the query's order.
Everything wrong with the input fails before any network call."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._attribute_keys import attribute_key_condition, attribute_key_expression
from ._cursor import decode_cursor, encode_cursor, query_binding
from ._encoding import Invalid, encode_value, must_be
from ._errors import SingleTableError
from ._fanout import fan_out_query
from ._keys import PatternKeys, check_key_sizes, key_condition
from ._pages import Page
from ._query_plan import Plan
from ._results import to_results
from ._send import batch_get_items, key_id, with_retry
from ._shard import shard_for_value, sharded_key

if TYPE_CHECKING:
    from ._context import TableContext


def read_options(pattern: dict[str, Any], index: dict[str, Any], limit: Any, order: Any, consistent: Any) -> tuple[bool, bool]:
    """Checks a query's options; returns (descending, consistent)."""
    strong = pattern['consistentRead'] if consistent is None else consistent
    if strong and index['type'] == 'GSI':
        raise SingleTableError('CONSISTENT_READ_ON_GSI', f"queries GSI {index['name']}, which is only eventually consistent; "
                               'drop `consistent`, or query the table or an LSI', pattern=pattern['name'])
    if limit is not None and not (isinstance(limit, int) and not isinstance(limit, bool) and limit > 0):
        raise SingleTableError('INVALID_QUERY_INPUT', 'limit ' + must_be('a positive whole number', limit), pattern=pattern['name'])
    if order is not None and order not in ('asc', 'desc'):
        raise SingleTableError('INVALID_QUERY_INPUT', 'order ' + must_be("'asc' or 'desc'", order), pattern=pattern['name'])
    return (order == 'desc') if order else pattern['order'] == 'DESCENDING', bool(strong)


_UNCOMPILED: Any = object()


def plan_query(table: TableContext, pattern_name: str, values: Any, limit: Any = None, order: Any = None, consistent: Any = None) -> Plan:
    if order is None and consistent is None:
        # The pattern's most common inputs, planned by its compiled plan (_fast_query); anything else below.
        fast = table.fast_plans.get(pattern_name, _UNCOMPILED) if pattern_name.__class__ is str else None
        if fast is _UNCOMPILED:
            fast = _compile_fast_plan(table, pattern_name)
        if fast is not None:
            plan = fast(values, limit)
            if plan is not None:
                return plan
    model = table.model
    keys = model.pattern_keys(pattern_name)
    descending, strong = read_options(keys.pattern, keys.index, limit, order, consistent)
    if getattr(keys, 'attribute_keyed', False):
        condition = attribute_key_condition(keys, values)  # type: ignore[arg-type]
    else:
        condition = key_condition(model, keys, values)
        check_key_sizes(keys, condition)
    return Plan(keys, condition, descending, strong, limit, keys.pattern['fetch'])


def _compile_fast_plan(table: TableContext, pattern_name: str) -> Any:
    if pattern_name not in table.model.patterns:
        return None
    from ._fast_query import compile_fast_plan
    try:
        keys = table.model.pattern_keys(pattern_name)
    except SingleTableError:
        fast = None  # a pattern this runtime does not plan: the general path says why
    else:
        fast = compile_fast_plan(table.model, keys)
    table.fast_plans[pattern_name] = fast
    return fast


def build_query_input(table: TableContext, plan: Plan, partition_key: str, start: dict[str, Any] | None = None,
                      limit: int | None = None) -> dict[str, Any]:
    keys = plan.keys
    shell = table.query_shells.get(keys)
    if shell is None:
        shell = table.query_shells[keys] = _query_shell(table, keys)
    index_name, pk_names, sk_names, type_values, type_filter, expressions = shell
    condition = plan.condition
    sk = condition.get('sk')
    if 'attributes' in condition:
        # A multi-attribute GSI: the condition compares the items' own attributes.
        names = {'#type': table.model.type_attribute} if type_filter else {}
        values: dict[str, Any] = {}
        expression = attribute_key_expression(condition['attributes'], names, values)
        shards = keys.index.get('shards')
        if shards:
            # Sharded: the partition key ends with the shard attribute; each shard's query gives its number as :shard.
            names['#shard'] = shards['keyAttribute']
            values[':shard'] = {'N': '0'}
            expression += ' AND #shard = :shard'
    elif sk:
        names = sk_names.copy()
        expression = expressions.get(sk['expression'])
        if expression is None:
            expression = expressions[sk['expression']] = '#pk = :pk AND ' + sk['expression']
        values = {':pk': {'S': partition_key}, ':lo': {'S': sk['lo']}} if 'lo' in sk else {':pk': {'S': partition_key}}
        if 'hi' in sk:
            values[':hi'] = {'S': sk['hi']}
    else:
        names = pk_names.copy()
        expression = '#pk = :pk'
        values = {':pk': {'S': partition_key}}
    if type_filter:
        values.update(type_values)
    request: dict[str, Any] = {'TableName': table.table_name, 'IndexName': index_name, 'KeyConditionExpression': expression,
                               'ExpressionAttributeNames': names, 'ExpressionAttributeValues': values,
                               'ScanIndexForward': not plan.descending} if index_name else {
        'TableName': table.table_name, 'KeyConditionExpression': expression, 'ExpressionAttributeNames': names,
        'ExpressionAttributeValues': values, 'ScanIndexForward': not plan.descending}
    if plan.consistent:
        request['ConsistentRead'] = True
    limit = plan.limit if limit is None else limit
    if limit is not None:
        request['Limit'] = limit
    if start:
        request['ExclusiveStartKey'] = start
    if plan.fetch == 'LSI_FETCH' and plan.projection is None:
        request['Select'] = 'ALL_ATTRIBUTES'
    if type_filter:
        request['FilterExpression'] = type_filter
    if plan.projection is not None or plan.filter is not None:
        from ._conditions import finish_read
        finish_read(table, request, plan)
    return request


def _query_shell(table: TableContext, keys: PatternKeys) -> tuple[str | None, dict[str, str], dict[str, str], dict[str, Any], str | None, dict[str, str]]:
    """What every Query of a pattern shares: its index name (none for the table), the attribute names without and with
    a sort-key condition (the type attribute's after them when results are filtered by type), the type filter, and
    the key condition expressions made so far."""
    index = keys.index
    type_values = {f':t{i}': {'S': t} for i, t in enumerate(keys.type_filter or ())}
    type_filter = f"#type IN ({', '.join(type_values)})" if keys.type_filter else None
    typed = {'#type': table.model.type_attribute} if type_filter else {}
    return (index['name'] if index['type'] != 'TABLE' else None, {'#pk': index['partitionKey'], **typed},
            {'#pk': index['partitionKey'], '#sk': index.get('sortKey'), **typed}, type_values, type_filter, {})


def shards_to_query(table: TableContext, plan: Plan, values: Any) -> list[int]:
    """Shard numbers a query on a sharded index reads: the pinned value's shards under every count, else all."""
    index = plan.keys.index
    shards = index['shards']
    every = list(range(shards['readCount']))
    if not shards['pinnedReads']:
        return every
    pattern = plan.keys.pattern
    attribute = shards['attribute']
    value = None
    if 'pk' not in pattern:
        # A multi-attribute GSI: a partition attribute is always compared by equality, a sort attribute by an EQUALS pattern.
        if any(a['name'] == attribute for a in index['partitionAttributes']) or (
                pattern['sortKeyCondition'] == 'EQUALS' and any(a['name'] == attribute for a in index.get('sortAttributes') or ())):
            value = values.get(attribute)
    elif attribute in pattern['pk']['attributes'] or (
            pattern['sortKeyCondition'] in ('EQUALS', 'BEGINS_WITH') and pattern.get('sk') and attribute in pattern['sk']['attributes']):
        value = values.get(attribute)
    if value is None:
        return every
    chosen: set[int] = set()
    for entity in pattern['entities']:
        encoded = encode_value(table.model.entities[entity]['attributes'][attribute]['type'], value, table.model.escape_char)
        if encoded is None or isinstance(encoded, Invalid):
            return every
        chosen.update(shard_for_value(encoded, count) for count in shards['counts'])
    return sorted(chosen) if chosen else every


def _send_query(table: TableContext, request: dict[str, Any]) -> dict[str, Any]:
    return with_retry(table.retry, lambda: table.client.query(**request))


def read_index(table: TableContext, plan: Plan, values: Any, position: Any) -> tuple[list[dict[str, Any]], Any]:
    """One page of index entries and where the next starts: one partition, or every shard a sharded pattern's input can be on."""
    index = plan.keys.index
    if not index.get('shards'):
        out = _send_query(table, build_query_input(table, plan, plan.condition['pk'], position))
        return out.get('Items', []), out.get('LastEvaluatedKey')
    model = table.model
    table_index = model.table_index
    base = build_query_input(table, plan, plan.condition['pk'])
    if 'attributes' in plan.condition:
        return _read_attribute_shards(table, plan, values, position, base)

    def partition_of(shard: int) -> str:
        return sharded_key(plan.condition['pk'], shard, model.delimiter)

    def fetch(shard: int, start: dict[str, Any] | None, limit: int) -> dict[str, Any]:
        request = {**base, 'ExpressionAttributeValues': {**base['ExpressionAttributeValues'], ':pk': {'S': partition_of(shard)}}, 'Limit': limit}
        if start:
            request['ExclusiveStartKey'] = start
        return _send_query(table, request)

    return fan_out_query(fetch, table.executor, shards=shards_to_query(table, plan, values), limit=plan.limit or 100,
                         descending=plan.descending, sort_keys=[index.get('sortKey') or table_index['partitionKey']],
                         sorted_index=index.get('sortKey') is not None, tie_break_keys=[table_index['partitionKey'], table_index['sortKey']],
                         partition_key=lambda shard: {index['partitionKey']: {'S': partition_of(shard)}}, concurrency=table.shard_concurrency,
                         state=position, pattern=plan.keys.pattern['name'])


def _read_attribute_shards(table: TableContext, plan: Plan, values: Any, position: Any, base: dict[str, Any]) -> tuple[list[dict[str, Any]], Any]:
    """The fan-out of a sharded multi-attribute GSI: each shard's query compares the shard attribute to its number, and
    the shards merge by the sort attributes (numbers by value), then the table key."""
    index = plan.keys.index
    table_index = table.model.table_index
    shard_attribute = index['shards']['keyAttribute']
    # The partition attributes come first in the key condition, each compared by equality.
    partition = {c['attribute']: c['values'][0] for c in plan.condition['attributes'][:len(index['partitionAttributes'])]}
    sort = index.get('sortAttributes') or []

    def fetch(shard: int, start: dict[str, Any] | None, limit: int) -> dict[str, Any]:
        request = {**base, 'ExpressionAttributeValues': {**base['ExpressionAttributeValues'], ':shard': {'N': str(shard)}}, 'Limit': limit}
        if start:
            request['ExclusiveStartKey'] = start
        return _send_query(table, request)

    return fan_out_query(fetch, table.executor, shards=shards_to_query(table, plan, values), limit=plan.limit or 100,
                         descending=plan.descending, sort_keys=[a['name'] for a in sort], sorted_index=bool(sort),
                         number_keys=frozenset(a['name'] for a in sort if a['kind'] == 'NUMBER'),
                         tie_break_keys=[table_index['partitionKey'], table_index['sortKey']],
                         partition_key=lambda shard: {**partition, shard_attribute: {'N': str(shard)}}, concurrency=table.shard_concurrency,
                         state=position, pattern=plan.keys.pattern['name'])


def fetch_items(table: TableContext, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The table items of index entries, in their order (BatchGetItem); an entry whose item is gone since has none."""
    if not entries:
        return entries
    index = table.model.table_index
    pk, sk = index['partitionKey'], index['sortKey']
    unique: dict[str, tuple[str, Any, Any]] = {}
    for e in entries:
        key = {pk: e[pk], sk: e[sk]}
        i = key_id(key, pk, sk)
        unique[i] = (i, key, key)
    found = batch_get_items(table.client, table.table_name, list(unique.values()), lambda k: key_id(k, pk, sk), table.retry)
    return [found[i] for i in (key_id(e, pk, sk) for e in entries) if i in found]


def pattern_page(table: TableContext, pattern_name: str, values: Any, plan: Plan, cursor: str | None) -> Page:
    binding = query_binding(plan.keys.index['name'], plan.condition, plan.descending, table.model.fingerprint)
    position = None if cursor is None else decode_cursor(pattern_name, binding, cursor)
    entries, next_position = read_index(table, plan, values, position)
    equal = plan.condition.get('excludeEqual')
    if equal is not None:
        sort_key = plan.keys.index['sortKey']
        entries = [e for e in entries if e.get(sort_key, {}).get('S') != equal]
    if plan.fetch == 'BATCH_GET':
        entries = fetch_items(table, entries)
    index = plan.keys.index
    decode = plan.decode_keys if plan.projection is not None else index['projection'] != 'ALL' and plan.fetch == 'NONE'
    items = to_results(table.model, plan.keys.pattern['entities'], entries, index['name'], decode, plan.keep)
    return Page(items, None if next_position is None else encode_cursor(pattern_name, binding, next_position))
