"""cdk-single-table's Python runtime: the same model, keys, cursors and sharded queries as the
Node.js runtime, over boto3.

    from single_table_runtime import open_table
    table = open_table()  # the model file SINGLE_TABLE_MODEL names, the table TABLE_NAME names
"""
from .errors import SingleTableError, TransactionCanceledError, UnprocessedError
from .items import ConditionFailedError
from .model import MODEL_FORMAT, MODEL_FORMAT_VERSION, Model, load_model
from .query import Page
from .results import Result
from .send import RetryPolicy
from .table import Table, open_table

__all__ = ['open_table', 'Table', 'Page', 'Result', 'Model', 'load_model', 'RetryPolicy', 'SingleTableError', 'ConditionFailedError',
           'TransactionCanceledError', 'UnprocessedError', 'MODEL_FORMAT', 'MODEL_FORMAT_VERSION']
