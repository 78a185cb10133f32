"""Backslash escapes, decoded one way for each place bash reads them.

``ANSI_C``: a ``$'...'`` string; ``ECHO``: ``echo -e`` (``\\0NNN`` is its only octal escape,
raw bytes, ``\\c`` stops all output); ``PRINTF_B``: ``printf %b`` (as echo, and ``\\NNN``
octal too); ``PRINTF``: a printf format (``\\NNN`` octal, ``\\"``, ``\\'`` and ``\\?``
literal, ``\\c`` no escape: only %b's argument stops at it). Bytes >= 0x80 are kept as
surrogate escapes so they reach the output unchanged.
"""
from __future__ import annotations

ANSI_C = "ansi-c"
ECHO = "echo"
PRINTF = "printf"
PRINTF_B = "printf-b"

ECHO_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
                "t": "\t", "v": "\v", "\\": "\\"}
ANSI_ESCAPES = {**ECHO_ESCAPES, "'": "'", '"': '"', "?": "?"}
OCTAL_DIGITS = frozenset("01234567")
HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
#: how many hex digits each hex escape takes at most
HEX_WIDTH = {"x": 2, "u": 4, "U": 8}


def decode_escape(s: str, i: int, mode: str) -> tuple[str, int, bool]:
    """The escape whose backslash is ``s[i]``: (its text, the index after it, whether it is a
    ``\\c`` that stops the output)."""
    n = len(s)
    if i + 1 >= n:
        return "\\", n, False
    e = s[i + 1]
    table = ECHO_ESCAPES if mode in (ECHO, PRINTF_B) else ANSI_ESCAPES
    if e in table:
        return table[e], i + 2, False
    if e in OCTAL_DIGITS:
        if mode == ECHO and e != "0":
            return "\\" + e, i + 2, False  # echo's only octal escape is \0NNN
        # \0NNN: the 0 is not one of the digits
        start = i + 2 if mode in (ECHO, PRINTF_B) and e == "0" else i + 1
        j = start
        while j < n and j < start + 3 and s[j] in OCTAL_DIGITS:
            j += 1
        value = int(s[start:j] or "0", 8) & 0xFF
        # a byte: $'\377' is the byte 0xff, not the character U+00FF
        return byte_char(value), j, False
    if e in HEX_WIDTH:
        code, j = read_hex(s, i + 2, e)
        if code is None:
            return "\\" + e, i + 2, False
        if e == "x":
            return byte_char(code), j, False
        return unicode_char(code), j, False
    if e == "c":
        if mode in (ECHO, PRINTF_B):
            return "", i + 2, True
        if mode == ANSI_C and i + 2 < n:
            # $'\cX': the control character of X
            return chr(ord(s[i + 2]) & 0x1F), i + 3, False
    return "\\" + e, i + 2, False


def decode_escapes(s: str, echo: bool = False, mode: str | None = None) -> tuple[str, bool]:
    """Every backslash escape in ``s`` as ``$'...'`` reads them, or with ``echo`` as echo -e
    does (or as MODE says): (text, whether ``\\c`` stopped it)."""
    if "\\" not in s:
        return s, False
    mode = mode or (ECHO if echo else ANSI_C)
    out = []
    i, n = 0, len(s)
    while i < n:
        k = s.find("\\", i)
        if k < 0:
            out.append(s[i:])
            break
        out.append(s[i:k])
        text, i, stop = decode_escape(s, k, mode)
        if stop:
            return "".join(out), True
        out.append(text)
    return "".join(out), False


def decode_ansi_c(s: str) -> str:
    """The value of a ``$'...'`` string body: a C string, so it ends at a NUL."""
    return decode_escapes(s)[0].split("\0", 1)[0]


def read_hex(s: str, i: int, escape: str) -> tuple[int | None, int]:
    """The hex digits of a ``\\x`` (up to 2), ``\\u`` (4) or ``\\U`` (8) escape starting at
    ``s[i]``: (value, index after them), or (None, i) when there are none."""
    end = min(len(s), i + HEX_WIDTH[escape])
    j = i
    while j < end and s[j] in HEX_DIGITS:
        j += 1
    return (int(s[i:j], 16) if j > i else None), j


def unicode_char(code: int) -> str:
    """A \\u/\\U escape's text. Like bash, code points Python cannot hold (surrogates, above
    U+10FFFF) give the bytes of UTF-8's original scheme (up to 6 bytes), as raw bytes;
    from 2**31 on, nothing."""
    if code < 0xD800 or 0xE000 <= code <= 0x10FFFF:
        return chr(code)
    if code >= 0x80000000:
        return ""
    n = 3 if code < 0x10000 else 4 if code < 0x200000 else 5 if code < 0x4000000 else 6
    tail = [0x80 | (code >> (6 * k)) & 0x3F for k in range(n - 2, -1, -1)]
    lead = (0xFF << (8 - n)) & 0xFF | code >> (6 * (n - 1))
    return bytes([lead, *tail]).decode("utf-8", "surrogateescape")


def byte_char(b: int) -> str:
    # a raw byte >= 0x80 round-trips through surrogateescape
    return chr(b) if b < 0x80 else bytes([b]).decode("utf-8", "surrogateescape")
