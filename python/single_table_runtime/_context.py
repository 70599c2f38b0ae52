"""What every operation works with: the compiled model, the table name, the boto3 DynamoDB client, the
retry policy, the threads shard queries run on, and what is compiled per entity and pattern. The
table handle ``open_table`` makes is one, with a method per operation."""
from __future__ import annotations

from typing import Any

from ._model import Model
from ._send import RetryPolicy


class TableContext:
    """One table as the operations see it."""

    def __init__(self, model: Model, table_name: str, client: Any, retry: RetryPolicy, shard_concurrency: int | None) -> None:
        self.model = model
        self.table_name = table_name
        self.client = client
        self.retry = retry
        self.shard_concurrency = shard_concurrency
        self._executor: Any = None
        self.fast_writes: dict[str, Any] = {}  # per entity, its compiled item builder or None (_items.py)
        self.fast_plans: dict[str, Any] = {}  # per pattern, its compiled plan or None (_query.py)
        self.query_shells: dict[Any, Any] = {}  # per pattern's keys, what each of its Query requests shares (_query.py)

    @property
    def executor(self) -> Any:
        """The threads shard queries run on (a ThreadPoolExecutor), started at the first fan-out."""
        if self._executor is None:
            from concurrent.futures import ThreadPoolExecutor  # only handlers that fan out or scan in segments pay for it
            widest = max((i['shards']['readCount'] for i in self.model.indexes.values() if i.get('shards')), default=1)
            self._executor = ThreadPoolExecutor(max_workers=self.shard_concurrency or widest, thread_name_prefix='single-table-shard')
        return self._executor
