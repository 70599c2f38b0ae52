"""What the Python tests share with the Node.js side: the conformance corpus the Node.js runtime
writes, and DynamoDB Local with the table definition synthesized from the example stack.

`npm test` runs this suite from a jest test (test/python/python.test.ts) that passes both through
the environment. Run alone (`/usr/bin/python3 -m pytest python/tests`), the suite starts the same
Node.js fixture server itself (test/python/serve.ts) and stops it at the end.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import settings

# No example database in the tree: every run draws its own examples. No deadline: on a busy shared
# machine an example can take longer than Hypothesis's 200 ms without anything being wrong.
settings.register_profile('run', database=None, deadline=None)
settings.load_profile('run')

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / 'python'))

from properties import count_asserted  # noqa: E402  (python/tests is on sys.path as the conftest's folder)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every @given test counts the examples that reached its assertion (properties.py)."""
    for item in items:
        if isinstance(item, pytest.Function) and getattr(item.obj, 'is_hypothesis_test', False):
            count_asserted(item)


CORPUS_ENV = 'SINGLE_TABLE_CORPUS'
ENDPOINT_ENV = 'SINGLE_TABLE_ENDPOINT'
TABLE_DEFINITION_ENV = 'SINGLE_TABLE_TABLE_DEFINITION'


@pytest.fixture(scope='session')
def fixtures() -> Iterator[dict[str, str]]:
    """Paths and endpoint from the environment, or from a fixture server started for this run."""
    if all(os.environ.get(n) for n in (CORPUS_ENV, ENDPOINT_ENV, TABLE_DEFINITION_ENV)):
        yield {'corpus': os.environ[CORPUS_ENV], 'endpoint': os.environ[ENDPOINT_ENV], 'table': os.environ[TABLE_DEFINITION_ENV]}
        return
    server = subprocess.Popen(['npx', 'ts-node', '--transpile-only', '-P', 'test/tsconfig.json', 'test/python/serve.ts'],
                              cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()  # type: ignore[union-attr]
        if not line:
            pytest.fail('the Node.js fixture server (test/python/serve.ts) stopped before it was ready; run `npm ci` first')
        yield json.loads(line)
    finally:
        server.stdin.close()  # type: ignore[union-attr]
        server.wait(timeout=60)


def _number(value: dict[str, Any]) -> Any:
    return float(value['$number']) if set(value) == {'$number'} else value


@pytest.fixture(scope='session')
def corpus(fixtures: dict[str, str]) -> dict[str, Any]:
    with open(fixtures['corpus'], encoding='utf-8') as f:
        return json.load(f, object_hook=_number)


@pytest.fixture(scope='session')
def dynamodb(fixtures: dict[str, str]) -> Any:
    import boto3
    from botocore.config import Config
    return boto3.client('dynamodb', endpoint_url=fixtures['endpoint'], region_name='us-east-1', aws_access_key_id='local',
                        aws_secret_access_key='local', config=Config(retries={'max_attempts': 1}))


@pytest.fixture(scope='session')
def definitions(fixtures: dict[str, str]) -> dict[str, Any]:
    """Per model: the compiled model file, and the CreateTable input of its synthesized template."""
    with open(fixtures['table'], encoding='utf-8') as f:
        return json.load(f)


def create_table(dynamodb: Any, definitions: dict[str, Any], model: str, request: pytest.FixtureRequest) -> str:
    name = f"py-{request.node.name[:40]}-{os.urandom(4).hex()}".replace('[', '-').replace(']', '')
    dynamodb.create_table(**{**definitions[model]['table'], 'TableName': name})
    return name


@pytest.fixture
def table_name(dynamodb: Any, definitions: dict[str, Any], request: pytest.FixtureRequest) -> str:
    """A fresh table created from the example stack's synthesized template."""
    return create_table(dynamodb, definitions, 'example', request)


@pytest.fixture
def maintained(dynamodb: Any, definitions: dict[str, Any], request: pytest.FixtureRequest) -> Any:
    """A fresh table of the manifest whose Account keeps a version, timestamps and a unique email, and whose Member a handle unique per tenant."""
    from single_table_runtime import open_table
    return open_table(definitions['maintained']['model'], table_name=create_table(dynamodb, definitions, 'maintained', request), client=dynamodb)


@pytest.fixture
def example_model() -> str:
    return str(ROOT / 'examples' / 'manifest.model.json')
