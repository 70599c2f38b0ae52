"""Value encoding for key segments, the same text the Node.js runtime writes (lib/keys/encoding.ts).

Three promises: injective (distinct values of one kind never share a segment), order-preserving
(segments compare as UTF-8 bytes the way their values compare) and delimiter-free. Strings escape
every character up to the escape character (the delimiter's code point plus one) as the escape
character and ``chr(0x41 + code)``; numbers are a sign class, a biased decimal exponent and the
shortest round-trip digits; dates are ISO-8601 UTC with milliseconds.
"""
from __future__ import annotations

import math
import re
from datetime import datetime, timezone
from decimal import Decimal
from functools import lru_cache
from typing import Any

MAX_PARTITION_KEY_BYTES = 2048
MAX_SORT_KEY_BYTES = 1024
EXPONENT_BIAS = 500

DATE_RULE = 'a Date or an ISO-8601 date string (stored as ISO-8601 UTC)'
UNPAIRED_SURROGATE = 'holds an unpaired UTF-16 surrogate: DynamoDB keys are UTF-8, which has no form for it'
KEY_NUMBER_RULE = ("a finite number a key holds exactly: a float, or an int or Decimal spelling a float's shortest digits "
                   "(Decimal('0.1'), 10**23; not 2**53 + 1, whose key would be another number's)")
KEYABLE_KINDS = frozenset(('STRING', 'NUMBER', 'DATE', 'BOOLEAN'))


class Invalid:
    """Why a given value cannot be a key segment (the encoders' failure; absent values are None)."""

    __slots__ = ('error',)

    def __init__(self, error: str) -> None:
        self.error = error

    def __repr__(self) -> str:
        return f'Invalid({self.error!r})'


def escape_char_for(delimiter: str) -> str:
    return chr(ord(delimiter) + 1)


@lru_cache(maxsize=None)
def _escapable(escape_char: str) -> re.Pattern[str]:
    # Characters up to the escape character, and surrogates (only ever unpaired in a Python str).
    return re.compile('[\\x00-' + re.escape(escape_char) + '\\ud800-\\udfff]')


_SURROGATE = re.compile('[\\ud800-\\udfff]')


def encode_string(value: str, escape_char: str) -> str | None:
    """Escapes a string for a key segment; None when it holds a surrogate (no UTF-8 form)."""
    if _escapable(escape_char).search(value) is None:
        return value
    if _SURROGATE.search(value):
        return None
    return _escapable(escape_char).sub(lambda m: escape_char + chr(0x41 + ord(m.group())), value)


def decode_string(segment: str, escape_char: str) -> str:
    if escape_char not in segment:
        return segment
    out = []
    i = 0
    while i < len(segment):
        c = segment[i]
        if c == escape_char:
            i += 1
            out.append(chr(ord(segment[i]) - 0x41))
        else:
            out.append(c)
        i += 1
    return ''.join(out)


def _shortest_digits(magnitude: float) -> tuple[str, int]:
    """The shortest round-trip decimal digits of a positive float and its decimal exponent (as JavaScript's toExponential)."""
    text = repr(magnitude)
    mantissa, _, exp = text.partition('e')
    whole, _, fraction = mantissa.partition('.')
    digits = whole + fraction
    exponent = (int(exp) if exp else 0) + len(whole) - 1
    stripped = digits.lstrip('0')
    exponent -= len(digits) - len(stripped)
    return stripped.rstrip('0') or '0', exponent


@lru_cache(maxsize=4096)
def encode_number(value: float) -> str:
    """Order-preserving encoding of a finite number: ``P`` + biased exponent + digits, or ``N`` + complements + ``~``."""
    if value == 0:
        return 'P000'
    digits, exponent = _shortest_digits(abs(float(value)))
    if value > 0:
        return 'P' + str(exponent + EXPONENT_BIAS).zfill(3) + digits
    complement = digits.translate(_NINES)
    return 'N' + str(EXPONENT_BIAS - 1 - exponent).zfill(3) + complement + '~'


_NINES = str.maketrans('0123456789', '9876543210')


def decode_number(segment: str) -> float:
    if segment == 'P000':
        return 0.0
    negative = segment[0] == 'N'
    biased = int(segment[1:4])
    digits = segment[4:-1] if negative else segment[4:]
    if negative:
        digits = digits.translate(_NINES)
    exponent = EXPONENT_BIAS - 1 - biased if negative else biased - EXPONENT_BIAS
    magnitude = float(f'{digits[0]}.{digits[1:] or "0"}e{exponent}')
    return -magnitude if negative else magnitude


NUMBER_SEGMENT = re.compile(r'P000|P[0-9]{3}[1-9][0-9]*|N[0-9]{3}[0-8][0-9]*~')
DATE_SEGMENT = re.compile(r'[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z')
_ISO_DATE = re.compile(
    r'([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]+))?)?(?:Z|([+-])([0-9]{2}):?([0-9]{2}))?)?')
_DAY_MS = 86_400_000


def _days_from_civil(y: int, m: int, d: int) -> int:
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _civil_from_days(z: int) -> tuple[int, int, int]:
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (m <= 2), m, d


def _leap(y: int) -> bool:
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _iso_of_ms(time: int) -> str | None:
    days, ms = divmod(time, _DAY_MS)
    y, m, d = _civil_from_days(days)
    if not 0 <= y <= 9999:
        return None
    s, milli = divmod(ms, 1000)
    minutes, sec = divmod(s, 60)
    hour, minute = divmod(minutes, 60)
    return f'{y:04d}-{m:02d}-{d:02d}T{hour:02d}:{minute:02d}:{sec:02d}.{milli:03d}Z'


def _parse_iso(text: str) -> int | None:
    """The instant (ms since the epoch) an ISO-8601 string names: every field in range, no offset meaning UTC."""
    m = _ISO_DATE.fullmatch(text)
    if not m:
        return None
    y, mo, d = int(m[1]), int(m[2]), int(m[3])
    hour, minute, sec = int(m[4] or 0), int(m[5] or 0), int(m[6] or 0)
    milli = int((m[7] or '')[:3].ljust(3, '0'))
    if not 1 <= mo <= 12 or not 1 <= d <= (29 if mo == 2 and _leap(y) else _MONTH_DAYS[mo - 1]):
        return None
    if hour > 23 or minute > 59 or sec > 59:
        return None
    oh, om = int(m[9] or 0), int(m[10] or 0)
    if oh > 23 or om > 59:
        return None
    time = _days_from_civil(y, mo, d) * _DAY_MS + ((hour * 60 + minute) * 60 + sec) * 1000 + milli
    sign = -1 if m[8] == '-' else 1 if m[8] else 0
    return time - sign * (oh * 60 + om) * 60000


_NORMALIZED = re.compile(
    r'[0-9]{4}-((0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])|(0[13-9]|1[0-2])-(29|30)|(0[13578]|1[02])-31)T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\.[0-9]{3}Z')
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


# The last string normalize_date returned: a put checks its date once as a value and again as a key segment.
_last_normalized: list[str | None] = [None]


def normalize_date(value: Any) -> str | None:
    """A date as ISO-8601 UTC with milliseconds (years 0000 to 9999), or None.

    Takes a ``datetime`` (a naive one is read as UTC, as a string without an offset is; below a
    millisecond is cut, as JavaScript's Date holds none) or an ISO-8601 string.
    """
    if isinstance(value, str):
        if value == _last_normalized[0]:
            return value
        if _NORMALIZED.fullmatch(value):
            _last_normalized[0] = value
            return value
        time = _parse_iso(value)
        return None if time is None else _iso_of_ms(time)
    if isinstance(value, datetime):
        aware = value if value.tzinfo is not None and value.utcoffset() is not None else value.replace(tzinfo=timezone.utc)
        delta = aware - _EPOCH
        return _iso_of_ms((delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000)
    return None


def describe(value: Any) -> str:
    """A short description of a value for error messages."""
    if value is None:
        return 'None'
    if isinstance(value, datetime):
        return f'datetime({value.isoformat()})'
    if isinstance(value, str):
        return repr(value[:40] + '…' if len(value) > 40 else value)
    if isinstance(value, (dict, list, tuple, set)):
        return f'a {type(value).__name__}'
    text = repr(value)
    return text if text.startswith(type(value).__name__) else f'{type(value).__name__} {text}'


def must_be(rule: str, value: Any) -> str:
    return f'must be {rule}, got {describe(value)}'


def number_of(value: Any) -> float | None:
    """The float a key's NUMBER value stands for, when the key's segment (a float's shortest digits, as the
    Node.js runtime writes) holds the value exactly: any finite float; an int or ``Decimal`` whose value those
    digits spell (``10**23`` is ``1e23``'s, ``Decimal('0.1')`` is ``0.1``'s; ``2**53 + 1`` is no float's). A bool is not a number."""
    kind = value.__class__
    if kind is float:
        return value if math.isfinite(value) else None
    if kind is int or (isinstance(value, int) and not isinstance(value, bool)):
        if -_EXACT_INT <= value <= _EXACT_INT:
            return float(value)
        try:
            f = float(value)
        except OverflowError:
            return None
        return f if _as_shortest(f) == value else None
    if isinstance(value, Decimal) and value.is_finite():
        f = float(value)
        return f if math.isfinite(f) and _as_shortest(f) == value else None
    return None


_EXACT_INT = 2 ** 53


def _as_shortest(f: float) -> Decimal:
    """The value a float's shortest round-trip digits spell: what its key segment and its stored text hold."""
    return Decimal(repr(f))


def string_segment(value: Any, escape_char: str) -> str | Invalid:
    if not isinstance(value, str):
        return Invalid(must_be('a string', value))
    encoded = encode_string(value, escape_char)
    return Invalid(UNPAIRED_SURROGATE) if encoded is None else encoded


def number_segment(value: Any, _escape_char: str = '') -> str | Invalid:
    n = number_of(value)
    if n is None:
        return Invalid(must_be(KEY_NUMBER_RULE, value))
    return encode_number(n)


def date_segment(value: Any, _escape_char: str = '') -> str | Invalid:
    iso = normalize_date(value)
    return Invalid(must_be(DATE_RULE, value)) if iso is None else iso


def boolean_segment(value: Any, _escape_char: str = '') -> str | None | Invalid:
    if not isinstance(value, bool):
        return Invalid(must_be('a boolean', value))
    return 'true' if value else None


def shard_segment(value: Any, _escape_char: str = '') -> str | Invalid:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return str(value)
    return Invalid(must_be('a shard number', value))


SEGMENT_ENCODERS = {'STRING': string_segment, 'NUMBER': number_segment, 'DATE': date_segment, 'BOOLEAN': boolean_segment, 'SHARD': shard_segment}


def bound_encoder(kind: str, escape_char: str) -> Any:
    """The segment encoder of a kind for one escape character, taking the value alone: an entity's keys compile theirs once."""
    if kind == 'STRING':
        search = _escapable(escape_char).search

        def encode_string_segment(value: Any) -> str | Invalid:
            # Most strings need no escape: one regular expression search tells.
            if value.__class__ is str and search(value) is None:
                return value
            return string_segment(value, escape_char)
        return encode_string_segment
    encode = SEGMENT_ENCODERS.get(kind)
    if encode is None:
        return lambda value: Invalid(f'has type {kind}, which cannot be part of a key')
    return encode  # the other kinds never escape: their encoders take the value alone


def encode_value(kind: str, value: Any, escape_char: str) -> str | None | Invalid:
    """One attribute value as a key segment; None when absent (None, '' or False), or why it cannot be one."""
    if value is None or value == '':
        return None
    encode = SEGMENT_ENCODERS.get(kind)
    if encode is None:
        return Invalid(f'has type {kind}, which cannot be part of a key')
    return encode(value, escape_char)


def utf8_length(text: str) -> int:
    return len(text.encode('utf-8', 'surrogatepass'))
