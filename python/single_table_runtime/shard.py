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
