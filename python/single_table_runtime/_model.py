"""The compiled model file (lib/model/format.ts, lib/model/schema.json): what every runtime loads.

A file of another format or version is refused rather than misread. The model stays plain data
(the file's dicts); what every put and query needs from it is worked out once, lazily, here.
"""
from __future__ import annotations

import json
import os
from typing import Any, Mapping

from ._attribute_keys import AttributePatternKeys
from ._errors import SingleTableError, did_you_mean
from ._keys import EntityKeys, PatternKeys

MODEL_FORMAT = 'cdk-single-table/model'
MODEL_FORMAT_VERSION = 4
TABLE_INDEX = 'table'


class Model:
    """A loaded model: the file's ``model`` dict, with compiled keys per entity and pattern."""

    def __init__(self, model: dict[str, Any]) -> None:
        self.raw = model
        self.delimiter: str = model['delimiter']
        self.escape_char: str = model['escapeChar']
        self.type_attribute: str = model['typeAttribute']
        self.indexes: dict[str, dict[str, Any]] = model['indexes']
        self.entities: dict[str, dict[str, Any]] = model['entities']
        self.patterns: dict[str, dict[str, Any]] = model['patterns']
        self.entity_by_type: dict[str, str] = model['entityByType']
        self.key_attributes: list[str] = model['keyAttributes']
        self.fingerprint: str = model['fingerprint']
        self.table_index = self.indexes[TABLE_INDEX]
        # What results leave out: the key attributes, the type, and the shard attributes of sharded multi-attribute GSIs.
        self.strip = frozenset(self.key_attributes) | {self.type_attribute} | {
            i['shards']['keyAttribute'] for i in self.indexes.values() if (i.get('shards') or {}).get('keyAttribute')}
        self._entity_keys: dict[str, EntityKeys] = {}
        self._pattern_keys: dict[str, PatternKeys] = {}

    def entity(self, name: str) -> dict[str, Any]:
        """An entity's model; raises UNKNOWN_ENTITY (with the closest declared name) when there is none."""
        entity = self.entities.get(name) if isinstance(name, str) else None
        if entity is None:
            raise SingleTableError('UNKNOWN_ENTITY', f'is not declared in the manifest; {did_you_mean(str(name), self.entities)}known entities: {", ".join(self.entities)}', entity=str(name))
        return entity

    def pattern(self, name: str) -> dict[str, Any]:
        """A pattern's model; raises UNKNOWN_PATTERN (with the closest declared name) when there is none."""
        pattern = self.patterns.get(name) if isinstance(name, str) else None
        if pattern is None:
            raise SingleTableError('UNKNOWN_PATTERN', f'is not declared in the manifest; {did_you_mean(str(name), self.patterns)}known patterns: {", ".join(self.patterns)}', pattern=str(name))
        return pattern

    def entity_keys(self, name: str) -> EntityKeys:
        """An entity's key templates, compiled at first use."""
        keys = self._entity_keys.get(name)
        if keys is None:
            keys = self._entity_keys[name] = EntityKeys(self, self.entity(name))
        return keys

    def pattern_keys(self, name: str) -> PatternKeys:
        """A pattern's key templates, compiled at first use."""
        keys = self._pattern_keys.get(name)
        if keys is None:
            pattern = self.pattern(name)
            if 'pk' not in pattern:
                # A GSI keyed on the items' own attributes composes no key: the query compares the attributes.
                keys = self._pattern_keys[name] = AttributePatternKeys(self, pattern)  # type: ignore[assignment]
                return keys
            keys = self._pattern_keys[name] = PatternKeys(self, pattern)
        return keys


MODEL_ENV = 'SINGLE_TABLE_MODEL'


def load_model(document: Mapping[str, Any] | str | os.PathLike[str]) -> Model:
    """The model of a compiled model file: its dict, or the path of the JSON file. Raises INVALID_MODEL, naming
    the path, when the file cannot be read as JSON or is not a compiled model file this runtime reads."""
    if isinstance(document, (str, os.PathLike)):
        return _model_file(os.fspath(document), '')
    problem = _document_problem(document)
    if problem:
        raise SingleTableError('INVALID_MODEL', problem)
    return Model(document['model'])  # type: ignore[index]


def deployed_model() -> Model:
    """The model of the table a function is connected to: the compiled model file at the path in SINGLE_TABLE_MODEL
    (``connect`` puts it in the function's model layer). Raises MODEL_MISSING when the variable is unset, INVALID_MODEL
    when the file cannot be read or is not a compiled model file."""
    path = os.environ.get(MODEL_ENV)
    if not path:
        raise SingleTableError('MODEL_MISSING', f'{MODEL_ENV} is not set, so there is no deployed model to read. In a Lambda, connect the function '
                               'to its table with `table.connect(fn, ...)` (it adds the model layer and sets the variable); in tests and scripts, '
                               'pass `model` (a compiled model file) to `open_table`')
    return _model_file(path, f' ({MODEL_ENV})')


def _model_file(path: str, source: str) -> Model:
    try:
        with open(path, encoding='utf-8') as f:
            document = json.load(f)
    except (OSError, ValueError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise SingleTableError('INVALID_MODEL', f'the compiled model file {path}{source} cannot be read as JSON: {reason}') from e
    problem = _document_problem(document)
    if problem:
        raise SingleTableError('INVALID_MODEL', f'{path}{source}: {problem}')
    return Model(document['model'])


def _document_problem(document: Any) -> str | None:
    """Why a value is not a compiled model file this runtime reads; None when it is one."""
    if not isinstance(document, Mapping) or document.get('format') != MODEL_FORMAT:
        return (f'expected a compiled model file (format {MODEL_FORMAT}); write one with `single-table generate <manifest>` '
                'and pass the .model.json it writes')
    model = document.get('model')
    if document.get('formatVersion') != MODEL_FORMAT_VERSION or not isinstance(model, dict) or not isinstance(model.get('fingerprint'), str):
        return (f'the compiled model file has format version {document.get("formatVersion")}; this runtime reads version {MODEL_FORMAT_VERSION}. '
                'Regenerate it with the matching `single-table generate <manifest>`')
    return None
