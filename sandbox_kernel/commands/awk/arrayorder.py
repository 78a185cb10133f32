"""The order gawk 5.2's ``for (k in a)`` visits the keys of an array.

gawk picks an array's storage from its first subscript, and the order follows the storage:

* first subscript a non-negative integer below 2^31 ("cint" array): such integers come out in
  ascending order, after all other subscripts, which live in a second array chosen the same
  way by the first of them;
* first subscript another integer ("int" array): the non-integer strings first, then the
  integers;
* otherwise (string array): a chained hash table of 13, 127, 1021, 8191... buckets (grown
  when it holds more than twice as many keys as buckets, rehashing chain by chain), visited
  bucket by bucket, each chain newest first; the hash is sdbm (h = c + 65599 h) in 32 bits
  over the subscript's bytes, taken as signed chars.

"Integer" means the text of a decimal integer: no sign but "-", no leading zero, no spaces.
The order is worked out from the keys present, in the order they were added (a Python dict
keeps it), which is exact when nothing was deleted. Not reproduced (checked against gawk,
documented here): the order among integers in an "int" array (negative subscripts, or
integers of 2^31 and more; they keep insertion order here); very sparse non-negative
integers, which gawk moves out of its power-of-two blocks once they would waste more than
2048 slots (sorted here with the rest); and deletions, which change when gawk grows its
hash table, and after which the deleted first subscript still decides gawk's storage (here
the keys left are replayed as if never deleted). gawk's PROCINFO["sorted_in"] is not
supported by this awk.
"""
from __future__ import annotations

import re
from operator import mul

_UINT = re.compile(r"(?:0|[1-9][0-9]{0,9})\Z")
_INT = re.compile(r"-?[1-9][0-9]{0,18}\Z|0\Z")
_CINT_MAX = 2147483647
_LONG_MIN, _LONG_MAX = -(1 << 63), (1 << 63) - 1
_SIZES = (13, 127, 1021, 8191, 131071, 1048573, 8388593, 16777213, 33554393, 67108859,
          134217689, 268435399, 536870909, 1073741789, 2147483647)
_CHAIN_MAX = 2

_hash_cache: dict[str, int] = {}


def _is_cint(key: str) -> bool:
    return _UINT.match(key) is not None and int(key) <= _CINT_MAX


def _is_int(key: str) -> bool:
    return _INT.match(key) is not None and _LONG_MIN <= int(key) <= _LONG_MAX


def forin_order(keys: list[str], encode) -> list[str]:
    """``keys`` (insertion order) in gawk's order; ``encode`` gives a key's bytes."""
    if len(keys) < 2:
        return keys
    first = keys[0]
    if _is_cint(first):
        small: list[str] = []
        rest: list[str] = []
        for k in keys:
            (small if _is_cint(k) else rest).append(k)
        small.sort(key=int)
        return forin_order(rest, encode) + small if rest else small
    if _is_int(first):
        ints = [k for k in keys if _is_int(k)]
        if len(ints) == len(keys):
            return keys
        return _str_order([k for k in keys if not _is_int(k)], encode) + ints
    return _str_order(keys, encode)


_powers: dict[int, list[int]] = {}  # by key length: 65599^(n-1-i) mod 2^32


def _sdbm(key: str, encode) -> int:
    if key.isascii():
        # the polynomial sum(c_i * 65599^(n-1-i)) mod 2^32, evaluated in C
        n = len(key)
        powers = _powers.get(n)
        if powers is None:
            powers = [pow(65599, n - 1 - i, 1 << 32) for i in range(n)]
            if n <= 256:
                _powers[n] = powers
        return sum(map(mul, key.encode("ascii"), powers)) & 0xFFFFFFFF
    h = 0
    for c in encode(key):
        if c > 127:
            c -= 256  # gawk hashes through a signed char
        h = (c + (h << 6) + (h << 16) - h) & 0xFFFFFFFF
    return h


def _str_order(keys: list[str], encode) -> list[str]:
    """Replay the insertions into gawk's string hash table and read it out."""
    cache = _hash_cache
    if len(cache) > 1_000_000:
        cache.clear()
    codes = []
    for k in keys:
        h = cache.get(k)
        if h is None:
            h = _sdbm(k, encode)
            if k.isascii():  # other text hashes by the locale's bytes
                cache[k] = h
        codes.append(h)
    size = _SIZES[0]
    buckets: list[list] = [[] for _ in range(size)]
    count = 0
    for key, code in zip(keys, codes):
        count += 1
        if count // size > _CHAIN_MAX:  # gawk counts the new key before it checks
            size = next(s for s in _SIZES if s > size)
            grown: list[list] = [[] for _ in range(size)]
            for chain in buckets:
                for item in reversed(chain):  # chains are stored oldest first here
                    grown[item[1] % size].append(item)
            buckets = grown
        buckets[code % size].append((key, code))
    return [item[0] for chain in buckets for item in reversed(chain)]
