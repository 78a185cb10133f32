"""Quoting values back into shell text, as bash prints them: ``${x@Q}``, ``printf %q``,
``declare -p``, ``set``, ``alias``, ``trap -p`` and xtrace. Used by the evaluator and by the
builtins (neither owns it)."""
from __future__ import annotations

import re

from ..lazy import lazy_compile
from .state import IndexedArray, Var, ordered_keys


def shell_quote(s: str) -> str:
    """Quote like bash's ``${x@Q}`` / ``printf %q`` (single quotes when needed)."""
    if s == "":
        return "''"
    if re.fullmatch(r"[A-Za-z0-9_@%+=:,./-]+", s):
        return s
    s = _utf8_text(s)
    if any(_unprintable(c) for c in s):
        return "$'" + "".join(_ansi_char(c) for c in s) + "'"
    return single_quote(s)


def quote_always(s: str) -> str:
    """``${x@Q}``: always single-quoted ($'...' when it holds control characters)."""
    s = _utf8_text(s)
    if any(_unprintable(c) for c in s):
        return "$'" + "".join(_ansi_char(c) for c in s) + "'"
    return single_quote(s)


def single_quote(s: str) -> str:
    """``'...'`` around ``s`` (how alias and trap print values), a quote as ``'\\''``."""
    return "'" + s.replace("'", "'\\''") + "'"


_BACKSLASH_SPECIAL = frozenset(" \t'\"\\|&;()<>!{}*[?]^$`,")


def backslash_quote(s: str) -> str:
    """``printf %q``: backslash-escape what the shell would interpret."""
    if s == "":
        return "''"
    s = _utf8_text(s)
    if any(_unprintable(c) for c in s):
        return "$'" + "".join(_ansi_char(c) for c in s) + "'"
    out = []
    for k, c in enumerate(s):
        if c in _BACKSLASH_SPECIAL or (k == 0 and c in "~#"):
            out.append("\\" + c)
        else:
            out.append(c)
    return "".join(out)


def _utf8_text(s: str) -> str:
    """S with the raw bytes that spell UTF-8 between them made characters again."""
    if s.isascii():
        return s
    return s.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")


def _unprintable(c: str) -> bool:
    """A control character, or a byte that is not UTF-8 (a surrogate escape)."""
    o = ord(c)
    return o < 32 or o == 127 or 0xDC80 <= o <= 0xDCFF


def _ansi_char(c: str) -> str:
    table = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\a": "\\a", "\b": "\\b", "\f": "\\f",
             "\v": "\\v", "\x1b": "\\E", "'": "\\'", "\\": "\\\\"}
    if c in table:
        return table[c]
    if ord(c) < 32 or ord(c) == 127:
        return "\\%03o" % ord(c)
    if 0xDC80 <= ord(c) <= 0xDCFF:
        return "\\%03o" % (ord(c) - 0xDC00)
    return c


def double_quote(s: str) -> str:
    """``"..."`` as declare -p and set write values."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`") + '"'


def key_text(k: str) -> str:
    """An associative array key as declare -p writes it (quoted unless plain)."""
    return k if _PLAIN_KEY.fullmatch(k) else double_quote(k)


def declare_text(name: str, var: Var) -> str:
    """``declare -a a=([0]="x" ...)``: a variable as ``declare -p`` shows it."""
    flags = var.attr_flags()
    head = f"declare -{flags} " if flags else "declare -- "
    value = var.value
    if value is None:
        return f"{head}{name}"
    if type(value) is IndexedArray:
        return f"{head}{name}=(" + " ".join(f"[{k}]={double_quote(v)}" for k, v in value.items()) + ")"
    if type(value) is dict:
        items = "".join(f"[{key_text(k)}]={double_quote(value[k])} " for k in ordered_keys(var))
        return f"{head}{name}=(" + items + ")"
    return f"{head}{name}={declare_quote(value)}"


def declare_quote(s: str) -> str:
    """A value as ``declare -p`` quotes it: "..." or, with control characters, $'...'."""
    if any(ord(c) < 32 or ord(c) == 127 for c in s):
        return "$'" + "".join(_ansi_char(c) for c in s) + "'"
    return double_quote(s)


_PLAIN_KEY = lazy_compile(r"[A-Za-z0-9_./-]+")
