"""Character classes as bash and the GNU tools see them: ASCII only. Python's str.isdigit()
is also true for '²' or '٣', which int() then rejects (a crash) or reads as 3 (a wrong
answer); a sandbox must treat both as ordinary characters."""
from __future__ import annotations

from .lazy import lazy_compile


def isdigits(text: str) -> bool:
    """A non-empty run of the ASCII digits 0-9."""
    return text.isascii() and text.isdigit()


_BASH_NUMBER = lazy_compile(r"[ \t\n]*([-+]?[0-9]+)[ \t\n]*")


def parse_int(text: str) -> int | None:
    """An integer as bash's builtins accept one (``exit 3``, ``shift 2``, ``read -n 5``):
    optional blanks around an optional sign and ASCII digits; None otherwise. int() would
    also take '٣', '1_000' and other Unicode spaces."""
    m = _BASH_NUMBER.fullmatch(text)
    return int(m.group(1)) if m else None
