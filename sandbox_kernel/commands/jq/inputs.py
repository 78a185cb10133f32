"""The stream of inputs jq reads (JSON values, raw lines, --stream events), shared by the
main loop and the `input`/`inputs` builtins. Texts come decoded with ``surrogateescape``:
invalid UTF-8 is replaced the way jq replaces it, per JSON string or raw line."""
from __future__ import annotations

import sys

from .formats import decode_utf8
from .jsontext import JsonTextError, read_text, values
from .operations import stream_events
from ... import memory
from .values import MISSING

#: What a parsed array element or object member takes, about (its number or key, pointers).
PARSED_COST = 64


def repair(text: str) -> str:
    """Text decoded with surrogateescape, its invalid bytes replaced as jq replaces them."""
    if text.isascii() or not any("\udc80" <= c <= "\udcff" for c in text):
        return text
    return decode_utf8(text.encode("utf-8", "surrogateescape"))


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
        # input_line_number: the text read and where in it the last value was completed
        self._text: str | None = None
        self.mark = 0
        self._counted = (None, 0, 0)  # (text, position, newlines before it)

    def _values(self):
        if self.raw:
            if self.slurp:
                self.current_name = self.texts[-1][0] if self.texts else None
                parts = [t for _, t in self.texts]
                memory.charge(sum(map(sys.getsizeof, parts)))  # their joined copy
                joined = "".join(parts)
                if self.texts:
                    self._text, self.mark = self.texts[-1][1], len(self.texts[-1][1])
                yield repair(joined)
                return
            for name, text in self.texts:
                self.current_name = name
                self._text = text
                for line, mark in _lines(text):
                    self.mark = mark
                    yield repair(line)
            return
        if self.slurp:
            slurped = []
            for n, (name, text) in enumerate(self.texts):
                self.current_name = name
                for v in self._decode(text, n == 0):
                    slurped.append(v)
                if self.error:
                    return
            yield slurped
            return
        for n, (name, text) in enumerate(self.texts):
            self.current_name = name
            yield from self._decode(text, n == 0)
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

    def _decode(self, text, first: bool):
        # one big value is parsed in one call: what it will take is checked first (about one
        # element per comma or opening bracket)
        if len(text) > 1 << 20:
            memory.need(len(text) + (text.count(",") + text.count("[") + text.count("{")) * PARSED_COST)
        text = self._text = read_text(text)
        try:
            yield from values(text, first, self)
        except JsonTextError as e:
            self.error = str(e)
        except RecursionError:
            self.error = "Exceeds depth limit for parsing"

    def next_value(self):
        return next(self._iter, MISSING)

    def line_number(self) -> float:
        """jq's input_line_number: the lines read so far -- through the end of the line where
        the last value was completed."""
        text = self._text
        if text is None:
            return 0.0
        newline = text.find("\n", max(self.mark, 0))
        upto = len(text) if newline < 0 else newline + 1
        counted_text, at, count = self._counted
        if counted_text is text and at <= upto:
            count += text.count("\n", at, upto)
        else:
            count = text.count("\n", 0, upto)
        self._counted = (text, upto, count)
        return float(count)


def json_values(name: str, text: str) -> tuple[list, str | None]:
    """Every JSON value of one text (--slurpfile, a module's data) and the error that ended
    them early, if any."""
    source = InputSource([(name, text)], False, False)
    values = []
    while True:
        v = source.next_value()
        if v is MISSING:
            return values, source.error
        values.append(v)


def _lines(text: str):
    """The lines of ``text`` one at a time with where each ends (a list of them all would
    cost ~60 bytes a line)."""
    pos, end = 0, len(text)
    while pos < end:
        nl = text.find("\n", pos)
        if nl < 0:
            yield text[pos:], end
            return
        yield text[pos:nl], nl
        pos = nl + 1
