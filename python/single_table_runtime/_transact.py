"""Batches and transactions (lib/runtime/batch/, transact/, items/unique.ts): batch reads and
writes in DynamoDB's chunks, unprocessed requests retried and never dropped; transactions whose
actions are built as the single-item operations build them, with the guard writes of unique values
(_unique.py): a guard is claimed on its absence, and given up or passed on only by the item it names."""
from __future__ import annotations

import json
import uuid
from typing import TYPE_CHECKING, Any, Mapping

from botocore.exceptions import ClientError

from ._conditions import Refs, compile_condition
from ._errors import SingleTableError, TransactionCanceledError
from ._items import build_delete, build_put, item_to_write, key_from_input, one_time, with_maintained
from ._results import Result
from ._send import backoff, batch_get_items, batch_write_items, error_code, key_id, with_retry
from ._unique import OPERATORS, GuardWrite, guard_requests, guard_writes, releases_refused, touched, touched_by_operator
from ._update import READ_MISSING_ATTEMPTS, _Changes, build_update
from ._values import from_item

if TYPE_CHECKING:
    from ._context import TableContext

MAX_TRANSACT_ITEMS = 100
RETRIED_REASONS = frozenset(('TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded'))


def _where(values: Mapping[str, Any], names: list[str]) -> str:
    return '(' + ', '.join(f'{n}: {values.get(n)!r}' for n in names) + ')'


# ---- batches -------------------------------------------------------------------------------------

def batch_get(table: TableContext, requests: list[Mapping[str, Any]], consistent: bool = False) -> list[Result | None]:
    index = table.model.table_index
    pk, sk = index['partitionKey'], index['sortKey']
    ids, entries = [], {}
    for r in requests:
        key = key_from_input(table, table.model.entity(r['entity']), r['key'])
        i = key_id(key, pk, sk)
        ids.append(i)
        entries[i] = (i, key, dict(r))
    found = batch_get_items(table.client, table.table_name, list(entries.values()), lambda k: key_id(k, pk, sk), table.retry, consistent)
    return [Result(requests[n]['entity'], from_item(found[i], table.model.strip)) if i in found else None for n, i in enumerate(ids)]


def batch_write(table: TableContext, requests: list[Mapping[str, Any]]) -> None:
    model = table.model
    index = model.table_index
    pk, sk = index['partitionKey'], index['sortKey']

    def write_id(w: Mapping[str, Any]) -> str:
        return key_id(w['PutRequest']['Item'] if 'PutRequest' in w else w['DeleteRequest']['Key'], pk, sk)

    entries, seen = [], set()
    for r in requests:
        entity = model.entity(r['entity'])
        if r.get('type') not in ('put', 'delete'):
            raise SingleTableError('INVALID_VALUE', f"a batch write has type {r.get('type')!r}; use 'put' or 'delete'", entity=entity['name'])
        if entity.get('version') is not None:
            raise SingleTableError('INVALID_VALUE', 'is versioned, and BatchWriteItem takes no condition, so it could overwrite a version it did not read: '
                                   'write it with put, update or delete', entity=entity['name'])
        if entity.get('unique'):
            raise SingleTableError('UNIQUE_NEEDS_TRANSACTION', f"batch_write cannot write the guard items of unique {','.join(entity['unique'])}: use transact_write",
                                   entity=entity['name'])
        request = ({'PutRequest': {'Item': item_to_write(table, entity, with_maintained(entity, r['item']))}} if r['type'] == 'put'
                   else {'DeleteRequest': {'Key': key_from_input(table, entity, r['key'])}})
        i = write_id(request)
        if i in seen:
            values = r['item'] if r['type'] == 'put' else r['key']
            raise SingleTableError('DUPLICATE_BATCH_KEY', f"writes the item {_where(values, model.entity_keys(entity['name']).table_names)} twice; "
                                   'DynamoDB rejects a batch that does: write it once', entity=entity['name'])
        seen.add(i)
        entries.append((i, request, dict(r)))
    batch_write_items(table.client, table.table_name, entries, write_id, table.retry)


# ---- transactions ----------------------------------------------------------------------------

def _and_condition(request: dict[str, Any], build: Any) -> None:
    refs = Refs(request)
    expression = build(refs)
    existing = request.get('ConditionExpression')
    request['ConditionExpression'] = f'({existing}) AND ({expression})' if existing else expression
    refs.apply_to(request)


def _plan(table: TableContext, actions: list[Mapping[str, Any]], stored: list[Any], read: list[bool],
          kept: set[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    model = table.model
    index = model.table_index
    pk_name, sk_name = index['partitionKey'], index['sortKey']
    items: list[dict[str, Any]] = []
    sent: list[dict[str, Any]] = []
    guards: list[GuardWrite] = []
    for i, action in enumerate(actions):
        entity = model.entity(action.get('entity'))
        name = entity['name']
        kind = action.get('type')
        values = (action.get('item') if kind == 'put' else action.get('changes') if kind == 'update' else action.get('key')) or {}
        key = {n: values.get(n) for n in model.entity_keys(name).table_names}
        if kind == 'put':
            built = build_put(table, name, action['item'], action.get('mode', 'upsert'))
            item, after, owner = {'Put': built}, action['item'], {pk_name: built['Item'][pk_name], sk_name: built['Item'][sk_name]}
        elif kind == 'update':
            operators = {op: action.get(op) for op in OPERATORS}
            # DynamoDB computes an operator's result, so the guard of the new value cannot be known.
            operated = next(((op, u) for u in entity.get('unique') or [] if (op := touched_by_operator(operators, u))), None)
            if operated:
                raise SingleTableError('INVALID_VALUE', f'action {i}: {operated[0]} on the unique attribute {operated[1]} leaves its new value to DynamoDB, '
                                       f'so the guard of that value cannot be written; set {operated[1]} to its new value instead', entity=name, attribute=operated[1])
            changes = _Changes(table, name, action.get('changes') or {}, list(action.get('remove') or []), operators)
            if changes.lacking:
                raise changes.partial_index_update(f'action {i} ', ' (a transaction cannot read them first)')
            built = build_update(table, name, action['changes'], action.get('remove') or (), operators)
            built.pop('ReturnValues')
            after = {**action['changes'], **{r: None for r in action.get('remove') or []}}
            item, owner = {'Update': built}, built['Key']
        elif kind == 'delete':
            built = build_delete(table, name, action['key'], action.get('must_exist', False), action.get('version'))
            built.pop('ReturnValues')
            item, after, owner = {'Delete': built}, None, built['Key']
        elif kind == 'condition_check':
            if action.get('condition') is None:
                raise SingleTableError('INVALID_CONDITION', f"action {i} is a condition_check without a condition; give it one, e.g. {{'attr': 'status', 'eq': 'OPEN'}}",
                                       entity=name)
            built = {'TableName': table.table_name, 'Key': key_from_input(table, entity, action['key'])}
            item, after, owner = {'ConditionCheck': built}, None, built['Key']
        else:
            raise SingleTableError('INVALID_VALUE', f"action {i} has type {kind!r}; use 'put', 'update', 'delete' or 'condition_check'", entity=name)
        request = next(iter(item.values()))
        if action.get('condition') is not None:
            _and_condition(request, lambda refs: compile_condition([entity], action['condition'], refs, f'actions[{i}].condition'))
        touched_read = touched(entity, action)
        if read[i]:
            before = stored[i]

            def unchanged(refs: Refs, before: Any = before, touched_read: list[str] = touched_read) -> str:
                pk_ref = refs.name(pk_name)
                if not before:
                    return f'attribute_not_exists({pk_ref})'
                return ' AND '.join([f'attribute_exists({pk_ref})', *(f'attribute_not_exists({refs.name(n)})' if n not in before
                                                                     else f'{refs.name(n)} = {refs.value(before[n])}' for n in touched_read)])
            _and_condition(request, unchanged)
        # The stored item a failure returns tells the caller's condition apart from a change of the values read.
        if action.get('condition') is not None or read[i]:
            request['ReturnValuesOnConditionCheckFailure'] = 'ALL_OLD'
        items.append(item)
        ref = {'action': i, 'entity': name, 'key': key}
        sent.append(ref)
        moved = (entity.get('unique') or []) if kind == 'put' and action.get('mode') == 'create' else touched_read
        before = stored[i]
        # An update or delete of an item that is not there fails on its own condition: no guard moves.
        if moved and not (kind != 'put' and read[i] and not before):
            guards += guard_writes(table, entity, owner, values, before, after, moved, ref)
    for item, ref in guard_requests(table, guards, kept):
        items.append(item)
        sent.append(ref)
    if len(items) > MAX_TRANSACT_ITEMS:
        guard_count = sum(1 for s in sent if 'guard' in s)
        raise SingleTableError('TRANSACTION_TOO_LARGE', f'the transaction has {len(items)} items ({len(items) - guard_count} actions, {guard_count} unique-value guard writes); '
                               f'DynamoDB allows {MAX_TRANSACT_ITEMS}: split it')
    seen: dict[tuple[str, str], int] = {}
    for n, item in enumerate(items):
        request = next(iter(item.values()))
        k = request.get('Item') or request['Key']
        ident = (k[pk_name]['S'], k[sk_name]['S'])
        if ident in seen:
            a, b = sent[seen[ident]], sent[n]
            raise SingleTableError('DUPLICATE_TRANSACTION_ITEM', f"actions {a['action']} and {b['action']} both act on the item {_where(b['key'], list(b['key']))}; "
                                   'DynamoDB rejects two actions on one item in a transaction: merge them', entity=b['entity'])
        seen[ident] = n
    return items, sent


def _reasons(error: ClientError, sent: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    if error_code(error) != 'TransactionCanceledException':
        return None
    reasons = []
    for i, r in enumerate(error.response.get('CancellationReasons', [])):
        if not r.get('Code') or r['Code'] == 'None':
            continue
        ref = sent[i]
        reasons.append({'action': ref['action'], 'entity': ref['entity'], 'key': ref['key'], 'code': r['Code'], 'message': r.get('Message'),
                        'unique': ref.get('guard'), 'stored': r.get('Item')})
    return reasons


def _cancelled(reasons: list[dict[str, Any]]) -> TransactionCanceledError:
    unique = bool(reasons) and all(r['unique'] and r['code'] == 'ConditionalCheckFailed' for r in reasons)

    def describe(r: dict[str, Any]) -> str:
        what = f"action {r['action']}, {r['entity']} {_where(r['key'], list(r['key']))}"
        if r['unique'] and r['code'] == 'ConditionalCheckFailed':
            return f"{what}: another item holds {r['unique'][0]} {json.dumps(r['unique'][1], default=str)}"
        return f"{what}: {r['code']}{' (' + r['message'] + ')' if r.get('message') and r['message'] != r['code'] else ''}"

    first = reasons[0] if reasons else {}
    return TransactionCanceledError('UNIQUE_VIOLATION' if unique else 'TRANSACTION_CANCELLED', 'the transaction was cancelled: ' + '; '.join(map(describe, reasons)),
                                    reasons, entity=first.get('entity'), attribute=first['unique'][0] if unique else None)


def _send_transaction(table: TableContext, sent: list[dict[str, Any]], run: Any) -> Any:
    attempt = 1
    while True:
        try:
            return with_retry(table.retry, run)
        except ClientError as error:
            reasons = _reasons(error, sent)
            if reasons is None:
                raise
            if not reasons or not all(r['code'] in RETRIED_REASONS for r in reasons) or attempt >= table.retry.max_attempts:
                raise _cancelled(reasons) from error
        backoff(table.retry, attempt)
        attempt += 1


def transact_write(table: TableContext, actions: list[Mapping[str, Any]], token: str | None = None) -> None:
    """Applies up to 100 actions atomically, unique-value guards included; a cancellation raises TransactionCanceledError."""
    model = table.model
    if not isinstance(actions, (list, tuple)) or not actions:
        raise SingleTableError('TRANSACTION_TOO_LARGE', 'a transaction needs 1 to 100 actions, got none')
    if token is not None and not (isinstance(token, str) and 1 <= len(token) <= 36):
        raise SingleTableError('INVALID_VALUE', f'the token must be a string of 1 to 36 characters, got {token!r}')
    entities = [model.entity(a.get('entity')) for a in actions]
    needs_read = [bool(touched(e, a)) for e, a in zip(entities, actions)]

    def read() -> list[Any]:
        out = []
        for entity, action, needed in zip(entities, actions, needs_read):
            if not needed:
                out.append(None)
                continue
            values = (action.get('changes') if action['type'] == 'update' else action.get('item') or action.get('key')) or {}
            names = {'#k': model.table_index['partitionKey'], **{f'#u{i}': n for i, n in enumerate(entity['unique'])}}
            request = {'TableName': table.table_name, 'Key': model.entity_keys(entity['name']).key_item(values), 'ConsistentRead': True,
                       'ProjectionExpression': ', '.join(names), 'ExpressionAttributeNames': names}
            out.append(with_retry(table.retry, lambda request=request: table.client.get_item(**request)).get('Item'))
        return out

    with one_time():
        stored = read()
        reads = 1
        kept: set[str] = set()
        while True:
            items, sent = _plan(table, list(actions), stored, needs_read, kept)
            request = {'TransactItems': items, 'ClientRequestToken': token or str(uuid.uuid4())}
            try:
                _send_transaction(table, sent, lambda: table.client.transact_write_items(**request))
                return
            except ClientError as error:
                if error_code(error) == 'IdempotentParameterMismatchException':
                    raise SingleTableError('TOKEN_REUSED', f'token {request["ClientRequestToken"]!r} was used in the last 10 minutes for a transaction with '
                                           'other content: use a new token per distinct write') from error
                raise
            except TransactionCanceledError as error:
                # A guard the actions give up that names another item (two items held the value before it was unique) stays
                # where it is: send the transaction again without its delete.
                foreign = releases_refused(error, sent)
                if foreign:
                    kept.update(foreign)
                    continue
                stale = any(r['code'] == 'ConditionalCheckFailed' and needs_read[r['action']] and not r['unique'] for r in error.reasons)
                if not stale or token is not None or reads >= READ_MISSING_ATTEMPTS:
                    raise
                again = read()
                if again == stored:
                    raise
                stored = again
                reads += 1


def transact_get(table: TableContext, requests: list[Mapping[str, Any]]) -> list[Result | None]:
    model = table.model
    if not isinstance(requests, (list, tuple)) or not 0 < len(requests) <= MAX_TRANSACT_ITEMS:
        raise SingleTableError('TRANSACTION_TOO_LARGE', f'a transact_get reads 1 to {MAX_TRANSACT_ITEMS} items, got {len(requests) if isinstance(requests, (list, tuple)) else "no list"}: split it')
    index = model.table_index
    seen: set[tuple[str, str]] = set()
    items, sent = [], []
    for n, r in enumerate(requests):
        entity = model.entity(r['entity'])
        key = key_from_input(table, entity, r['key'])
        ident = (key[index['partitionKey']]['S'], key[index['sortKey']]['S'])
        if ident in seen:
            raise SingleTableError('DUPLICATE_TRANSACTION_ITEM', f"reads the item {_where(r['key'], list(r['key']))} twice; DynamoDB rejects that, read it once",
                                   entity=entity['name'])
        seen.add(ident)
        sent.append({'action': n, 'entity': entity['name'], 'key': dict(r['key'])})
        items.append({'Get': {'TableName': table.table_name, 'Key': key}})
    out = _send_transaction(table, sent, lambda: table.client.transact_get_items(TransactItems=items))
    return [Result(requests[n]['entity'], from_item(response['Item'], model.strip)) if response.get('Item') else None
            for n, response in enumerate(out.get('Responses', []))]

