"""docs/python.md's handler and its local test, run as written: the files its `python: file`
blocks hold, beside what `cdk synth` writes for the page's app (the README quick start's table and
the handler connected to it: its template, and the model layer with the runtime package and the
model file), on DynamoDB Local."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import ROOT


def test_the_handler_and_its_test_run_as_written(tmp_path: Path, definitions: dict[str, Any], fixtures: dict[str, str]) -> None:
    page = (ROOT / 'docs' / 'python.md').read_text()
    files = dict(re.findall(r'<!-- python: file (\S+) -->\n```python\n(.*?)```', page, re.S))
    assert sorted(files) == ['orders.py', 'test_orders.py']
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    shutil.copytree(definitions['quickStart']['assembly'], tmp_path / 'cdk.out')
    # Nothing of this repository on the import path: the runtime comes from the layer, as the page says.
    env = {**{n: v for n, v in os.environ.items() if n != 'PYTHONPATH'}, 'DYNAMODB_ENDPOINT': fixtures['endpoint']}
    run = subprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_orders.py'], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_create_table_input_is_the_node_packages(definitions: dict[str, Any]) -> None:
    from single_table_runtime.testing import create_table_input
    for name, fixture in definitions.items():
        assert create_table_input(fixture['template'], 'placeholder') == fixture['table'], name
