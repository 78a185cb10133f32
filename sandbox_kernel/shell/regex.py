"""POSIX extended regular expressions (``[[ =~ ]]``) translated to Python ``re``."""
from __future__ import annotations

import re

_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": r" \t\n\r\f\v", "blank": r" \t", "punct": r"!-/:-@\[-`{-~", "xdigit": "0-9A-Fa-f",
    "cntrl": r"\x00-\x1f\x7f", "print": r" -~", "graph": r"!-~", "word": r"a-zA-Z0-9_",
}

_CACHE: dict[tuple[str, bool], re.Pattern] = {}


def translate_ere(src: str) -> str:
    out: list[str] = []
    i, n = 0, len(src)
    at_start = True  # a '*' here is literal
    while i < n:
        c = src[i]
        if c == "\\":
            if i + 1 < n:
                nxt = src[i + 1]
                if nxt.isdigit() and nxt != "0":
                    out.append("\\" + nxt)
                elif nxt in "<>":
                    out.append(r"\b")
                elif nxt in "bBwWsS":
                    out.append("\\" + nxt)
                else:
                    out.append(re.escape(nxt))
                i += 2
            else:
                out.append(r"\\")
                i += 1
            at_start = False
            continue
        if c == "[":
            j, cls = _bracket(src, i)
            out.append(cls)
            i = j
            at_start = False
            continue
        if c in "*+?" and at_start:
            out.append(re.escape(c))
            i += 1
            at_start = False
            continue
        if c == "{":
            m = re.match(r"\{(\d*)(,?)(\d*)\}", src[i:])
            if m and (m.group(1) or m.group(3)) and not at_start:
                out.append(m.group(0))
                i += m.end()
                continue
            out.append(r"\{")
            i += 1
            continue
        if c == "}":
            out.append(r"\}")
            i += 1
            continue
        if c == "(":
            out.append("(")
            i += 1
            at_start = True
            continue
        if c == "|":
            out.append("|")
            i += 1
            at_start = True
            continue
        if c in ".^$)*+?":
            out.append(c)
        else:
            out.append(re.escape(c))
        at_start = c == "^"
        i += 1
    return "".join(out)


def _bracket(src: str, i: int) -> tuple[int, str]:
    j = i + 1
    n = len(src)
    negate = False
    if j < n and src[j] == "^":
        negate = True
        j += 1
    items: list[str] = []
    first = True
    while j < n:
        c = src[j]
        if c == "]" and not first:
            body = "".join(items)
            return j + 1, ("[^" if negate else "[") + body + "]" if body else ("[^\\s\\S]" if not negate else "[\\s\\S]")
        first = False
        if c == "[" and j + 1 < n and src[j + 1] in ":=.":
            kind = src[j + 1]
            close = src.find(kind + "]", j + 2)
            if close < 0:
                raise ValueError("unterminated character class")
            name = src[j + 2:close]
            if kind == ":":
                if name not in _CLASSES:
                    raise ValueError(f"invalid character class {name}")
                items.append(_CLASSES[name])
            else:
                items.append(re.escape(name))
            j = close + 2
            continue
        if c == "-" and items and j + 1 < n and src[j + 1] != "]":
            items.append("-")
            j += 1
            continue
        if c in "\\]^[-":
            items.append("\\" + c)
        else:
            items.append(c)
        j += 1
    raise ValueError("unterminated bracket expression")


def compile_ere(src: str, nocase: bool = False) -> re.Pattern:
    key = (src, nocase)
    rx = _CACHE.get(key)
    if rx is None:
        try:
            rx = re.compile(translate_ere(src), re.IGNORECASE if nocase else 0)
        except re.error as e:
            raise ValueError(str(e)) from None
        if len(_CACHE) > 2000:
            _CACHE.clear()
        _CACHE[key] = rx
    return rx
