"""cdk-single-table's Python runtime: the same model, keys, cursors and sharded queries as the
Node.js runtime, over boto3.

    from single_table_runtime import open_table
    table = open_table()  # the model file SINGLE_TABLE_MODEL names, the table TABLE_NAME names
"""
from typing import TYPE_CHECKING, Any

from ._errors import SingleTableError, TransactionCanceledError, UnprocessedError
from ._items import ConditionFailedError
from ._model import MODEL_FORMAT, MODEL_FORMAT_VERSION, Model, deployed_model, load_model
from ._pages import Page
from ._results import Result
from ._send import RetryPolicy
from ._table import Condition, Order, Pages, PutMode, Table, open_table

if TYPE_CHECKING:
    from ._release_unique import ReleaseResult
    from ._streams import StreamChange

__all__ = ['open_table', 'Table', 'Page', 'Result', 'StreamChange', 'ReleaseResult', 'Model', 'load_model', 'deployed_model', 'RetryPolicy',
           'SingleTableError', 'ConditionFailedError', 'TransactionCanceledError', 'UnprocessedError', 'PutMode', 'Order', 'Pages', 'Condition',
           'MODEL_FORMAT', 'MODEL_FORMAT_VERSION']


def __getattr__(name: str) -> Any:
    # The result types of stream decoding and unique-value release, imported with them: a cold start pays for neither.
    if name == 'StreamChange':
        from ._streams import StreamChange
        return StreamChange
    if name == 'ReleaseResult':
        from ._release_unique import ReleaseResult
        return ReleaseResult
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
