"""The locales this machine has, for the shell and the commands alike."""
from __future__ import annotations


def installed_locale(name: str) -> bool:
    """Whether this machine (Debian's base: ``locale -a`` is C, C.utf8, POSIX) has the locale
    NAME; glibc normalizes the codeset (``C.UTF-8``, ``C.utf-8``, ``C.UTF8`` are C.utf8)."""
    if name in ("C", "POSIX"):
        return True
    language, dot, codeset = name.partition(".")
    return language == "C" and dot == "." and "".join(c for c in codeset.lower() if c.isalnum()) == "utf8"


def single_byte(name: str | None) -> bool:
    """Whether a program whose LC_CTYPE is set to NAME sees one character per byte: C, POSIX,
    nothing set, or a locale the machine lacks (setlocale fails and it stays in C)."""
    return not name or name in ("C", "POSIX") or not installed_locale(name)
