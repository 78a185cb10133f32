"""The stream of inputs jq reads (JSON values, raw lines, --stream events), shared by the
main loop and the `input`/`inputs` builtins."""
from __future__ import annotations

import json
import sys

from .formats import parse_constant
from .operations import stream_events
from ... import memory
from .values import MISSING

#: What a parsed array element or object member takes, about (its number or key, pointers).
PARSED_COST = 64


class InputSource:
    """The stream of JSON values (or raw lines) jq reads, shared by the main loop and
    `input`/`inputs`."""

    def __init__(self, texts: list[tuple[str, str]], raw: bool, slurp: bool,
                 stream: bool = False) -> None:
        self.texts = texts
        self.raw = raw
        self.slurp = slurp
        self.stream = stream
        self.current_name = None
        self._iter = self._streamed() if stream and not raw else self._values()
        self.error: str | None = None

    def _values(self):
        if self.raw:
            if self.slurp:
                self.current_name = self.texts[-1][0] if self.texts else None
                parts = [t for _, t in self.texts]
                memory.charge(sum(map(sys.getsizeof, parts)))  # their joined copy
                yield "".join(parts)
                return
            for name, text in self.texts:
                self.current_name = name
                yield from _lines(text)
            return
        decoder = json.JSONDecoder(parse_int=float, parse_constant=parse_constant)
        if self.slurp:
            values = []
            for name, text in self.texts:
                self.current_name = name
                for v in self._decode(decoder, text):
                    values.append(v)
                if self.error:
                    return
            yield values
            return
        for name, text in self.texts:
            self.current_name = name
            yield from self._decode(decoder, text)
            if self.error:
                return

    def _streamed(self):
        """--stream: each input becomes its [path, leaf] / [path] events (with -s, one
        array of all the events)."""
        slurp, self.slurp = self.slurp, False
        events = (event for value in self._values() for event in stream_events(value))
        if slurp:
            yield list(events)
        else:
            yield from events

    def _decode(self, decoder, text):
        # one big value is parsed in one call: what it will take is checked first (about one
        # element per comma or opening bracket)
        if len(text) > 1 << 20:
            memory.need(len(text) + (text.count(",") + text.count("[") + text.count("{")) * PARSED_COST)
        pos = 0
        n = len(text)
        while True:
            while pos < n and text[pos] in " \t\r\n":
                pos += 1
            if pos >= n:
                return
            try:
                value, end = decoder.raw_decode(text, pos)
            except json.JSONDecodeError as e:
                line = text.count("\n", 0, e.pos) + 1
                col = e.pos - (text.rfind("\n", 0, e.pos) + 1)
                self.error = f"{_json_error_text(e)} at line {line}, column {col}"
                return
            except RecursionError:
                self.error = "Exceeds depth limit for parsing"
                return
            yield value
            pos = end

    def next_value(self):
        return next(self._iter, MISSING)


def _lines(text: str):
    """The lines of ``text`` one at a time (a list of them all would cost ~60 bytes a line)."""
    pos, end = 0, len(text)
    while pos < end:
        nl = text.find("\n", pos)
        if nl < 0:
            yield text[pos:]
            return
        yield text[pos:nl]
        pos = nl + 1


def _json_error_text(e: json.JSONDecodeError) -> str:
    if "Expecting value" in e.msg:
        return "Invalid numeric literal" if e.pos < len(e.doc) and e.doc[e.pos].isalpha() else "Invalid literal"
    if "Unterminated string" in e.msg or "Expecting" in e.msg and e.pos >= len(e.doc.rstrip()):
        return "Unfinished JSON term at EOF"
    return e.msg
