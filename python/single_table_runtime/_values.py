"""Attribute values checked against their declared kinds and converted to DynamoDB AttributeValues
(and back), before any key is composed: a bad value is reported with its entity and attribute."""
from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any, Callable, Mapping

from ._encoding import DATE_RULE, _shortest_digits, must_be, normalize_date
from ._errors import SingleTableError, did_you_mean


# Every int of fewer than 39 digits is storable: the common case, told by one comparison.
_MAX_SHORT_INT = 10 ** 38


def storable_number(n: Any) -> bool:
    """Whether DynamoDB can store a number: an int, float or Decimal of at most 38 significant digits, 0 or of
    magnitude 1e-130 to below 1e126 (a bool is not a number)."""
    if n.__class__ is float:
        m = abs(n)
        return m == 0 or 1e-130 <= m < 1e126
    if n.__class__ is int and -_MAX_SHORT_INT < n < _MAX_SHORT_INT:
        return True
    if isinstance(n, bool) or not isinstance(n, (int, float, Decimal)):
        return False
    if isinstance(n, int):
        digits = str(abs(n)).rstrip('0')
        return len(str(abs(n))) <= 126 and len(digits) <= 38
    if isinstance(n, float):
        m = abs(n)
        return m == 0 or 1e-130 <= m < 1e126
    if not n.is_finite():
        return False
    if n.is_zero():
        return True
    # Significant digits, counted exactly (normalize() would round to the context's 28).
    return len(''.join(map(str, n.as_tuple().digits)).strip('0')) <= 38 and _DECIMAL_MIN <= abs(n) < _DECIMAL_MAX


_DECIMAL_MIN = Decimal('1e-130')
_DECIMAL_MAX = Decimal('1e126')


def number_text(n: int | float | Decimal) -> str:
    """A number's text as the Node.js runtime sends it (JavaScript's String of a double, for a float)."""
    return js_number_text(n) if isinstance(n, float) else str(n)


@lru_cache(maxsize=4096)
def js_number_text(n: float) -> str:
    """JavaScript's Number#toString of a finite double: the shortest round-trip digits, in its notation."""
    if n == 0:
        return '0'
    digits, exponent = _shortest_digits(abs(n))
    sign = '-' if n < 0 else ''
    k, e = len(digits), exponent + 1
    if k <= e <= 21:
        return sign + digits + '0' * (e - k)
    if 0 < e <= 21:
        return sign + digits[:e] + '.' + digits[e:]
    if -6 < e <= 0:
        return sign + '0.' + '0' * -e + digits
    mantissa = digits[0] + ('.' + digits[1:] if k > 1 else '')
    return f"{sign}{mantissa}e{'+' if e - 1 >= 0 else '-'}{abs(e - 1)}"


def _set_value(value: Any, only: str | None = None) -> dict[str, Any] | None:
    members = list(value)
    if not members:
        return None
    if only in (None, 'string') and all(isinstance(v, str) for v in members):
        return {'SS': members}
    if only in (None, 'number') and all(storable_number(v) for v in members):
        return {'NS': [number_text(v) for v in members]}
    return None


def to_attribute_value(value: Any) -> dict[str, Any] | None:
    """A nested Python value as an AttributeValue; None when it cannot be stored."""
    kind = value.__class__
    if kind is str:
        return {'S': value}
    if kind is dict:
        out = {}
        for k, v in value.items():
            # Strings and short ints, the common members, without a call.
            c = v.__class__
            av = {'S': v} if c is str else {'N': str(v)} if c is int and -_MAX_SHORT_INT < v < _MAX_SHORT_INT else to_attribute_value(v)
            if av is None or k.__class__ is not str:
                return None
            out[k] = av
        return {'M': out}
    if kind is list:
        items = [to_attribute_value(v) for v in value]
        return None if None in items else {'L': items}
    if kind is int or kind is float:
        return {'N': number_text(value)} if storable_number(value) else None
    if isinstance(value, str):
        return {'S': value}
    if isinstance(value, bool):
        return {'BOOL': value}
    if isinstance(value, (int, float, Decimal)):
        return {'N': number_text(value)} if storable_number(value) else None
    if value is None:
        return {'NULL': True}
    if isinstance(value, (list, tuple)):
        items = [to_attribute_value(v) for v in value]
        return None if any(v is None for v in items) else {'L': items}
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                return None
            av = to_attribute_value(v)
            if av is None:
                return None
            out[k] = av
        return {'M': out}
    if isinstance(value, datetime):
        iso = normalize_date(value)
        return None if iso is None else {'S': iso}
    if isinstance(value, (bytes, bytearray)):
        return {'B': bytes(value)}
    if isinstance(value, (set, frozenset)):
        return _set_value(value)
    return None


# Number.MAX_SAFE_INTEGER: the Node.js runtime reads every whole number up to it as that number.
_MAX_SAFE = 2 ** 53 - 1


def number_value(text: str) -> int | float | Decimal:
    """A stored number as the value its digits stand for (DynamoDB keeps no type, only the digits):

    - a whole number up to 2**53 - 1 in magnitude: an ``int``;
    - digits a float prints as (its shortest round-trip form, ``repr``), whole or not: that ``float``,
      the number the Node.js runtime reads (``1e23``, ``2.0**60``, ``0.1``);
    - any other whole number: an ``int`` with every digit; any other fraction: a ``Decimal`` with every digit.
    """
    if '.' in text or 'e' in text or 'E' in text:
        f = float(text)
        if repr(f) == text and not f.is_integer():
            return f  # DynamoDB's text is most often the float's own repr
        d = Decimal(text)
        if d == d.to_integral_value():
            return number_value(str(int(d)))
        return f if Decimal(repr(f)) == d else d
    n = int(text)
    if -_MAX_SAFE <= n <= _MAX_SAFE:
        return n
    f = float(n)
    return f if shortest_digits_of(f) == text.lstrip('-') else n


def shortest_digits_of(f: float) -> str:
    """The whole number a float's shortest round-trip digits spell (``1e23`` -> ``'1' + 23 zeros``)."""
    digits, exponent = _shortest_digits(abs(f))
    return digits.ljust(exponent + 1, '0') if exponent + 1 >= len(digits) else ''


def from_attribute_value(av: dict[str, Any]) -> Any:
    if 'S' in av:
        return av['S']
    if 'N' in av:
        return number_value(av['N'])
    if 'BOOL' in av:
        return av['BOOL']
    if 'M' in av:
        return from_item(av['M'])
    if 'L' in av:
        return [from_attribute_value(v) for v in av['L']]
    if 'SS' in av:
        return set(av['SS'])
    if 'NS' in av:
        return {number_value(v) for v in av['NS']}
    if 'B' in av:
        return av['B']
    if 'BS' in av:
        return set(av['BS'])
    return None


def from_item(item: Mapping[str, Any], skip: frozenset[str] | set[str] = frozenset()) -> dict[str, Any]:
    return {k: from_attribute_value(v) for k, v in item.items() if k not in skip}


Check = Callable[[Any], 'dict[str, Any] | None']


def _date(v: Any) -> dict[str, Any] | None:
    iso = normalize_date(v)
    return None if iso is None else {'S': iso}


KINDS: dict[str, tuple[str, Check]] = {
    'STRING': ('a string', lambda v: {'S': v} if v.__class__ is str or isinstance(v, str) else None),
    'NUMBER': ('a finite number DynamoDB can store (0, or magnitude 1e-130 to below 1e126)',
               lambda v: {'N': number_text(v)} if storable_number(v) else None),
    'BOOLEAN': ('a boolean', lambda v: {'BOOL': v} if isinstance(v, bool) else None),
    'DATE': (DATE_RULE + '; a naive datetime is read as UTC', _date),
    'LIST': ('a list of storable values', lambda v: to_attribute_value(v) if isinstance(v, (list, tuple)) else None),
    'MAP': ('a dict of storable values', lambda v: to_attribute_value(v) if isinstance(v, Mapping) else None),
    'STRING_SET': ('a non-empty set of strings', lambda v: _set_value(v, 'string') if isinstance(v, (set, frozenset)) else None),
    'NUMBER_SET': ('a non-empty set of storable numbers', lambda v: _set_value(v, 'number') if isinstance(v, (set, frozenset)) else None),
}


def checked_value(entity: str, attribute: str, kind: str, value: Any) -> dict[str, Any]:
    rule, check = KINDS[kind]
    av = check(value)
    if av is None:
        raise SingleTableError('INVALID_VALUE', must_be(rule, value), entity=entity, attribute=attribute)
    return av


def attribute_of(entity: dict[str, Any], name: str) -> dict[str, Any]:
    attr = entity['attributes'].get(name)
    if attr is None:
        raise unknown_attribute(entity, name)
    return attr


def unknown_attribute(entity: dict[str, Any], name: Any) -> SingleTableError:
    return SingleTableError('UNKNOWN_ATTRIBUTE', f"is not declared; {did_you_mean(str(name), entity['attributes'])}declared attributes: {', '.join(entity['attributes'])}",
                            entity=entity['name'], attribute=str(name))


def item_attributes(entity: dict[str, Any], item: Any, checks: list[tuple[str, str, Check, bool]]) -> dict[str, Any]:
    """Every given attribute declared and of its kind (``checks``: the entity's, as EntityKeys compiles them), every
    required one present (None counts as not given)."""
    name = entity['name']
    if item.__class__ is not dict and not isinstance(item, Mapping):
        raise SingleTableError('INVALID_VALUE', 'the item ' + must_be('a dict', item), entity=name)
    out: dict[str, Any] = {}
    get = item.get
    for key, kind, check, required in checks:
        value = get(key)
        if value is None:
            if required:
                raise SingleTableError('MISSING_ATTRIBUTE', 'is required', entity=name, attribute=key)
            continue
        av = check(value)
        if av is None:
            raise SingleTableError('INVALID_VALUE', must_be(KINDS[kind][0], value), entity=name, attribute=key)
        out[key] = av
    if len(out) != len(item) and len(out) != sum(1 for v in item.values() if v is not None):
        for key, value in item.items():
            if value is not None and key not in entity['attributes']:
                raise unknown_attribute(entity, key)
    return out
