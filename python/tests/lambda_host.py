"""Runs a Python Lambda function of a synthesized stack as Lambda lays it out, for the Node.js side
of the cross-runtime tests (test/python/python.test.ts): its code folder first on the import path,
then the ``python`` folder of each of its layers (what Lambda unpacks to /opt/python), the later
layer first, as a later layer wins in /opt. The environment is the function's, with /opt paths
already mapped to the layer folders by the caller. One JSON event per line on stdin, one JSON answer
per line on stdout: ``{"ok": result}`` or ``{"error": code, "message": text}``.

    lambda_host.py <code folder> <module.function> [<layer folder> ...]

DynamoDB calls go to the endpoint AWS_ENDPOINT_URL_DYNAMODB names, as botocore 1.31 and later do
by themselves.
"""
from __future__ import annotations

import importlib
import json
import os
import sys


def main() -> None:
    code, handler_name, *layers = sys.argv[1:]
    sys.path[:1] = [code, *(os.path.join(layer, 'python') for layer in reversed(layers))]
    endpoint = os.environ.get('AWS_ENDPOINT_URL_DYNAMODB')
    if endpoint:
        import boto3
        make_client = boto3.client
        boto3.client = lambda service, *args, **kwargs: make_client(service, *args, **{'endpoint_url': endpoint, **kwargs})  # type: ignore[assignment]
    module_name, function_name = handler_name.rsplit('.', 1)
    handler = getattr(importlib.import_module(module_name), function_name)
    for line in sys.stdin:
        try:
            answer = {'ok': handler(json.loads(line), None)}
        except Exception as e:  # noqa: BLE001 - every failure goes back to the caller, as Lambda reports it
            answer = {'error': getattr(e, 'code', type(e).__name__), 'message': str(e)}
        sys.stdout.write(json.dumps(answer, default=sorted) + '\n')
        sys.stdout.flush()


if __name__ == '__main__':
    main()
