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


#: the categories setlocale(LC_ALL, "") reads from the environment
_CATEGORIES = ("LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY", "LC_MESSAGES", "LC_PAPER",
               "LC_NAME", "LC_ADDRESS", "LC_TELEPHONE", "LC_MEASUREMENT", "LC_IDENTIFICATION")


def program_locale(env: dict | None, category: str) -> str:
    """The locale a GNU program started with ENV runs CATEGORY in: setlocale(LC_ALL, "")
    takes LC_ALL, else the category's variable, else LANG; when any category names a locale
    the machine lacks, the call fails and the program stays in "C" altogether."""
    env = env or {}
    lc_all = env.get("LC_ALL")
    lang = env.get("LANG")
    chosen = "C"
    for cat in _CATEGORIES:
        name = lc_all or env.get(cat) or lang or "C"
        if not installed_locale(name):
            return "C"
        if cat == category:
            chosen = name
    return chosen


def utf8_locale(env: dict | None) -> bool:
    """Whether a program started with ENV reads text as UTF-8 (its LC_CTYPE is C.utf8) rather
    than one character per byte."""
    return not single_byte(program_locale(env, "LC_CTYPE"))
