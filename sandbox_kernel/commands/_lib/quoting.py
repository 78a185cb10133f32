"""How GNU tools show names and strings in their output and messages (gnulib quotearg).

``quote(text, style, utf8)`` is the one implementation; the styles are gnulib's:

- ``shell-escape-always`` (gnulib ``quoteaf``; the default): a file name inside a message,
  ``cannot remove 'a b'``, ``"it's"``, ``'a'$'\\n''b'``;
- ``shell-escape`` (``quotef`` with ``colon=True``): the same, but a name that needs no
  quoting stays bare (``cat: x: No such file or directory``); ls's default style;
- ``locale`` (``quote``): any other string in a message (an option's argument, an operand),
  C-style escapes inside single quotes: ``invalid number of lines: 'it\\'s'``;
- ls's other styles: ``literal``, ``shell``, ``shell-always``, ``c`` (-Q), ``escape`` (-b) and
  ``hide`` (-q: unprintable characters shown as ``?``).

``utf8`` is whether the locale is UTF-8: outside it, every non-ASCII byte is unprintable.
(In a UTF-8 locale GNU's ``locale`` style uses curly quotes; ours keeps the C locale's.)
"""
from __future__ import annotations

import unicodedata

_C_ESCAPES = {7: "a", 8: "b", 9: "t", 10: "n", 11: "v", 12: "f", 13: "r"}
# What makes the shell styles quote a name (besides the cases in _shell_needs_quotes), and
# what a name with a quote may otherwise hold to be double-quoted ("it's", not 'it'\''s').
_SHELL_SPECIAL = frozenset(" !\"$&'()*;<>=?[\\^`|\n\t\r")
_DOUBLE_QUOTABLE = frozenset("%+,-./:]_@ '")
_UNPRINTABLE_CATEGORIES = frozenset(("Cc", "Cs", "Zl", "Zp", "Cn"))
_SHELL_STYLES = ("shell", "shell-always", "shell-escape", "shell-escape-always")


def quote(text: str, style: str = "shell-escape-always", utf8: bool = True,
          colon: bool = False) -> str:
    """``text`` in ``style``; ``colon`` also quotes a name for holding a ``:`` (gnulib's
    ``quotef``, for ``NAME: message`` lines)."""
    if style == "literal":
        return text
    if style == "hide":
        return "".join("?" * (1 if utf8 else len(ch.encode("utf-8", "surrogateescape")))
                       if _unprintable(ch, utf8) else ch for ch in text)
    if style == "locale":
        return "'" + _c_escaped(text, utf8, "'") + "'"
    if style == "c":
        return '"' + _c_escaped(text, utf8, '"') + '"'
    if style == "escape":
        return _c_escaped(text, utf8, " ")
    if style not in _SHELL_STYLES:
        raise ValueError(f"unknown quoting style {style!r}")
    escapes = style.startswith("shell-escape")
    if not style.endswith("-always") and not _shell_needs_quotes(text, escapes, utf8, colon):
        return text
    return _shell_quoted(text, escapes, utf8)


def strerror(exc: OSError) -> str:
    """The system's message for an error (``No such file or directory``)."""
    return exc.strerror or str(exc)


def _unprintable(ch: str, utf8: bool) -> bool:
    code = ord(ch)
    if code < 0x20 or code == 0x7F:
        return True
    if code >= 0x80:
        # surrogate escapes are undecodable bytes; outside UTF-8 every high byte is unprintable;
        # glibc's iswprint also refuses line/paragraph separators and unassigned code points
        return not utf8 or unicodedata.category(ch) in _UNPRINTABLE_CATEGORIES
    return False


def _escape_of(ch: str) -> str:
    """The backslash escape of an unprintable character: a C letter or its octal bytes."""
    letter = _C_ESCAPES.get(ord(ch))
    if letter:
        return "\\" + letter
    return "".join(f"\\{b:03o}" for b in ch.encode("utf-8", "surrogateescape"))


def _c_escaped(text: str, utf8: bool, special: str) -> str:
    """Backslash escapes for the c, escape and locale styles; ``special`` is the one more
    character each escapes (its quote, or a space for -b)."""
    out = []
    for ch in text:
        if ch == "\\" or ch == special:
            out.append("\\" + ch)
        elif _unprintable(ch, utf8):
            out.append(_escape_of(ch))
        else:
            out.append(ch)
    return "".join(out)


def _shell_needs_quotes(text: str, escapes: bool, utf8: bool, colon: bool) -> bool:
    if not text or text[0] in "#~" or text in ("{", "}"):
        return True
    for ch in text:
        if ch in _SHELL_SPECIAL or (colon and ch == ":") or (escapes and _unprintable(ch, utf8)):
            return True
    return False


def _double_quotable(text: str, utf8: bool) -> bool:
    for i, ch in enumerate(text):
        if not ch.isascii():
            if _unprintable(ch, utf8):
                return False
        elif not (ch.isalnum() or ch in _DOUBLE_QUOTABLE or (i == 0 and ch in "#~")
                  or text in ("{", "}")):
            return False
    return True


def _shell_quoted(text: str, escapes: bool, utf8: bool) -> str:
    """gnulib's shell-always and shell-escape-always: single quotes, a quote as ``'\\''``,
    unprintable characters in ``$'...'`` runs (with escapes), and ``"it's"`` when a name with
    a quote holds nothing else that needs quoting."""
    body, pending = _shell_body(text, escapes, utf8, False)
    if "'" not in text:
        return "'" + body + "'"
    if _double_quotable(text, utf8):
        return '"' + text + '"'
    # gnulib writes such a name again in a second pass that starts in the state the first
    # ended in: a $'...' run still open there puts a stray '' after the opening quote
    body, _ = _shell_body(text, escapes, utf8, pending)
    return "'" + body + "'"


def _shell_body(text: str, escapes: bool, utf8: bool, pending: bool) -> tuple[str, bool]:
    """The quoted characters (without the outer quotes), and whether a ``$'...'`` run is
    still open at the end; ``pending``: one is open at the start."""
    out = []
    for ch in text:
        if ch == "'":
            out.append("'\\''")
            pending = False
        elif escapes and _unprintable(ch, utf8):
            if not pending:
                out.append("'$'")
                pending = True
            out.append(_escape_of(ch))
        else:
            if pending:
                out.append("''")
                pending = False
            out.append(ch)
    return "".join(out), pending
