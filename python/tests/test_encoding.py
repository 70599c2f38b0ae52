"""The encoding's promises, property-tested on the Python side: reversible, order-preserving in
UTF-8 bytes (DynamoDB's order), and never holding the delimiter."""
from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from properties import asserted
from single_table_runtime._encoding import (decode_number, decode_string, encode_number, encode_string, escape_char_for, normalize_date,
                                           number_segment)

DELIMITERS = '!#$%&*+'
finite = st.floats(allow_nan=False, allow_infinity=False)
# Delimiters and escape characters drawn often: the characters the encoding has to escape.
text = st.text(alphabet=st.one_of(st.sampled_from(DELIMITERS + ''.join(escape_char_for(d) for d in DELIMITERS)),
                                  st.characters(blacklist_categories=('Cs',))), max_size=12)


def utf8(s: str) -> bytes:
    return s.encode('utf-8')


@settings(max_examples=150)
@given(finite, finite)
def test_numbers_sort_as_their_segments_sort_and_read_back(a: float, b: float) -> None:
    x, y = encode_number(a), encode_number(b)
    assert decode_number(x) == a and decode_number(y) == b
    assert (a < b) == (utf8(x) < utf8(y)) and (a == b) == (x == y)
    asserted()


@settings(max_examples=150)
@given(st.sampled_from(DELIMITERS), st.lists(text, min_size=2, max_size=2, unique=True), text)
def test_strings_keep_their_order_also_followed_by_more_segments(delimiter: str, pair: list[str], tail: str) -> None:
    a, b = pair
    escape = escape_char_for(delimiter)
    x, y = encode_string(a, escape), encode_string(b, escape)
    assert x is not None and y is not None and delimiter not in x
    assert decode_string(x, escape) == a
    assert (utf8(a) < utf8(b)) == (utf8(x + delimiter + tail) < utf8(y + delimiter))
    asserted()


@given(st.integers(min_value=-(2 ** 53), max_value=2 ** 53))
def test_an_int_encodes_as_the_float_it_equals(n: int) -> None:
    assert number_segment(n) == encode_number(float(n))
    asserted()


def test_an_int_no_float_holds_exactly_is_refused_rather_than_rounded_onto_another_value() -> None:
    assert not isinstance(number_segment(2 ** 53 + 1), str)
    assert not isinstance(number_segment(True), str) and not isinstance(number_segment(math.inf), str)


@given(st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(timezone(timedelta(hours=-3, minutes=-30)))))
def test_an_aware_datetime_is_the_utc_instant_and_a_naive_one_is_read_as_utc(moment: datetime) -> None:
    iso = normalize_date(moment)
    utc = moment.astimezone(timezone.utc)
    assert iso == f'{utc.year:04d}-{utc:%m-%dT%H:%M:%S}.{utc.microsecond // 1000:03d}Z'
    assert normalize_date(utc.replace(tzinfo=None)) == iso
    assert normalize_date(iso) == iso
    asserted()
