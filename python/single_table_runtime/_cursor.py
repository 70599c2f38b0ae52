"""Opaque page cursors in the Node.js runtime's format (lib/runtime/query/cursor.ts): base64url JSON of
the pattern name, the position (DynamoDB's LastEvaluatedKey, or a fan-out state) and a checksum
over both and the query they belong to. A cursor either runtime issues resumes in the other.

The JSON is written as JavaScript's JSON.stringify writes it (no spaces, non-ASCII as is), so the
checksum is over the same text in both languages.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from typing import Any

from ._errors import SingleTableError

_FOREIGN = 'the cursor is not one this runtime issued'


_SURROGATE = re.compile('[\ud800-\udfff]')


def js_json(value: Any) -> str:
    """JSON text as JavaScript's JSON.stringify writes it (dict order kept, a lone surrogate escaped)."""
    text = json.dumps(value, ensure_ascii=False, separators=(',', ':'), allow_nan=False)
    return _SURROGATE.sub(lambda m: f'\\u{ord(m.group()):04x}', text)


def _checksum(pattern: str, binding: str, position: Any) -> str:
    digest = hashlib.sha256(js_json([pattern, binding, position]).encode('utf-8')).digest()
    return base64.urlsafe_b64encode(digest).decode('ascii')[:16]


def encode_cursor(pattern: str, binding: str, position: Any) -> str:
    body = js_json({'p': pattern, 'k': position, 'c': _checksum(pattern, binding, position)})
    return base64.urlsafe_b64encode(body.encode('utf-8')).decode('ascii').rstrip('=')


def decode_cursor(pattern: str, binding: str, cursor: Any) -> Any:
    """The position a cursor holds; raises INVALID_CURSOR saying why it does not fit this query."""
    try:
        text = cursor.strip()
        body = json.loads(base64.urlsafe_b64decode(text + '=' * (-len(text) % 4)).decode('utf-8'))
    except (AttributeError, ValueError, binascii.Error, UnicodeDecodeError) as cause:
        raise SingleTableError('INVALID_CURSOR', f'{_FOREIGN} (not base64url JSON)', pattern=pattern) from cause
    if not isinstance(body, dict) or not isinstance(body.get('p'), str) or not isinstance(body.get('c'), str):
        why = _FOREIGN
    elif body['p'] != pattern:
        why = f"the cursor belongs to pattern '{body['p']}'; pass it to that pattern's query"
    elif body['c'] != _checksum(body['p'], binding, body.get('k')):
        why = 'the cursor was altered, or was issued for other input or order of this pattern; start again without a cursor'
    else:
        return body.get('k')
    raise SingleTableError('INVALID_CURSOR', why, pattern=pattern)


def query_binding(index_name: str, condition: dict[str, Any], descending: bool, fingerprint: str) -> str:
    """Identifies pattern, input and order, so a cursor cannot move to another query."""
    return js_json([index_name, condition, descending, fingerprint])
