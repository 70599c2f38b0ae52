"""Side-by-side measures of the Python runtime (figures in docs/python.md):

1. composing a PutItem request: ``build_put`` against a hand-written boto3 builder with f-strings, and a Query
   request (``plan_query`` and ``build_query_input``) against the hand-written dict of the same query;
2. a 10-shard fan-out query against an unsharded query of the same page, each request delayed by
   10 ms (a client whose network is a sleep over in-memory partitions: latency injection only);
3. cold start: a new interpreter that imports boto3 and makes a DynamoDB client, against one that imports the
   runtime and calls ``open_table`` on the example's model file (which makes the client), and what the runtime's
   import and ``open_table`` add to the first, timed inside it.

Run: /usr/bin/python3 python/bench/bench.py
"""
from __future__ import annotations

import bisect
import copy
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
import timeit
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / 'python'))

from single_table_runtime import open_table  # noqa: E402
from single_table_runtime._items import build_put  # noqa: E402
from single_table_runtime._query import build_query_input, plan_query  # noqa: E402

MODEL = json.loads((ROOT / 'examples' / 'manifest.model.json').read_text())
ORDER = {'username': 'ann', 'orderId': 'o-1', 'status': 'OPEN', 'createdAt': '2024-01-10T10:00:00.000Z', 'amount': 99.99,
         'lines': [{'sku': 'BOOK-1', 'qty': 1}]}


def hand_written_put(table_name: str, o: dict[str, Any]) -> dict[str, Any]:
    """What a handler writes without the library: the same item and keys, from f-strings (no escaping, no checks)."""
    return {'TableName': table_name, 'Item': {
        'username': {'S': o['username']}, 'orderId': {'S': o['orderId']}, 'status': {'S': o['status']}, 'createdAt': {'S': o['createdAt']},
        'amount': {'N': str(o['amount'])}, 'lines': {'L': [{'M': {'sku': {'S': line['sku']}, 'qty': {'N': str(line['qty'])}}} for line in o['lines']]},
        'PK': {'S': f"CUSTOMER#{o['username']}"}, 'SK': {'S': f"ORDER#{o['orderId']}"},
        'GSI1PK': {'S': f"ORDER#{o['orderId']}"}, 'GSI1SK': {'S': f"ORDER#{o['orderId']}"},
        'GSI2PK': {'S': f"ORDER#{o['status']}#{hash(o['orderId']) % 3}"}, 'GSI2SK': {'S': o['createdAt']},
        'LSI1SK': {'S': f"ORDERED#{o['createdAt']}"}, 'LSI2SK': {'S': f"AMOUNT#{o['amount']}"}, 'Type': {'S': 'Order'}}}


def per_second(*fns: Any, rounds: int = 9) -> list[float]:
    """Calls per second of each function: the best of rounds taken in turn (process CPU time: the machine may be shared)."""
    timers = [timeit.Timer(fn, timer=time.process_time) for fn in fns]
    runs = [max(1, t.autorange()[0]) for t in timers]
    best = [float('inf')] * len(fns)
    for _ in range(rounds):
        for i, t in enumerate(timers):
            best[i] = min(best[i], t.timeit(runs[i]))
    return [n / b for n, b in zip(runs, best)]


def bench_put() -> dict[str, float]:
    table = open_table(MODEL, table_name='T', client=object())
    library, hand = per_second(lambda: build_put(table, 'Order', ORDER), lambda: hand_written_put('T', ORDER))
    return {'build_put per s': round(library), 'hand-written per s': round(hand), 'ratio': round(library / hand, 3)}


def hand_written_query(table_name: str, username: str, limit: int) -> dict[str, Any]:
    """The Query a handler writes without the library for ordersForCustomer (no escaping, no checks)."""
    return {'TableName': table_name, 'KeyConditionExpression': '#pk = :pk AND begins_with(#sk, :lo)',
            'ExpressionAttributeNames': {'#pk': 'PK', '#sk': 'SK', '#type': 'Type'},
            'ExpressionAttributeValues': {':pk': {'S': f'CUSTOMER#{username}'}, ':lo': {'S': 'ORDER#'}, ':t0': {'S': 'Order'}},
            'ScanIndexForward': True, 'Limit': limit, 'FilterExpression': '#type IN (:t0)'}


def library_query(table: Any, username: str, limit: int) -> dict[str, Any]:
    plan = plan_query(table, 'ordersForCustomer', {'username': username}, limit)
    return build_query_input(table, plan, plan.condition['pk'])


def bench_query() -> dict[str, float]:
    table = open_table(MODEL, table_name='T', client=object())
    assert library_query(table, 'ann', 20) == hand_written_query('T', 'ann', 20)
    library, hand = per_second(lambda: library_query(table, 'ann', 20), lambda: hand_written_query('T', 'ann', 20))
    return {'query input per s': round(library), 'hand-written per s': round(hand), 'ratio': round(library / hand, 3)}


def _order(item: dict[str, Any]) -> tuple[str, str, str]:
    return item['GSI2SK']['S'], item['PK']['S'], item['SK']['S']


class SleepyClient:
    """Answers Query from in-memory partitions (sorted by the index sort key, then the table key) after a sleep per request."""

    def __init__(self, partitions: dict[str, list[dict[str, Any]]], latency: float) -> None:
        self.partitions = partitions
        self.keys = {pk: [_order(i) for i in items] for pk, items in partitions.items()}
        self.latency = latency
        self.calls = 0

    def query(self, **request: Any) -> dict[str, Any]:
        self.calls += 1
        time.sleep(self.latency)
        pk = request['ExpressionAttributeValues'][':pk']['S']
        items = self.partitions.get(pk, [])
        keys = self.keys.get(pk, [])
        order = _order
        forward = request.get('ScanIndexForward', True)
        start = request.get('ExclusiveStartKey')
        if forward:
            at = 0 if start is None else bisect.bisect_right(keys, order(start))
            page = items[at:at + request['Limit']]
            more = at + request['Limit'] < len(items)
        else:
            at = len(items) if start is None else bisect.bisect_left(keys, order(start))
            page = items[max(0, at - request['Limit']):at][::-1]
            more = at - request['Limit'] > 0
        out: dict[str, Any] = {'Items': page}
        if more and page:
            last = page[-1]
            out['LastEvaluatedKey'] = {k: last[k] for k in ('GSI2PK', 'GSI2SK', 'PK', 'SK')}
        return out


def sharded_model(shards: int | None) -> dict[str, Any]:
    model = copy.deepcopy(MODEL)
    gsi2 = model['model']['indexes']['GSI2']
    if shards is None:
        del gsi2['shards']
    else:
        gsi2['shards'].update(writeCount=shards, readCount=shards, counts=[shards])
    return model


def bench_fan_out(latency: float = 0.010, rounds: int = 15) -> dict[str, Any]:
    results = {}
    for n in (10, 100, 500):
        figures = {}
        for label, shards in (('unsharded', None), ('10 shards', 10)):
            writer = open_table(sharded_model(shards), table_name='T', client=object())
            partitions: dict[str, list[dict[str, Any]]] = {}
            for i in range(20 * n):
                item = build_put(writer, 'Order', {**ORDER, 'orderId': f'o{i:06d}', 'createdAt': f'2024-01-01T00:00:{i % 60:02d}.{i % 1000:03d}Z'})['Item']
                partitions.setdefault(item['GSI2PK']['S'], []).append(item)
            for items in partitions.values():
                items.sort(key=lambda i: (i['GSI2SK']['S'], i['PK']['S'], i['SK']['S']))
            client = SleepyClient(partitions, latency)
            table = open_table(sharded_model(shards), table_name='T', client=client)
            values = {'status': 'OPEN', 'between': [{}, {}]}
            table.query('ordersByStatus', values, limit=n)  # threads started, pattern compiled
            client.calls = 0
            times, cpu = [], []
            for _ in range(rounds):
                started, started_cpu = time.perf_counter(), time.process_time()
                page = table.query('ordersByStatus', values, limit=n)
                times.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
                assert len(page.items) == n
            figures[label] = statistics.median(times) * 1000
            figures[label + ' cpu'] = statistics.median(cpu) * 1000
            figures[label + ' requests'] = client.calls / rounds
        results[f'n={n}'] = {'unsharded ms': round(figures['unsharded'], 1), '10 shards ms': round(figures['10 shards'], 1),
                             'ratio': round(figures['10 shards'] / figures['unsharded'], 2),
                             'CPU ms per page (unsharded, 10 shards)': [round(figures['unsharded cpu'], 1), round(figures['10 shards cpu'], 1)],
                             'requests per page (unsharded, 10 shards)': [figures['unsharded requests'], figures['10 shards requests']]}
    return results


IMPORT_CLIENT = "import boto3; boto3.client('dynamodb', region_name='us-east-1')"
OPEN_TABLE = ("import os; os.environ['AWS_DEFAULT_REGION'] = 'us-east-1'; from single_table_runtime import open_table; "
              f"open_table({str(ROOT / 'examples' / 'manifest.model.json')!r}, table_name='T')")
# The runtime's own import and open_table (the model file read, the client given), timed inside an interpreter that has
# just made the client: the increment alone, not the difference of two ~400 ms process times, which a shared machine's
# noise swamps.
IMPORT_RUNTIME = ("import boto3; client = boto3.client('dynamodb', region_name='us-east-1'); import time; t = time.process_time(); "
                  "from single_table_runtime import open_table; "
                  f"open_table({str(ROOT / 'examples' / 'manifest.model.json')!r}, table_name='T', client=client); print(time.process_time() - t)")


def bench_import(runs: int = 15) -> dict[str, Any]:
    """CPU time of a new interpreter that imports boto3 and makes a DynamoDB client, and what importing the runtime
    after it adds (best of each over runs taken in turn)."""
    # Compiled to bytecode, as pip installs it (boto3 here is Debian's, compiled too).
    env = {k: v for k, v in os.environ.items() if k != 'PYTHONDONTWRITEBYTECODE'}
    subprocess.run([sys.executable, '-m', 'compileall', '-q', str(ROOT / 'python' / 'single_table_runtime')], check=True, env=env)
    plain = opened = runtime = float('inf')

    def cpu(code: str) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, '-c', code], check=True, cwd=ROOT / 'python', env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

    for _ in range(runs):
        plain = min(plain, cpu(IMPORT_CLIENT))
        opened = min(opened, cpu(OPEN_TABLE))
        out = subprocess.run([sys.executable, '-c', IMPORT_RUNTIME], check=True, cwd=ROOT / 'python', env=env, capture_output=True, text=True)
        runtime = min(runtime, float(out.stdout))
    return {'boto3 client ms': round(plain * 1000), 'import + open_table ms': round(opened * 1000), 'ratio': round(opened / plain, 3),
            'import + open_table after the client ms': round(runtime * 1000, 1), 'added': f'{runtime / plain * 100:.1f}%'}


if __name__ == '__main__':
    random.seed(1)
    only = sys.argv[1:] or ['put', 'query', 'fan-out', 'import']
    measures = {'put': ('put request', bench_put), 'query': ('query request', bench_query), 'fan-out': ('fan-out at 10 ms', bench_fan_out),
                'import': ('cold start', bench_import)}
    print(json.dumps({measures[m][0]: measures[m][1]() for m in only}, indent=2))
