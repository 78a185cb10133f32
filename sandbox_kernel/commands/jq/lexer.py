"""jq's tokens."""
from __future__ import annotations

from typing import Any

import regex

from ...chars import isdigits


class JqSyntaxError(Exception):
    pass


KEYWORDS = {"def", "if", "then", "elif", "else", "end", "as", "reduce", "foreach", "try",
            "catch", "label", "import", "include", "module", "and", "or", "__loc__"}
_OPS = ["?//", "|=", "+=", "-=", "*=", "/=", "%=", "//=", "==", "!=", "<=", ">=", "//", "..",
        "|", ",", "=", "<", ">", "+", "-", "*", "/", "%", "(", ")", "[", "]", "{", "}", ":",
        ";", "?", "."]


class Token:
    __slots__ = ("kind", "value", "pos")

    def __init__(self, kind: str, value: Any, pos: int) -> None:
        self.kind = kind
        self.value = value
        self.pos = pos

    def __repr__(self) -> str:
        return f"Token({self.kind}, {self.value!r})"


def _scan_string(src: str, i: int) -> tuple[list, int]:
    """Parse a string literal starting at the quote; -> (parts, end index). Parts are str or
    ('interp', source) for \\( ... )."""
    assert src[i] == '"'
    i += 1
    parts: list = []
    buf: list[str] = []
    while True:
        if i >= len(src):
            raise JqSyntaxError("unterminated string literal")
        ch = src[i]
        if ch == '"':
            if buf or not parts:
                parts.append("".join(buf))
            return parts, i + 1
        if ch == "\\":
            nxt = src[i + 1:i + 2]
            if nxt == "(":
                if buf:
                    parts.append("".join(buf))
                    buf = []
                depth = 1
                j = i + 2
                while depth:
                    if j >= len(src):
                        raise JqSyntaxError("unterminated string interpolation")
                    c = src[j]
                    if c == '"':
                        _, j = _scan_string(src, j)
                        continue
                    if c == "(":
                        depth += 1
                    elif c == ")":
                        depth -= 1
                    j += 1
                parts.append(("interp", src[i + 2:j - 1]))
                i = j
                continue
            simple = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", '"': '"', "\\": "\\",
                      "/": "/"}
            if nxt in simple:
                buf.append(simple[nxt])
                i += 2
                continue
            if nxt == "u":
                hexits = src[i + 2:i + 6]
                try:
                    code = int(hexits, 16)
                except ValueError:
                    raise JqSyntaxError("invalid \\u escape") from None
                i += 6
                if 0xD800 <= code < 0xDC00 and src[i:i + 2] == "\\u":
                    try:
                        low = int(src[i + 2:i + 6], 16)
                    except ValueError:
                        low = 0
                    if 0xDC00 <= low < 0xE000:
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                buf.append(chr(code))
                continue
            raise JqSyntaxError(f"invalid escape \\{nxt}")
        buf.append(ch)
        i += 1


def tokenize(src: str) -> list[Token]:
    tokens = []
    i = 0
    n = len(src)
    while i < n:
        ch = src[i]
        if ch in " \t\r\n":
            i += 1
            continue
        if ch == "#":
            while i < n and src[i] != "\n":
                i += 1
            continue
        if ch == '"':
            parts, j = _scan_string(src, i)
            tokens.append(Token("STR", parts, i))
            i = j
            continue
        if isdigits(ch) or (ch == "." and i + 1 < n and isdigits(src[i + 1])):
            m = regex.match(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?", src[i:])
            tokens.append(Token("NUM", float(m.group()), i))
            i += len(m.group())
            continue
        if ch.isalpha() or ch == "_":
            m = regex.match(r"[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*", src[i:])
            word = m.group()
            tokens.append(Token("KW" if word in KEYWORDS else "IDENT", word, i))
            i += len(word)
            continue
        if ch == "$":
            m = regex.match(r"\$(__loc__|[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)", src[i:])
            if not m:
                raise JqSyntaxError("unexpected '$'")
            tokens.append(Token("VAR", m.group(1), i))
            i += len(m.group())
            continue
        if ch == "@":
            m = regex.match(r"@([A-Za-z0-9_]+)", src[i:])
            if not m:
                raise JqSyntaxError("unexpected '@'")
            tokens.append(Token("FORMAT", m.group(1), i))
            i += len(m.group())
            continue
        if ch == "." and i + 1 < n and (src[i + 1].isalpha() or src[i + 1] == "_"):
            m = regex.match(r"\.([A-Za-z_][A-Za-z0-9_]*)", src[i:])
            tokens.append(Token("FIELD", m.group(1), i))
            i += len(m.group())
            continue
        for op in _OPS:
            if src.startswith(op, i):
                tokens.append(Token("OP", op, i))
                i += len(op)
                break
        else:
            raise JqSyntaxError(f"unexpected INVALID_CHARACTER '{ch}'")
    tokens.append(Token("EOF", None, n))
    return tokens
