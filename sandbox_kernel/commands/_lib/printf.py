"""The printf-like formats stat --printf and find -printf share: their backslash escapes and
how a directive's flags, width and precision shape its value."""
from __future__ import annotations

import re

_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
            "v": "\v", "\\": "\\", '"': '"'}


def interpret_escapes(text: str) -> str:
    """Backslash escapes of ``stat --printf`` / ``find -printf``: \\n \\t \\\\ \\ooo \\xHH."""
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "\\" or i + 1 >= len(text):
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt in "01234567":
            m = re.match(r"[0-7]{1,3}", text[i + 1:])
            out.append(chr(int(m.group(0), 8) & 0xFF))
            i += 1 + len(m.group(0))
        elif nxt == "x" and re.match(r"[0-9a-fA-F]", text[i + 2:i + 3]):
            m = re.match(r"[0-9a-fA-F]{1,2}", text[i + 2:])
            out.append(chr(int(m.group(0), 16)))
            i += 2 + len(m.group(0))
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out)


def chars_to_bytes(text: str) -> bytes:
    """Escapes produce code points < 256 meaning raw bytes; other text stays utf-8."""
    out = bytearray()
    for ch in text:
        code = ord(ch)
        if 0x80 <= code < 0x100:
            out.append(code)
        else:
            out += ch.encode("utf-8", "surrogateescape")
    return bytes(out)


def apply_width(value: str, flags: str, width: str, precision: str, numeric: bool) -> str:
    """A directive's value under its printf flags (``-`` ``0`` ``+``), width and precision."""
    if precision and not numeric:
        value = value[: int(precision)]
    if numeric and precision:
        digits = value.lstrip("-")
        sign = value[: len(value) - len(digits)]
        value = sign + digits.rjust(int(precision), "0")
    if numeric and "+" in flags and not value.startswith("-"):
        value = "+" + value
    if width:
        w = int(width)
        if "-" in flags:
            value = value.ljust(w)
        elif "0" in flags and numeric and not precision:
            sign = value[0] if value[:1] in "+-" else ""
            value = sign + value[len(sign):].rjust(w - len(sign), "0")
        else:
            value = value.rjust(w)
    return value
