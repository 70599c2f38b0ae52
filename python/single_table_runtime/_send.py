"""Sending with retries: throttled requests and unprocessed batch items are retried with full-jitter
exponential backoff up to a bound; a batch that still has requests not known to be processed fails
with every one of them (UnprocessedError), nothing dropped."""
from __future__ import annotations

import random
import time
from typing import Any, Callable, NamedTuple, TypeVar

from botocore.exceptions import ClientError

from ._errors import UnprocessedError

T = TypeVar('T')
THROTTLING = frozenset(('ThrottlingException', 'ProvisionedThroughputExceededException', 'TooManyRequestsException', 'RequestLimitExceeded'))
MAX_BATCH_GET = 100
MAX_BATCH_WRITE = 25


# NamedTuples rather than dataclasses here and for pages: a dataclass costs a millisecond of cold start to define.
class RetryPolicy(NamedTuple):
    """Attempts in all (the first included), the first retry's delay cap in ms (doubling), and the largest cap."""
    max_attempts: int = 8
    base_delay_ms: float = 25
    max_delay_ms: float = 2000


def error_code(error: BaseException) -> str | None:
    return error.response.get('Error', {}).get('Code') if isinstance(error, ClientError) else None


def is_throttling(error: BaseException) -> bool:
    return error_code(error) in THROTTLING


def backoff(policy: RetryPolicy, retry: int) -> None:
    time.sleep(random.random() * min(policy.max_delay_ms, policy.base_delay_ms * 2 ** (retry - 1)) / 1000)


def with_retry(policy: RetryPolicy, run: Callable[[], T]) -> T:
    attempt = 1
    while True:
        try:
            return run()
        except ClientError as error:
            if not is_throttling(error) or attempt >= policy.max_attempts:
                raise
        backoff(policy, attempt)
        attempt += 1


def key_id(key: dict[str, Any], pk: str, sk: str) -> str:
    return f"{key.get(pk, {}).get('S')}\u0000{key.get(sk, {}).get('S')}"


def drain(operation: str, entries: list[tuple[str, Any, Any]], size: int, policy: RetryPolicy,
          id_of: Callable[[Any], str], send: Callable[[list[Any]], list[Any]]) -> None:
    """Sends (id, request, source) entries in chunks; ``send`` returns the requests left unprocessed."""
    for c in range(0, len(entries), size):
        pending = entries[c:c + size]
        attempt = 1
        while True:
            last_error: BaseException | None = None
            try:
                left = {id_of(r) for r in send([e[1] for e in pending])}
                pending = [e for e in pending if e[0] in left]
            except ClientError as error:
                last_error = error
            if not pending:
                break
            if attempt >= policy.max_attempts or (last_error is not None and not is_throttling(last_error)):
                raise UnprocessedError(operation, [e[2] for e in pending + entries[c + size:]], attempt, last_error)
            backoff(policy, attempt)
            attempt += 1


def batch_get_items(client: Any, table_name: str, entries: list[tuple[str, Any, Any]], id_of: Callable[[Any], str],
                    policy: RetryPolicy, consistent: bool = False) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}

    def send(keys: list[Any]) -> list[Any]:
        out = client.batch_get_item(RequestItems={table_name: {'Keys': keys, 'ConsistentRead': consistent}})
        for item in out.get('Responses', {}).get(table_name, []):
            found[id_of(item)] = item
        return out.get('UnprocessedKeys', {}).get(table_name, {}).get('Keys', [])

    drain('BatchGetItem', entries, MAX_BATCH_GET, policy, id_of, send)
    return found


def batch_write_items(client: Any, table_name: str, entries: list[tuple[str, Any, Any]], id_of: Callable[[Any], str], policy: RetryPolicy) -> None:
    def send(requests: list[Any]) -> list[Any]:
        out = client.batch_write_item(RequestItems={table_name: requests})
        return out.get('UnprocessedItems', {}).get(table_name, [])

    drain('BatchWriteItem', entries, MAX_BATCH_WRITE, policy, id_of, send)
