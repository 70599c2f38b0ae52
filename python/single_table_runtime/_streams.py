"""Stream record decoding (lib/runtime/streams/decode-stream.ts): a DynamoDB stream event's records as
typed entity changes, told apart by the type attribute or, without an image, by the table key."""
from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any, NamedTuple

from ._encoding import decode_string, encode_string
from ._errors import SingleTableError
from ._results import parse_key
from ._values import from_item

if TYPE_CHECKING:
    from ._model import Model

EVENT_NAMES = ('INSERT', 'MODIFY', 'REMOVE')


class StreamChange(NamedTuple):
    """One decoded change of an entity's item."""
    entity: str
    event_name: str
    keys: dict[str, Any]
    new_item: dict[str, Any] | None
    old_item: dict[str, Any] | None
    expired: bool
    sequence_number: str | None


def _value(av: dict[str, Any]) -> dict[str, Any]:
    """A stream image's AttributeValue (binary as base64 in Lambda's JSON) as boto3 holds one."""
    if 'B' in av:
        return {'B': base64.b64decode(av['B']) if isinstance(av['B'], str) else av['B']}
    if 'BS' in av:
        return {'BS': [base64.b64decode(b) if isinstance(b, str) else b for b in av['BS']]}
    if 'M' in av:
        return {'M': {k: _value(v) for k, v in av['M'].items()}}
    if 'L' in av:
        return {'L': [_value(v) for v in av['L']]}
    return av


def _image(image: dict[str, Any]) -> dict[str, Any]:
    return {k: _value(v) for k, v in image.items()}


def _table_key_values(model: Model, entity: dict[str, Any], keys: dict[str, Any]) -> dict[str, Any] | None:
    index = model.table_index
    templates = entity['keys']['table']
    pk = parse_key(model, templates['pk'], keys.get(index['partitionKey'], {}).get('S'))
    sk = parse_key(model, templates['sk'], keys.get(index['sortKey'], {}).get('S')) if pk is not None else None
    return {**pk, **sk} if pk is not None and sk is not None else None


def _written(model: Model, template: dict[str, Any], key: str) -> bool:
    """Whether each string value in a key is in the one form the runtime writes (a guard item's key is not)."""
    parts = key.split(model.delimiter)
    esc = model.escape_char
    return all(s.get('kind') != 'STRING' or 'literal' in s or encode_string(decode_string(parts[i], esc), esc) == parts[i]
               for i, s in enumerate(template['segments']))


def decode_record(model: Model, record: dict[str, Any]) -> StreamChange | None:
    event_name = record.get('eventName')
    if event_name not in EVENT_NAMES:
        raise SingleTableError('INVALID_STREAM_RECORD', f"the record's eventName is {event_name!r}, not INSERT, MODIFY or REMOVE; pass the records of a DynamoDB stream")
    data = record.get('dynamodb') or {}
    if not data.get('Keys'):
        raise SingleTableError('INVALID_STREAM_RECORD', 'the record has no dynamodb.Keys; pass the records of a DynamoDB stream')
    new_image = _image(data['NewImage']) if data.get('NewImage') else None
    old_image = _image(data['OldImage']) if data.get('OldImage') else None
    keys = _image(data['Keys'])
    image = new_image or old_image
    index = model.table_index
    if image is not None:
        type_value = image.get(model.type_attribute, {}).get('S')
        name = model.entity_by_type.get(type_value) if type_value is not None else None
        entity = model.entities[name] if name else None
    else:
        entity = next((e for e in model.entities.values() if _table_key_values(model, e, keys) is not None
                       and _written(model, e['keys']['table']['pk'], keys[index['partitionKey']]['S'])
                       and _written(model, e['keys']['table']['sk'], keys[index['sortKey']]['S'])), None)
    if entity is None:
        return None
    new_item = from_item(new_image, model.strip) if new_image else None
    old_item = from_item(old_image, model.strip) if old_image else None
    values = _table_key_values(model, entity, keys)
    if values is None:
        names = model.entity_keys(entity['name']).table_names
        values = {n: (new_item or old_item or {})[n] for n in names if n in (new_item or old_item or {})}
    identity = record.get('userIdentity') or {}
    expired = (identity.get('type') or identity.get('Type')) == 'Service' and (identity.get('principalId') or identity.get('PrincipalId')) == 'dynamodb.amazonaws.com'
    return StreamChange(entity['name'], event_name, values, new_item, old_item, expired, data.get('SequenceNumber'))


def decode_stream(model: Model, event: dict[str, Any], entities: list[str] | None = None, event_names: list[str] | None = None) -> list[StreamChange]:
    """The changes of a stream event's records in order, skipping items of no entity of the model and, with the options, other entities or kinds."""
    for name in entities or []:
        model.entity(name)
    out = []
    for record in event.get('Records', []):
        change = decode_record(model, record)
        if change is None or (entities is not None and change.entity not in entities) or (event_names is not None and change.event_name not in event_names):
            continue
        out.append(change)
    return out
