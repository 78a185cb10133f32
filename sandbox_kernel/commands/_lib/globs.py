"""Shell-style wildcard patterns (fnmatch(3) without FNM_PATHNAME/FNM_PERIOD) as bounded
regexes, for find -name/-path, tar --exclude and tree -P/-I."""
from __future__ import annotations

import re

import regex

from .bounded import Bounds, BoundedPattern, cheap_length


def bracket_end(pattern: str, start: int, negators: str) -> int:
    """Index of the ``]`` closing the bracket expression at ``start`` (len(pattern) if none):
    a ``]`` first in the list, and ``[:class:]``, ``[.x.]``, ``[=x=]`` inside, do not close it."""
    n = len(pattern)
    j = start + 1
    if j < n and pattern[j] in negators:
        j += 1
    if j < n and pattern[j] == "]":
        j += 1
    while j < n and pattern[j] != "]":
        if pattern[j] == "[" and j + 1 < n and pattern[j + 1] in ":.=":
            close = pattern.find(pattern[j + 1] + "]", j + 2)
            j = close + 2 if close >= 0 else j + 1
        else:
            j += 1
    return j


def glob_regex(pattern: str, ignore_case: bool = False, bounds: Bounds | None = None) -> BoundedPattern:
    """fnmatch(3) without FNM_PATHNAME/FNM_PERIOD: ``*`` and ``?`` match ``/`` and dots.
    Matches (``fullmatch``) stop with ``bounds``: ``*a*a*a*...b`` backtracks a lot."""
    out = []
    stars = 0
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "*":
            out.append(".*")
            stars += 1
        elif ch == "?":
            out.append(".")
        elif ch == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pattern[i]))
        elif ch == "[":
            j = bracket_end(pattern, i, "!^")
            if j >= n:
                out.append(re.escape(ch))
            else:
                out.append(_bracket(pattern[i + 1:j]))
                i = j
        else:
            out.append(re.escape(ch))
        i += 1
    source = "".join(out)
    flags = re.S | (re.I if ignore_case else 0)
    return BoundedPattern(regex.compile(source, regex.V0 | flags), bounds, pattern, re.compile(source, flags),
                          cheap_length(len(source), stars))


_CLASSES = {"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z",
            "lower": "a-z", "space": r" \t\n\r\f\v", "blank": r" \t", "punct": r"!-/:-@\[-`{-~",
            "xdigit": "0-9A-Fa-f", "cntrl": r"\x00-\x1f\x7f", "print": r" -~", "graph": r"!-~",
            "word": r"\w"}


def _bracket(body: str) -> str:
    negate = body[:1] in ("!", "^")
    if negate:
        body = body[1:]
    parts = []
    i = 0
    while i < len(body):
        if body.startswith("[:", i):
            close = body.find(":]", i + 2)
            if close > 0:
                parts.append(_CLASSES.get(body[i + 2:close], ""))
                i = close + 2
                continue
        ch = body[i]
        if ch == "-" and parts and i + 1 < len(body):
            parts.append("-")
        elif ch == "\\" and i + 1 < len(body):
            i += 1
            parts.append(re.escape(body[i]))
        else:
            parts.append(re.escape(ch) if ch != "-" else r"\-")
        i += 1
    return "[" + ("^" if negate else "") + "".join(parts) + "]"
