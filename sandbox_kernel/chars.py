"""Character classes as bash and the GNU tools see them: ASCII only. Python's str.isdigit()
is also true for '²' or '٣', which int() then rejects (a crash) or reads as 3 (a wrong
answer); a sandbox must treat both as ordinary characters."""
from __future__ import annotations


def isdigits(text: str) -> bool:
    """A non-empty run of the ASCII digits 0-9."""
    return text.isascii() and text.isdigit()
