"""The compiled model file (lib/model/format.ts, lib/model/schema.json): what every runtime loads.

A file of another format or version is refused rather than misread. The model stays plain data
(the file's dicts); what every put and query needs from it is worked out once, lazily, here.
"""
from __future__ import annotations

import json
import os
from typing import Any

from .attribute_keys import AttributePatternKeys
from .errors import SingleTableError
from .keys import EntityKeys, PatternKeys

MODEL_FORMAT = 'cdk-single-table/model'
MODEL_FORMAT_VERSION = 3
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
        self.strip = frozenset(self.key_attributes) | {self.type_attribute}
        self._entity_keys: dict[str, EntityKeys] = {}
        self._pattern_keys: dict[str, PatternKeys] = {}

    def entity(self, name: str) -> dict[str, Any]:
        entity = self.entities.get(name) if isinstance(name, str) else None
        if entity is None:
            raise SingleTableError('UNKNOWN_ENTITY', f'is not declared in the manifest; known entities: {", ".join(self.entities)}', entity=str(name))
        return entity

    def pattern(self, name: str) -> dict[str, Any]:
        pattern = self.patterns.get(name) if isinstance(name, str) else None
        if pattern is None:
            raise SingleTableError('UNKNOWN_PATTERN', f'is not declared in the manifest; known patterns: {", ".join(self.patterns)}', pattern=str(name))
        return pattern

    def entity_keys(self, name: str) -> EntityKeys:
        keys = self._entity_keys.get(name)
        if keys is None:
            keys = self._entity_keys[name] = EntityKeys(self, self.entity(name))
        return keys

    def pattern_keys(self, name: str) -> PatternKeys:
        keys = self._pattern_keys.get(name)
        if keys is None:
            pattern = self.pattern(name)
            if 'pk' not in pattern:
                # A GSI keyed on the items' own attributes composes no key: the query compares the attributes.
                keys = self._pattern_keys[name] = AttributePatternKeys(self, pattern)  # type: ignore[assignment]
                return keys
            keys = self._pattern_keys[name] = PatternKeys(self, pattern)
        return keys


def load_model(document: Any) -> Model:
    """The model of a compiled model file (a dict, or the path of the JSON file); raises INVALID_MODEL otherwise."""
    if isinstance(document, (str, os.PathLike)):
        with open(document, encoding='utf-8') as f:
            document = json.load(f)
    if not isinstance(document, dict) or document.get('format') != MODEL_FORMAT:
        raise SingleTableError('INVALID_MODEL', f'expected a compiled model file (format {MODEL_FORMAT}); write one with '
                               '`single-table generate <manifest>` and pass the .model.json it writes')
    model = document.get('model')
    if document.get('formatVersion') != MODEL_FORMAT_VERSION or not isinstance(model, dict) or not isinstance(model.get('fingerprint'), str):
        raise SingleTableError('INVALID_MODEL', f'the compiled model file has format version {document.get("formatVersion")}; this runtime reads version '
                               f'{MODEL_FORMAT_VERSION}. Regenerate it with the matching `single-table generate <manifest>`')
    return Model(model)
