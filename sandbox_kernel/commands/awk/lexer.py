"""awk tokens. A ``/`` starts a regex literal where an operand is expected, else it divides."""
from __future__ import annotations

import re
from ...chars import isdigits

KEYWORDS = {"BEGIN", "END", "function", "func", "if", "else", "while", "for", "do", "break",
            "continue", "next", "nextfile", "exit", "return", "delete", "in", "getline",
            "print", "printf"}
BUILTINS = {"length", "substr", "index", "split", "sub", "gsub", "match", "sprintf", "tolower",
            "toupper", "int", "sqrt", "exp", "log", "sin", "cos", "atan2", "rand", "srand",
            "system", "close", "fflush", "gensub",
            # gawk extensions people use
            "systime", "strftime", "mktime", "asort", "asorti", "strtonum", "and", "or", "xor",
            "lshift", "rshift", "compl"}

# tokens after which a '/' divides (an operand just ended)
_OPERAND_END = {"NAME", "NUMBER", "STRING", "ERE", "FUNC_NAME", "BUILTIN", ")", "]", "$", "incr",
                "decr"}

_PUNCT = ["**=", "^=", "+=", "-=", "*=", "/=", "%=", "==", "<=", ">=", "!=", "++", "--", "&&",
          "||", ">>", "!~", "**", "{", "}", "(", ")", "[", "]", ";", ",", "+", "-", "*", "/",
          "%", "^", "!", ">", "<", "|", "?", ":", "~", "$", "="]

_NUMBER = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "/": "/", "a": "\a", "b": "\b",
           "f": "\f", "v": "\v"}
_HEX = "0123456789abcdefABCDEF"


def _code_escape(text: str, i: int) -> tuple[int, int] | None:
    """The byte of the octal (up to 3 digits) or hex (up to 2) escape whose backslash is at
    ``i``, and where it ends; None for ``\\x`` without a hex digit."""
    d = text[i + 1]
    j = i + 1
    if d == "x":
        j = i + 2
        while j < len(text) and j < i + 4 and text[j] in _HEX:
            j += 1
        return (int(text[i + 2:j], 16), j) if j > i + 2 else None
    while j < len(text) and j < i + 4 and text[j] in "01234567":
        j += 1
    return int(text[i + 1:j], 8) & 0xFF, j


class _Bytes:
    """Characters of escapes (\\ooo, \\xhh) are bytes: a run of them is text of the locale
    (in UTF-8, two escapes may make one character; a lone byte stays a byte)."""

    def __init__(self, bytes_mode: bool) -> None:
        self.encoding, self.errors = ("latin-1", "strict") if bytes_mode else ("utf-8", "surrogateescape")
        self.out: list[str] = []
        self.run = bytearray()

    def byte(self, b: int) -> None:
        self.run.append(b)

    def text(self, t: str) -> None:
        if self.run:
            self.flush()
        self.out.append(t)

    def flush(self) -> None:
        self.out.append(self.run.decode(self.encoding, self.errors))
        self.run.clear()

    def result(self) -> str:
        if self.run:
            self.flush()
        return "".join(self.out)


def unescape(raw: str, bytes_mode: bool = False, warn=None) -> str:
    """The value of a string constant's text (or of a -v value): gawk's escapes, a backslash
    before a newline continues the line, an unknown escape is its character (``warn(message)``
    is told, as gawk warns)."""
    if "\\" not in raw:
        return raw
    buf = _Bytes(bytes_mode)
    i = 0
    n = len(raw)
    while i < n:
        c = raw[i]
        if c != "\\" or i + 1 >= n:
            buf.text(c)
            i += 1
            continue
        d = raw[i + 1]
        if d in "01234567x":
            got = _code_escape(raw, i)
            if got is not None:
                buf.byte(got[0])
                i = got[1]
                continue
            if warn:
                warn("no hex digits in `\\x' escape sequence")
            buf.text("x")
        elif d in ESCAPES:
            if d == "/" and warn:
                warn("escape sequence `\\/' treated as plain `/'")
            buf.text(ESCAPES[d])
        elif d != "\n":
            if warn:
                warn(f"escape sequence `\\{d}' treated as plain `{d}'")
            buf.text(d)
        i += 2
    return buf.result()


def regex_source(src: str, bytes_mode: bool = False, warn=None) -> str:
    """A regex's text as gawk's make_regexp gives it to the matcher: \\a \\b \\f \\n \\r \\t \\v,
    octal and hex escapes become their characters, unescaped (``/a\\52b/`` is ``a*b``); \\8 and
    \\9 are plain digits (``warn`` is told); any other escape stays for the matcher."""
    if "\\" not in src:
        return src
    buf = _Bytes(bytes_mode)
    i = 0
    n = len(src)
    while i < n:
        c = src[i]
        if c != "\\" or i + 1 >= n:
            buf.text(c)
            i += 1
            continue
        d = src[i + 1]
        if d in "01234567x":
            got = _code_escape(src, i)
            if got is not None:
                buf.byte(got[0])
                i = got[1]
                continue
            buf.text("x")
        elif d in "abfnrtv":
            buf.text(ESCAPES[d])
        elif d in "89":
            if warn:
                warn(f"regexp escape sequence `\\{d}' treated as plain `{d}'")
            buf.text(d)
        else:
            buf.text(c + d)
        i += 2
    return buf.result()


class AwkSyntaxError(Exception):
    """A syntax error at ``line`` and ``col``; ``fatal``: gawk's "fatal: error: ..." for a
    character no program may hold (exit status 2, no source line quoted)."""

    def __init__(self, message: str, line: int, col: int, fatal: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col
        self.fatal = fatal


def _bad_character(c: str, line: int) -> AwkSyntaxError:
    return AwkSyntaxError(f"error: invalid character '\\{ord(c):03o}' in source code", line, 0, fatal=True)


#: control characters gawk refuses where a token starts (and NUL anywhere)
_BAD_CHARS = frozenset(chr(i) for i in (*range(0, 7), *range(14, 32), 127))


class Token:
    __slots__ = ("kind", "value", "line", "col")

    def __init__(self, kind: str, value, line: int, col: int) -> None:
        self.kind = kind
        self.value = value
        self.line = line
        self.col = col

    def __repr__(self) -> str:
        return f"Token({self.kind!r}, {self.value!r})"


_NONDECIMAL = re.compile(r"0[xX][0-9a-fA-F]+|0[0-7]+(?![0-9.eE])")


def tokenize(src: str, warnings: list | None = None, bytes_mode: bool = False) -> list[Token]:
    """Tokens of ``src``; gawk's warnings (unknown string escapes) are added to ``warnings``
    as (line, message). ``bytes_mode``: the C locale (escapes make latin-1 characters)."""
    toks: list[Token] = []
    i = 0
    n = len(src)
    line = 1
    line_start = 0
    last = None
    nul = src.find("\0")
    if nul >= 0:
        raise _bad_character("\0", src.count("\n", 0, nul) + 1)

    def add(kind, value, start):
        nonlocal last
        toks.append(Token(kind, value, line, start - line_start))
        last = kind if kind not in ("++", "--") else ("incr" if kind == "++" else "decr")

    while i < n:
        c = src[i]
        if c in " \t\r":
            i += 1
            continue
        if c == "\\" and i + 1 < n and src[i + 1] == "\n":
            i += 2
            line += 1
            line_start = i
            continue
        if c == "\\" and src[i + 1:i + 3] == "\r\n":
            i += 3
            line += 1
            line_start = i
            continue
        if c == "#":
            while i < n and src[i] != "\n":
                i += 1
            continue
        if c == "\n":
            add("NEWLINE", "\n", i)
            i += 1
            line += 1
            line_start = i
            continue
        if c == '"':
            start = i
            first_line = line
            column = start - line_start  # (a backslash-newline inside moves line_start on)
            j = i + 1
            while True:
                if j >= n or src[j] == "\n":
                    raise AwkSyntaxError("unterminated string", first_line, column)
                ch = src[j]
                if ch == '"':
                    break
                if ch == "\\" and j + 1 < n:
                    if src[j + 1] == "\n":
                        line += 1
                        line_start = j + 2
                    j += 2
                    continue
                j += 1
            at = first_line
            warn = None if warnings is None else (lambda message: warnings.append((at, message)))
            value = unescape(src[i + 1:j], bytes_mode, warn)
            i = j + 1
            add("STRING", value, start)
            continue
        if c == "/" and last not in _OPERAND_END:
            start = i
            i += 1
            out = []
            in_bracket = False
            while True:
                if i >= n or src[i] == "\n":
                    raise AwkSyntaxError("unterminated regexp", line, start - line_start + 1)
                ch = src[i]
                if ch == "\\" and i + 1 < n:
                    if src[i + 1] == "/":
                        out.append("/")
                    else:
                        out.append(src[i:i + 2])
                    i += 2
                    continue
                if ch == "[" and not in_bracket:
                    in_bracket = True
                    out.append(ch)
                    i += 1
                    if i < n and src[i] == "^":
                        out.append("^")
                        i += 1
                    if i < n and src[i] == "]":
                        out.append("]")
                        i += 1
                    continue
                if ch == "[" and in_bracket and i + 1 < n and src[i + 1] in ":.=":
                    end = src.find(src[i + 1] + "]", i + 2)
                    if end > 0:
                        out.append(src[i:end + 2])
                        i = end + 2
                        continue
                if ch == "]" and in_bracket:
                    in_bracket = False
                if ch == "/" and not in_bracket:
                    i += 1
                    break
                out.append(ch)
                i += 1
            add("ERE", "".join(out), start)
            continue
        if c == "0" and (m := _NONDECIMAL.match(src, i)):
            # gawk: hexadecimal and octal constants in program text
            text = m.group()
            add("NUMBER", float(int(text, 16) if text[1] in "xX" else int(text, 8)), i)
            i = m.end()
            continue
        if isdigits(c) or (c == "." and i + 1 < n and isdigits(src[i + 1])):
            m = _NUMBER.match(src, i)
            add("NUMBER", float(m.group()), i)
            i = m.end()
            continue
        if c.isascii() and (c.isalpha() or c == "_"):
            m = _NAME.match(src, i)
            word = m.group()
            start = i
            i = m.end()
            if word in KEYWORDS:
                add(word if word != "func" else "function", word, start)
            elif word in BUILTINS:
                add("BUILTIN", word, start)
            elif i < n and src[i] == "(":
                add("FUNC_NAME", word, start)
            else:
                add("NAME", word, start)
            continue
        for p in _PUNCT:
            if src.startswith(p, i):
                add(p, p, i)
                i += len(p)
                break
        else:
            if c in _BAD_CHARS:
                raise _bad_character(c, line)
            if c in ".&":  # tokens of gawk's grammar that start nothing here
                raise AwkSyntaxError("syntax error", line, i - line_start)
            raise AwkSyntaxError(f"invalid char '{c}' in expression", line, i - line_start)
    add("NEWLINE", "\n", i)
    toks.append(Token("EOF", None, line, i - line_start))
    return toks
