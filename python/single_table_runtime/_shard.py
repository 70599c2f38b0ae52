"""Shard choice for write-sharded GSI partition keys (lib/keys/shard.ts): FNV-1a over the UTF-16
code units, mixed by Murmur3's finalizer, modulo the shard count. A shard is a suffix segment."""
from __future__ import annotations

import sys
from array import array

def _units(text: str) -> array:
    units = array('H', text.encode('utf-16-le', 'surrogatepass'))
    if sys.byteorder == 'big':
        units.byteswap()
    return units


FNV_OFFSET = 0x811C9DC5


def fnv1a(text: str, h: int = FNV_OFFSET) -> int:
    """FNV-1a of the text's UTF-16 code units, from state ``h`` (the state after a known prefix continues it)."""
    # An ASCII text's UTF-16 code units are its bytes.
    for unit in text.encode('ascii') if text.isascii() else _units(text):
        h = ((h ^ unit) * 0x01000193) & 0xFFFFFFFF
    return h


class Literal:
    """FNV-1a over a known ASCII text from any state in one step. XOR with a byte changes only the low byte, and
    the low byte of a product depends only on the factors' low bytes, so the state after the text is
    ``h * P^n + offset[h & 0xFF]`` (mod 2^32): the offsets are worked out once, from each low byte."""

    __slots__ = ('factor', 'offsets', 'text')

    def __init__(self, text: str) -> None:
        self.text = text
        self.factor = pow(0x01000193, len(text), 1 << 32)
        self.offsets = tuple((fnv1a(text, x) - x * self.factor) & 0xFFFFFFFF for x in range(256)) if text.isascii() else None

    def after(self, h: int) -> int:
        if self.offsets is None:
            return fnv1a(self.text, h)
        return (h * self.factor + self.offsets[h & 0xFF]) & 0xFFFFFFFF


def mix32(h: int) -> int:
    h = ((h ^ (h >> 16)) * 0x85EBCA6B) & 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 0xC2B2AE35) & 0xFFFFFFFF
    return h ^ (h >> 16)


def shard_for_item(table_pk: str, table_sk: str, shard_count: int) -> int:
    """RANDOM strategy: from the item's table key, so an item keeps its shard across writes."""
    return mix32(fnv1a(table_pk + '\u0000' + table_sk)) % shard_count


def shard_for_value(encoded_segment: str, shard_count: int) -> int:
    """ATTRIBUTE strategy: from the shard attribute's encoded key segment."""
    return mix32(fnv1a(encoded_segment)) % shard_count


def sharded_key(base_key: str, shard: int, delimiter: str) -> str:
    return base_key + delimiter + str(shard)
