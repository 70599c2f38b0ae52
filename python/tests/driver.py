"""Runs the Python runtime's operations for the Node.js side of the cross-runtime tests
(test/python/python.test.ts): one JSON request per line on stdin, one JSON answer per line on
stdout. ``{"op": "open", "model": path, "table": name, "endpoint": url}`` opens the table; then
``put``, ``get``, ``delete`` and ``query`` take the table's arguments as JSON and answer
``{"ok": result}`` or ``{"error": code, "message": text}``."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from single_table_runtime import SingleTableError, open_table  # noqa: E402


def main() -> None:
    import boto3
    table: Any = None
    for line in sys.stdin:
        request = json.loads(line)
        op = request.pop('op')
        try:
            if op == 'open':
                client = boto3.client('dynamodb', endpoint_url=request['endpoint'], region_name='us-east-1',
                                      aws_access_key_id='local', aws_secret_access_key='local')
                table = open_table(request['model'], table_name=request['table'], client=client)
                result: Any = None
            elif op == 'query':
                page = table.query(request['pattern'], request['input'], **request.get('options', {}))
                result = {'items': [{'entity': r.entity, 'item': r.item} for r in page.items], 'cursor': page.cursor}
            else:
                result = getattr(table, op)(*request['args'], **request.get('options', {}))
            answer = {'ok': result}
        except SingleTableError as e:
            answer = {'error': e.code, 'message': str(e)}
        sys.stdout.write(json.dumps(answer, default=sorted) + '\n')
        sys.stdout.flush()


if __name__ == '__main__':
    main()
