"""Shard choice for write-sharded GSI partition keys (lib/keys/shard.ts): FNV-1a over the UTF-16
code units, mixed by Murmur3's finalizer, modulo the shard count. A shard is a suffix segment."""
from __future__ import annotations

import sys
from array import array

_MASK = 0xFFFFFFFF


def _units(text: str) -> bytes | array:
    if text.isascii():
        return text.encode('ascii')  # one UTF-16 unit per character, as its byte
    units = array('H', text.encode('utf-16-le', 'surrogatepass'))
    if sys.byteorder == 'big':
        units.byteswap()
    return units


def fnv1a(text: str) -> int:
    h = 0x811C9DC5
    for unit in _units(text):
        h = ((h ^ unit) * 0x01000193) & _MASK
    return h


def mix32(h: int) -> int:
    h = ((h ^ (h >> 16)) * 0x85EBCA6B) & _MASK
    h = ((h ^ (h >> 13)) * 0xC2B2AE35) & _MASK
    return h ^ (h >> 16)


def shard_for_item(table_pk: str, table_sk: str, shard_count: int) -> int:
    """RANDOM strategy: from the item's table key, so an item keeps its shard across writes."""
    return mix32(fnv1a(table_pk + '\u0000' + table_sk)) % shard_count


def shard_for_value(encoded_segment: str, shard_count: int) -> int:
    """ATTRIBUTE strategy: from the shard attribute's encoded key segment."""
    return mix32(fnv1a(encoded_segment)) % shard_count


def sharded_key(base_key: str, shard: int, delimiter: str) -> str:
    return base_key + delimiter + str(shard)
