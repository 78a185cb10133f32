"""GNU's version order (gnulib filevercmp) as a sort key: ``sort -V``, ``ls -v``, ``tree -v``.

Names compare by their runs of non-digits (letters before other bytes, ``~`` before even the
end) and runs of digits (as numbers); a name's suffix (``.tar.gz``) only breaks ties between
equal prefixes; ``""``, ``.``, ``..`` and then hidden names come first."""
from __future__ import annotations

import re

_PARTS = re.compile(rb"(\D*)(\d*)")
_SUFFIX = re.compile(rb"(?:\.[A-Za-z~][A-Za-z0-9~]*)*$")


def version_key(name: bytes) -> tuple:
    if not name:
        return (0,)
    if name == b".":
        return (1,)
    if name == b"..":
        return (2,)
    hidden = name[:1] == b"."
    body = name[1:] if hidden else name
    prefix = body[:_SUFFIX.search(body).start()]
    return (3 if hidden else 4, _runs(prefix), _runs(body))


def _byte_order(c: int) -> int:
    if 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A:
        return c
    if c == 0x7E:
        return -2
    return c + 256


def _runs(s: bytes) -> tuple:
    parts = []
    for text, digits in _PARTS.findall(s):
        if not text and not digits:
            continue
        parts.append((tuple(_byte_order(c) for c in text) + (-1,), int(digits) if digits else 0))
    parts.append(((-1,), -1))
    return tuple(parts)
