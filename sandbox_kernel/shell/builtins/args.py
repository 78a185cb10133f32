"""Builtin arguments read the way bash reads them."""
from __future__ import annotations

from ...chars import parse_int


def bash_int(text: str) -> int:
    """int() as bash reads a builtin's number (ValueError otherwise)."""
    n = parse_int(text)
    if n is None:
        raise ValueError(text)
    return n
