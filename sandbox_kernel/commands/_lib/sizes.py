"""Sizes and counts with multiplier suffixes, as gnulib's xstrtoumax reads them (head -c 2K,
truncate -s 1M, du -B 1KB, od -j 0x10, cmp -n 1KiB): each tool names the suffix letters it
allows; with ``0`` among them, a power letter may be followed by ``B`` (powers of 1000) or
``iB`` (powers of 1024)."""
from __future__ import annotations

import re

#: what head, tail, split and od allow
COREUTILS_SUFFIXES = "bEGKkMmPQRTYZ0"

_POWERS = {"K": 1, "k": 1, "M": 2, "m": 2, "G": 3, "g": 3, "T": 4, "t": 4, "P": 5, "E": 6,
           "Z": 7, "Y": 8, "R": 9, "Q": 10}
_UNITS = {"b": 512, "B": 1024, "c": 1, "w": 2}
_DECIMAL = re.compile(r"[ \t\n\v\f\r]*([0-9]+)")
_C_NUMBER = re.compile(r"[ \t\n\v\f\r]*(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)")


def parse_size(text: str, suffixes: str = COREUTILS_SUFFIXES, c_syntax: bool = False) -> int | None:
    """The value of ``text`` (digits, or with ``c_syntax`` 0x1f/017/42, then at most one
    allowed suffix); None when it is not one. Huge values are kept (Python ints)."""
    m = (_C_NUMBER if c_syntax else _DECIMAL).match(text)
    if not m:
        return None
    digits = m.group(1)
    if digits[:2] in ("0x", "0X"):
        value = int(digits, 16)
    elif c_syntax and digits.startswith("0"):
        value = int(digits, 8)
    else:
        value = int(digits)
    suffix = text[m.end():]
    if not suffix:
        return value
    letter = suffix[0]
    if letter not in suffixes or letter == "0":
        return None
    base, used = 1024, 1
    if "0" in suffixes:
        if suffix[1:3] == "iB":
            used = 3
        elif suffix[1:2] in ("B", "D"):
            base, used = 1000, 2
    if suffix[used:]:
        return None
    if letter in _POWERS:
        return value * base ** _POWERS[letter]
    if letter in _UNITS:
        return value * _UNITS[letter]
    return None
