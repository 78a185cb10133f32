"""JSON text read as jq 1.6 reads it. Python's C decoder parses what both accept the same
way; everything else goes through a port of jq's parser (a state machine over the text):
NaN, Infinity, +1, .5, 01 and nan-like numbers (strtod's), a leading byte-order mark, 256
levels at most (an object's pending key counts), its error messages with line and column
(bytes), values separated by nothing but their own ends, a raw control character, a bad
\\u escape, and invalid UTF-8 in a string (one U+FFFD per bad sequence of that string).

Texts come decoded with ``surrogateescape`` (an invalid byte is a lone surrogate U+DC80..
U+DCFF), so a string's bytes can be rebuilt exactly."""
from __future__ import annotations

import bisect
import json
import re
from typing import Any, Iterator

from .formats import decode_utf8, parse_constant
from .values import JqError

MAX_DEPTH = 256  # jq's MAX_PARSING_DEPTH: stack entries, an object's pending key included
#: the C decoder's values are checked for MAX_DEPTH up to this size: a bigger one is read
#: unless it is nested beyond Python's recursion limit (the check would cost a third of the
#: parse; a document of megabytes nested 129 to thousands of levels deep is not refused)
DEPTH_CHECKED = 1 << 20

_DECODER = json.JSONDecoder(parse_int=float, parse_constant=parse_constant)
_WHITESPACE = " \t\r\n"
_STRUCTURE = "[,]{:}"
_NUMBER = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan)", re.I)
#: what the C decoder reads otherwise than jq: a lone surrogate escape, a raw invalid byte
_SUSPECT = re.compile(r"\\u[dD][89a-fA-F]|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F]|[\udc80-\udcff]")
_SPECIAL_IN_STRING = re.compile(r'["\\]')
_NOTHING = object()


class JsonTextError(Exception):
    """A parse error, its message as jq prints it after "parse error: "."""


def _where(text: str, end: int) -> str:
    """jq's line and column after reading text[:end] (columns count bytes)."""
    line = text.count("\n", 0, end) + 1
    start = text.rfind("\n", 0, end) + 1
    return f"at line {line}, column {len(text[start:end].encode('utf-8', 'surrogateescape'))}"


def _fail(text: str, message: str, end: int, at_eof: bool = False) -> JsonTextError:
    return JsonTextError(f"{message}{' at EOF' if at_eof else ''} {_where(text, end)}")


_CONTAINER = {dict, list}.__contains__


def _too_deep(value: Any) -> bool:
    """Whether jq's parser would have refused a container of ``value`` (opened with 256 stack
    entries under it: 1 per array, 2 per object)."""
    stack = [(value, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        x, weight = pop()
        if x.__class__ is dict:
            weight += 2
            children = x.values()
        else:
            weight += 1
            children = x
        if any(map(_CONTAINER, map(type, children))):
            if weight >= MAX_DEPTH:
                return True
            for c in children:
                k = c.__class__
                if k is dict or k is list:
                    push((c, weight))
    return False


def _string(raw: str) -> str:
    """A string token's text after its escapes, as jq makes it (or an error message)."""
    if "\\" not in raw and not any("\udc80" <= c <= "\udcff" for c in raw):
        for c in raw:
            if "\x01" <= c <= "\x1e":
                raise ValueError("Invalid string: control characters from U+0000 through U+001F must be escaped")
        return raw
    out = bytearray()
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        i += 1
        if c == "\\":
            if i >= n:
                raise ValueError("Expected escape character at end of string")
            c = raw[i]
            i += 1
            simple = {"\\": "\\", '"': '"', "/": "/", "b": "\b", "f": "\f", "t": "\t", "n": "\n", "r": "\r"}
            if c in simple:
                out += simple[c].encode()
                continue
            if c != "u":
                raise ValueError("Invalid escape")
            if i + 4 > n:
                raise ValueError("Invalid \\uXXXX escape")
            hexits = raw[i:i + 4]
            if not all(h in "0123456789abcdefABCDEF" for h in hexits):
                raise ValueError("Invalid characters in \\uXXXX escape")
            code = int(hexits, 16)
            i += 4
            if 0xD800 <= code <= 0xDBFF:
                low = raw[i + 2:i + 6]
                if (i + 6 > n or raw[i:i + 2] != "\\u" or not all(h in "0123456789abcdefABCDEF" for h in low)
                        or not 0xDC00 <= int(low, 16) <= 0xDFFF):
                    raise ValueError("Invalid \\uXXXX\\uXXXX surrogate pair escape")
                code = 0x10000 + ((code - 0xD800) << 10 | (int(low, 16) - 0xDC00))
                i += 6
            out += chr(code).encode("utf-8", "surrogatepass")
        elif "\udc80" <= c <= "\udcff":
            out.append(ord(c) - 0xDC00)
        else:
            if "\x01" <= c <= "\x1e":
                raise ValueError("Invalid string: control characters from U+0000 through U+001F must be escaped")
            out += c.encode("utf-8", "surrogatepass")
    return decode_utf8(bytes(out))


def _literal(token: str) -> Any:
    """jq's check_literal: true/false/null exactly, else all of it a number for strtod."""
    first = token[0]
    if first in "tfn":
        want = {"t": "true", "f": "false", "n": "null"}[first]
        if token != want:
            raise ValueError("Invalid literal")
        return {"true": True, "false": False, "null": None}[want]
    number = token.split("\0", 1)[0]  # strtod reads a C string
    if not number:
        return 0.0
    if not _NUMBER.fullmatch(number):
        raise ValueError("Invalid numeric literal")
    return float(number)


class _Machine:
    """jq 1.6's parser, from ``pos`` in ``text`` in its initial state. ``run`` yields
    (value, end) -- end: where the text after the character that completed the value
    starts -- and says, with each, whether the parser is back in its initial state."""

    def __init__(self, text: str, pos: int) -> None:
        self.text = text
        self.pos = pos
        self.stack: list = []  # [list] / [dict] / a pending key (str) above its dict
        self.next: Any = _NOTHING
        self.token: list[str] = []

    def _value(self, v: Any) -> None:
        if self.next is not _NOTHING:
            raise ValueError("Expected separator between values")
        self.next = v

    def _check_literal(self) -> None:
        if self.token:
            token = "".join(self.token)
            self.token = []
            self._value(_literal(token))

    def _structure(self, ch: str) -> None:
        stack = self.stack
        if ch in "[{":
            if len(stack) >= MAX_DEPTH:
                raise ValueError("Exceeds depth limit for parsing")
            if self.next is not _NOTHING:
                raise ValueError("Expected separator between values")
            stack.append([] if ch == "[" else {})
        elif ch == ":":
            if self.next is _NOTHING:
                raise ValueError("Expected string key before ':'")
            if not stack or not isinstance(stack[-1], dict):
                raise ValueError("':' not as part of an object")
            if not isinstance(self.next, str):
                raise ValueError("Object keys must be strings")
            stack.append(self.next)
            self.next = _NOTHING
        elif ch == ",":
            if self.next is _NOTHING:
                raise ValueError("Expected value before ','")
            if not stack:
                raise ValueError("',' not as part of an object or array")
            top = stack[-1]
            if isinstance(top, list):
                top.append(self.next)
            elif isinstance(top, str):
                stack[-2][top] = self.next
                stack.pop()
            else:
                raise ValueError("Objects must consist of key:value pairs")
            self.next = _NOTHING
        elif ch == "]":
            if not stack or not isinstance(stack[-1], list):
                raise ValueError("Unmatched ']'")
            if self.next is not _NOTHING:
                stack[-1].append(self.next)
            elif stack[-1]:
                raise ValueError("Expected another array element")
            self.next = stack.pop()
        else:  # }
            if not stack:
                raise ValueError("Unmatched '}'")
            if self.next is not _NOTHING:
                if not isinstance(stack[-1], str):
                    raise ValueError("Objects must consist of key:value pairs")
                key = stack.pop()
                stack[-1][key] = self.next
            else:
                if not isinstance(stack[-1], dict):
                    raise ValueError("Unmatched '}'")
                if stack[-1]:
                    raise ValueError("Expected another key-value pair")
            self.next = stack.pop()

    def _take_done(self) -> Any:
        """jq's check_done: a complete value with nothing open is the next output."""
        if not self.stack and self.next is not _NOTHING:
            value, self.next = self.next, _NOTHING
            return value
        return _NOTHING

    def run(self) -> Iterator[tuple[Any, int, bool]]:
        text = self.text
        n = len(text)
        i = self.pos
        while i < n:
            ch = text[i]
            try:
                if ch == '"':
                    self._check_literal()
                    done = self._take_done()
                    if done is not _NOTHING:  # a literal this quote ended; now in a string
                        yield done, i + 1, False
                    start = close = i + 1
                    while True:
                        m = _SPECIAL_IN_STRING.search(text, close)
                        if m is None:
                            raise _AtEof("Unfinished string")
                        if m.group() == '"':
                            break
                        close = m.end() + 1  # a backslash and the character it escapes
                    i = m.start()  # the closing quote is the character read now
                    self._value(_string(text[start:i]))
                elif ch in _WHITESPACE:
                    self._check_literal()
                elif ch in _STRUCTURE:
                    # a literal this character ends is out before the character acts (and
                    # lost if that fails): 1[2] is 1 and [2]
                    self._check_literal()
                    done = self._take_done()
                    self._structure(ch)
                    if done is not _NOTHING:
                        i += 1
                        yield done, i, not self.stack
                        continue
                else:
                    self.token.append(ch)
                    i += 1
                    continue
            except ValueError as e:
                raise _fail(text, str(e), i + 1) from None
            except _AtEof as e:
                raise _fail(text, str(e), n, at_eof=True) from None
            i += 1
            done = self._take_done()
            if done is not _NOTHING:
                yield done, i, True
        try:
            self._check_literal()
        except ValueError as e:
            raise _fail(text, str(e), n, at_eof=True) from None
        if self.stack:
            raise _fail(text, "Unfinished JSON term", n, at_eof=True)
        if self.next is not _NOTHING:
            value, self.next = self.next, _NOTHING
            yield value, n, True


class _AtEof(Exception):
    pass


def read_text(text: str) -> str:
    """What jq reads of an input: its last line, one without a newline, ends at a NUL
    (jq takes that line as a C string)."""
    last = text.rfind("\n") + 1
    nul = text.find("\0", last)
    return text if nul < 0 else text[:nul]


def values(text: str, start_of_stream: bool = True, track: Any = None) -> Iterator[Any]:
    """Each JSON value in ``text``, then JsonTextError for a parse error. ``track.mark``, if
    given, is set to where the character that completed the value is."""
    pos, n = 0, len(text)
    if start_of_stream and text:
        first = text[0]
        if first == "\ufeff":
            pos = 1
        elif first == "\udcef" or "\uf000" <= first <= "\uffff":
            raise JsonTextError("Malformed BOM")
    suspect = None
    decode = _DECODER.raw_decode
    while True:
        while pos < n and text[pos] in _WHITESPACE:
            pos += 1
        if pos >= n:
            return
        try:
            value, end = decode(text, pos)
        except (json.JSONDecodeError, RecursionError):
            end = -1
        if end >= 0:
            first = text[pos]
            if first == "[" or first == "{":
                # too deep takes 129 levels: 129 openings and closings at least
                ok = (end - pos <= MAX_DEPTH or end - pos > DEPTH_CHECKED
                      or text.count("[", pos, end) + text.count("{", pos, end) <= MAX_DEPTH // 2
                      or not _too_deep(value))
                done = end
            elif first == '"':
                ok, done = True, end
            else:  # a literal: jq reads on to the next delimiter, and completes it there
                ok = end >= n or text[end] in ' \t\r\n"'
                done = end + 1 if end < n else end
            if ok:
                if suspect is None:
                    suspect = ([m.start() for m in _SUSPECT.finditer(text)]
                               if "\\u" in text or not text.isascii() else [])
                if suspect:
                    k = bisect.bisect_left(suspect, pos)
                    ok = k == len(suspect) or suspect[k] >= end
            if ok:
                if track is not None:
                    track.mark = done - 1
                yield value
                pos = end
                continue
        # the slow way, until the parser is back where a value may start
        machine = _Machine(text, pos)
        for value, end, fresh in machine.run():
            if track is not None:
                track.mark = end - 1
            yield value
            if fresh:
                pos = end
                break
        else:
            return


def parse(text: str) -> Any:
    """jv_parse: exactly one value (fromjson, tonumber, --argjson); its text ends at a NUL.
    Errors carry jq's "(while parsing '...')"."""
    text = text.split("\0", 1)[0]
    try:
        found = values(text, start_of_stream=False)
        first = next(found, _NOTHING)
        if first is _NOTHING:
            raise JsonTextError("Expected JSON value")
        if next(found, _NOTHING) is not _NOTHING:
            raise JsonTextError("Unexpected extra JSON values")
    except JsonTextError as e:
        raise JsonTextError(f"{e} (while parsing '{text}')") from None
    except RecursionError:
        raise JsonTextError(f"Exceeds depth limit for parsing (while parsing '{text}')") from None
    return first


def parse_json_text(text: str) -> Any:
    """``parse`` with jq's error as a JqError."""
    try:
        return parse(text)
    except JsonTextError as e:
        raise JqError(str(e)) from None
